/**
 * `zones[].waf.entrypoint` of the fixtures file: the zone's managed phase entry point ruleset (the
 * new WAF Managed Rules deployment) as the API returns it, so a copy of live state
 * (`zoneplan export --as fixtures`) answers `GET .../rulesets/phases/http_request_firewall_managed/
 * entrypoint` with the same ruleset and rule ids, versions and refs. Checked like a PUT body. Seeded
 * once: later loads keep what the API made of it.
 *
 *   entrypoint: { id?, name?, description?, version?, last_updated?,
 *                 rules: [{ id?, version?, ref?, last_updated?, action, expression, enabled?, action_parameters?, ... }] }
 */
import { validateManagedEntrypoint } from '../../../rules/waf/index.js';
import { ID32 } from '../../../rules/shared/values.js';
import type { FixtureContext, FixturePath } from '../../area.js';
import type { ZoneRow } from '../../store/core.js';
import { now, stableId } from '../../store/ids.js';
import { isPlainObject } from '../area-helpers/replies.js';
import { seedOnce } from '../area-helpers/seeds.js';
import { MANAGED_PHASE } from './migration-routes.js';
import { saveRuleset, type StoredRule, type StoredRuleset } from './ruleset-store.js';

/** Ids as the API writes them: 32 hexadecimal characters; a missing one is derived (stable). */
function idOf(v: unknown, key: string, path: FixturePath, ctx: FixtureContext): string {
  if (v === undefined) return stableId('waf-entrypoint', key);
  if (typeof v !== 'string' || !ID32.test(v)) ctx.fail(path, 'must be 32 lowercase hexadecimal characters');
  return v;
}

function text(v: unknown, fallback: string, path: FixturePath, ctx: FixtureContext): string {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'string' && typeof v !== 'number') ctx.fail(path, 'must be a string');
  return String(v);
}

export function loadEntrypointFixture(
  value: unknown,
  zone: ZoneRow,
  path: FixturePath,
  ctx: FixtureContext,
): void {
  if (!isPlainObject(value)) ctx.fail(path, 'must be a mapping (name, rules)');
  // what a client may not send (version, last_updated) is checked here, the rest like a PUT body
  const rules = Array.isArray(value.rules) ? (value.rules as unknown[]) : value.rules;
  const body = {
    ...(value.name !== undefined ? { name: value.name } : {}),
    ...(value.description !== undefined ? { description: value.description } : {}),
    rules: Array.isArray(rules)
      ? rules.map((r) => {
          if (!isPlainObject(r)) return r;
          const { version: _v, last_updated: _l, ...rest } = r;
          return rest;
        })
      : rules,
  };
  const problems = validateManagedEntrypoint(body);
  if (problems.length > 0) {
    const p = problems[0];
    ctx.fail(
      [
        ...path,
        ...p.path
          .split(/[.[\]]+/)
          .filter(Boolean)
          .map(pathPart),
      ],
      p.message,
    );
  }
  const stamp = now();
  const id = idOf(value.id, zone.id, [...path, 'id'], ctx);
  const stored: StoredRule[] = (value.rules as Record<string, unknown>[]).map((r, i) => {
    const rp = [...path, 'rules', i];
    const rid = idOf(r.id, `${zone.id}\0${i}`, [...rp, 'id'], ctx);
    const rule: StoredRule = {
      id: rid,
      version: text(r.version, '1', [...rp, 'version'], ctx),
      action: String(r.action),
      expression: String(r.expression),
      description: text(r.description, '', [...rp, 'description'], ctx),
      last_updated: text(r.last_updated, stamp, [...rp, 'last_updated'], ctx),
      ref: text(r.ref, rid, [...rp, 'ref'], ctx) || rid,
      enabled: r.enabled !== false,
    };
    if (r.action_parameters !== undefined) rule.action_parameters = r.action_parameters;
    if (isPlainObject(r.logging)) rule.logging = r.logging;
    return rule;
  });
  const ruleset: StoredRuleset = {
    id,
    name: text(value.name, 'default', [...path, 'name'], ctx) || 'default',
    description: text(value.description, '', [...path, 'description'], ctx),
    kind: 'zone',
    phase: MANAGED_PHASE,
    version: text(value.version, '1', [...path, 'version'], ctx),
    last_updated: text(value.last_updated, stamp, [...path, 'last_updated'], ctx),
    rules: stored,
  };
  if (seedOnce(ctx.app.db, 'waf_entrypoint', zone.id)) saveRuleset(ctx.app.db, zone.id, ruleset);
}

/** A violation path's part as a fixtures path part: list indexes are numbers (`rules[0]`). */
function pathPart(part: string): string | number {
  return /^\d+$/.test(part) ? Number(part) : part;
}
