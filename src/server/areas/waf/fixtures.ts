/**
 * The `waf` section of a zone in the fixtures file: puts the zone on the previous WAF and seeds
 * what the API cannot create: packages with their groups and rules, URI-based overrides, the count
 * of firewall rules and the length of the longest firewall rule expression.
 *
 *   waf:
 *     migration_state: default          # default|start|validation|complete (default: default)
 *     firewall_rules: 12                 # count of firewall rules (migration refused over 200)
 *     longest_firewall_expression: 180   # bytes (migration refused over 4096)
 *     packages: [{ id?, name, description?, detection_mode, sensitivity?, action_mode?,
 *                  groups: [{ id?, name, mode?, rules: [{ id?, description, mode?, default_mode?, allowed_modes?, new_id? }] }] }]
 *     (a traditional rule's default_mode: disable|simulate|block|challenge, default challenge;
 *      its mode: default (= default_mode) or one of those; an anomaly rule: mode on|off only)
 *     overrides: [{ id?, urls, rules?, groups?, description?, paused?, priority? }]
 *     entrypoint: { id?, name?, rules: [...] }  # the managed phase entry point (./entrypoint-fixture.ts)
 *     migration_config: { name?, rules: [...] }  # answered by GET waf_migration/config instead of the derived one
 */
import { WAF_MIGRATION_STATES, validateManagedEntrypoint } from '../../../rules/waf/index.js';
import type { FixtureContext, FixturePath } from '../../area.js';
import type { ZoneRow } from '../../store/core.js';
import { stableId } from '../../store/ids.js';
import { isPlainObject } from '../area-helpers/replies.js';
import { seedOnce } from '../area-helpers/seeds.js';
import { loadEntrypointFixture } from './entrypoint-fixture.js';
import { checkOverride, insertOverride } from './overrides.js';
import { deleteGivenConfig, readWafZone, writeGivenConfig, writeWafZone } from './store.js';
import { ID32 } from '../../../rules/shared/values.js';

const KEYS = [
  'migration_state',
  'firewall_rules',
  'longest_firewall_expression',
  'packages',
  'overrides',
  'entrypoint',
  'migration_config',
];

export function loadWafFixtures(value: unknown, zone: ZoneRow, path: FixturePath, ctx: FixtureContext): void {
  if (!isPlainObject(value)) ctx.fail(path, `must be a mapping (${KEYS.join(', ')})`);
  for (const k of Object.keys(value))
    if (!KEYS.includes(k)) ctx.fail([...path, k], `is not a waf fixture key; use ${KEYS.join(', ')}`);
  const db = ctx.app.db;
  const row = readWafZone(db, zone.id);
  if (
    value.migration_state !== undefined &&
    !(WAF_MIGRATION_STATES as readonly unknown[]).includes(value.migration_state)
  ) {
    ctx.fail([...path, 'migration_state'], `must be one of ${WAF_MIGRATION_STATES.join(', ')}`);
  }
  // The state is seeded once: after that only the API moves it (a restart never reverses a migration).
  if (seedOnce(db, 'waf_zone', zone.id)) {
    row.migration_state = (value.migration_state as typeof row.migration_state | undefined) ?? 'default';
  }
  row.firewall_rule_count = count(
    value.firewall_rules,
    row.firewall_rule_count,
    [...path, 'firewall_rules'],
    ctx,
  );
  row.longest_expression_bytes = count(
    value.longest_firewall_expression,
    row.longest_expression_bytes,
    [...path, 'longest_firewall_expression'],
    ctx,
  );
  writeWafZone(db, row);
  if (value.packages !== undefined) {
    if (!Array.isArray(value.packages)) ctx.fail([...path, 'packages'], 'must be a list of packages');
    value.packages.forEach((p, i) => loadPackage(p, zone, [...path, 'packages', i], ctx, i));
  }
  if (value.overrides !== undefined) {
    if (!Array.isArray(value.overrides))
      ctx.fail([...path, 'overrides'], 'must be a list of URI-based overrides');
    value.overrides.forEach((o, i) => {
      const p = [...path, 'overrides', i];
      if (!isPlainObject(o)) ctx.fail(p, 'must be a mapping with urls');
      const { id, ...fields } = o;
      const problems = checkOverride(fields, false);
      if (problems.length > 0) ctx.fail([...p, problems[0].path], problems[0].message);
      const oid = fixtureId(id, `override\0${zone.id}\0${JSON.stringify(fields.urls)}`, [...p, 'id'], ctx);
      // once deleted through the API, an override must not come back on the next load
      if (seedOnce(db, 'waf_override', `${zone.id}\0${oid}`)) insertOverride(ctx, zone.id, oid, fields);
    });
  }
  // a read-only answer of the original: it follows the file on every load, like the counts above
  if (value.migration_config !== undefined) {
    const problems = validateManagedEntrypoint(value.migration_config);
    if (problems.length > 0) {
      const parts = problems[0].path.split(/[.[\]]+/).filter(Boolean);
      ctx.fail(
        [...path, 'migration_config', ...parts.map((p) => (/^\d+$/.test(p) ? Number(p) : p))],
        problems[0].message,
      );
    }
    writeGivenConfig(db, zone.id, value.migration_config as Record<string, unknown>);
  } else deleteGivenConfig(db, zone.id);
  if (value.entrypoint !== undefined)
    loadEntrypointFixture(value.entrypoint, zone, [...path, 'entrypoint'], ctx);
}

function count(v: unknown, fallback: number, path: FixturePath, ctx: FixtureContext): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    ctx.fail(path, 'must be a whole number (0 or more)');
  return v;
}

function fixtureId(id: unknown, key: string, path: FixturePath, ctx: FixtureContext): string {
  if (id === undefined) return stableId('waf', key);
  if (typeof id !== 'string' || !ID32.test(id)) ctx.fail(path, 'must be 32 lowercase hexadecimal characters');
  return id;
}

function str(
  o: Record<string, unknown>,
  key: string,
  path: FixturePath,
  ctx: FixtureContext,
  def?: string,
): string {
  const v = o[key] ?? def;
  if (typeof v !== 'string' || v === '') ctx.fail([...path, key], 'is required (a string)');
  return v;
}

/** Packages, groups and rules have API-changeable modes: the first load seeds them, later loads keep the API's. */
function upsert(ctx: FixtureContext, table: string, cols: Record<string, unknown>): void {
  const names = Object.keys(cols);
  ctx.app.db
    .prepare(
      `INSERT OR IGNORE INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
    )
    .run(...names.map((n) => cols[n]));
}

/** A traditional rule's default_mode: the real API's values (OpenAPI `waf-managed-rules_default_mode`). */
const DEFAULT_MODES = ['disable', 'simulate', 'block', 'challenge'];
/** What a fixture rule that names no default_mode acts as (the previous WAF's usual action). */
const FIXTURE_DEFAULT_MODE = 'challenge';
/**
 * Package descriptions as the real API answers them when the fixture gives none (OpenAPI
 * examples): the OWASP package's summary, and for a traditional package the string "null".
 */
export const PACKAGE_DESCRIPTIONS = {
  anomaly: 'Covers OWASP Top 10 vulnerabilities and more.',
  traditional: 'null',
} as const;

function loadPackage(raw: unknown, zone: ZoneRow, path: FixturePath, ctx: FixtureContext, seq: number): void {
  if (!isPlainObject(raw)) ctx.fail(path, 'must be a mapping (name, detection_mode, groups)');
  const name = str(raw, 'name', path, ctx);
  const id = fixtureId(raw.id, `package\0${zone.id}\0${name}`, [...path, 'id'], ctx);
  const detection = str(raw, 'detection_mode', path, ctx, 'traditional');
  if (!['anomaly', 'traditional'].includes(detection))
    ctx.fail([...path, 'detection_mode'], 'must be anomaly or traditional');
  if (raw.description !== undefined && typeof raw.description !== 'string')
    ctx.fail([...path, 'description'], 'must be a string');
  const pkg: Record<string, unknown> = {
    id,
    name,
    description: raw.description ?? PACKAGE_DESCRIPTIONS[detection as 'anomaly' | 'traditional'],
    detection_mode: detection,
    zone_id: zone.id,
    status: 'active',
  };
  if (detection === 'anomaly') {
    pkg.sensitivity = raw.sensitivity ?? 'high';
    pkg.action_mode = raw.action_mode ?? 'challenge';
  }
  upsert(ctx, 'waf_packages', { zone_id: zone.id, id, seq, data: JSON.stringify(pkg) });
  const groups = raw.groups ?? [];
  if (!Array.isArray(groups)) ctx.fail([...path, 'groups'], 'must be a list of groups');
  groups.forEach((g, gi) => {
    const gp = [...path, 'groups', gi];
    if (!isPlainObject(g)) ctx.fail(gp, 'must be a mapping (name, mode, rules)');
    const gname = str(g, 'name', gp, ctx);
    const gid = fixtureId(g.id, `group\0${zone.id}\0${id}\0${gname}`, [...gp, 'id'], ctx);
    const mode = str(g, 'mode', gp, ctx, 'on');
    if (!['on', 'off'].includes(mode)) ctx.fail([...gp, 'mode'], 'must be on or off');
    const rules = g.rules ?? [];
    if (!Array.isArray(rules)) ctx.fail([...gp, 'rules'], 'must be a list of rules');
    const group = {
      id: gid,
      name: gname,
      description: g.description ?? null,
      mode,
      package_id: id,
      rules_count: rules.length,
      allowed_modes: ['on', 'off'],
    };
    upsert(ctx, 'waf_groups', {
      zone_id: zone.id,
      id: gid,
      package_id: id,
      seq: seq * 10_000 + gi,
      data: JSON.stringify(group),
    });
    rules.forEach((r, ri) => {
      const rp = [...gp, 'rules', ri];
      if (!isPlainObject(r)) ctx.fail(rp, 'must be a mapping (description, mode)');
      const rid = fixtureId(
        r.id,
        `rule\0${zone.id}\0${gid}\0${ri}\0${String(r.description)}`,
        [...rp, 'id'],
        ctx,
      );
      const allowed = (r.allowed_modes ??
        (detection === 'anomaly'
          ? ['on', 'off']
          : ['default', 'disable', 'simulate', 'block', 'challenge'])) as unknown;
      if (!Array.isArray(allowed) || allowed.some((m) => typeof m !== 'string'))
        ctx.fail([...rp, 'allowed_modes'], 'must be a list of modes');
      // anomaly rules are on or off and have no default_mode; a traditional rule's mode `default`
      // means "act as default_mode", which is one of the real API's four actions
      let defMode: string | undefined;
      if (detection === 'anomaly') {
        if (r.default_mode !== undefined)
          ctx.fail(
            [...rp, 'default_mode'],
            'anomaly rules have no default_mode (their modes are on and off)',
          );
      } else {
        defMode = String(r.default_mode ?? FIXTURE_DEFAULT_MODE);
        if (!DEFAULT_MODES.includes(defMode))
          ctx.fail([...rp, 'default_mode'], `must be one of ${DEFAULT_MODES.join(', ')}`);
      }
      const ruleMode = String(r.mode ?? (detection === 'anomaly' ? 'on' : 'default'));
      if (!allowed.includes(ruleMode)) ctx.fail([...rp, 'mode'], `must be one of ${allowed.join(', ')}`);
      if (r.new_id !== undefined && (typeof r.new_id !== 'string' || !ID32.test(r.new_id))) {
        ctx.fail(
          [...rp, 'new_id'],
          'must be the 32-hex id of the equivalent rule of the new managed ruleset',
        );
      }
      const rule: Record<string, unknown> = {
        id: rid,
        description: r.description ?? '',
        priority: String(r.priority ?? ri + 1),
        group: { id: gid, name: gname },
        group_id: gid,
        package_id: id,
        mode: ruleMode,
        allowed_modes: allowed,
      };
      if (defMode !== undefined) rule.default_mode = defMode;
      if (typeof r.new_id === 'string') rule.new_id = r.new_id;
      upsert(ctx, 'waf_rules', {
        zone_id: zone.id,
        id: rid,
        package_id: id,
        group_id: gid,
        seq: (seq * 10_000 + gi) * 10_000 + ri,
        data: JSON.stringify(rule),
      });
    });
  });
}
