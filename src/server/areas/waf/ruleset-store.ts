/**
 * Phase entry point rulesets of a zone, stored whole as JSON with every version kept: building the
 * next version from a PUT body (server-set ids, versions, refs and timestamps; `id`, `version`,
 * `ref` may be omitted or blank in the body) and the ruleset object the API returns.
 */
import { ApiError } from '../../http/envelope.js';
import type { Db } from '../../store/db.js';
import { ID32, newId, now } from '../../store/ids.js';
import { isPlainObject, parseJson } from '../area-helpers/replies.js';
import { getRuleset } from './store.js';

export interface StoredRule {
  id: string;
  version: string;
  action: string;
  expression: string;
  description: string;
  last_updated: string;
  ref: string;
  enabled: boolean;
  action_parameters?: unknown;
  logging?: unknown;
}

export interface StoredRuleset {
  id: string;
  name: string;
  description: string;
  kind: 'zone';
  phase: string;
  version: string;
  last_updated: string;
  rules: StoredRule[];
}

export function readRuleset(db: Db, zoneId: string, phase: string): StoredRuleset | undefined {
  const row = getRuleset(db, zoneId, phase);
  return row ? parseJson<StoredRuleset | undefined>(row.data, undefined) : undefined;
}

/** Compares what a client controls in a rule, to decide whether its version moves. */
function ruleContent(r: Partial<StoredRule>): string {
  return JSON.stringify([
    r.action,
    r.expression,
    r.description ?? '',
    r.enabled ?? true,
    r.action_parameters ?? null,
    r.logging ?? null,
  ]);
}

/**
 * The next version of a phase's entry point from a validated body: it replaces every rule (rules
 * the body omits are gone). A rule sent with an `id` keeps it, whether the ruleset had it or not
 * (the real API's behaviour: docs/reference/api-facts.md "Managed rulesets"), and its version moves
 * only when it changed; a rule without one gets a new id. An id that is not 32 lowercase hex
 * digits, or that two rules share, is a 400.
 */
export function nextRuleset(
  current: StoredRuleset | undefined,
  zoneId: string,
  phase: string,
  body: Record<string, unknown>,
): StoredRuleset {
  const stamp = now();
  const known = new Map((current?.rules ?? []).map((r) => [r.id, r]));
  const sent = new Set<string>();
  const rules = (body.rules as Record<string, unknown>[]).map((raw, i): StoredRule => {
    const givenId = typeof raw.id === 'string' ? raw.id : '';
    if (givenId && !ID32.test(givenId)) {
      throw ApiError.of(
        400,
        1002,
        `rules[${i}].id: must be 32 lowercase hexadecimal characters; leave id out to add a rule`,
        `/rules/${i}/id`,
      );
    }
    if (givenId && sent.has(givenId)) {
      throw ApiError.of(
        400,
        1002,
        `rules[${i}].id: ${givenId} is the id of another rule of this body`,
        `/rules/${i}/id`,
      );
    }
    if (givenId) sent.add(givenId);
    const before = givenId ? known.get(givenId) : undefined;
    const id = givenId || newId();
    const rule: StoredRule = {
      id,
      version: before?.version ?? '1',
      action: raw.action as string,
      expression: raw.expression as string,
      description: typeof raw.description === 'string' ? raw.description : '',
      last_updated: before?.last_updated ?? stamp,
      ref: typeof raw.ref === 'string' && raw.ref !== '' ? raw.ref : (before?.ref ?? id),
      enabled: typeof raw.enabled === 'boolean' ? raw.enabled : true,
    };
    if (raw.action_parameters !== undefined) rule.action_parameters = raw.action_parameters;
    if (isPlainObject(raw.logging)) rule.logging = raw.logging;
    if (before && ruleContent(before) !== ruleContent(rule)) {
      rule.version = String(Number(before.version) + 1);
      rule.last_updated = stamp;
    }
    return rule;
  });
  return {
    id: current?.id ?? newId(),
    name: typeof body.name === 'string' && body.name !== '' ? body.name : (current?.name ?? 'default'),
    description: typeof body.description === 'string' ? body.description : (current?.description ?? ''),
    kind: 'zone',
    phase,
    version: String(Number(current?.version ?? '0') + 1),
    last_updated: stamp,
    rules,
  };
}

/** Stores the entry point's new version, and keeps it in the ruleset's history (`.../versions`). */
export function saveRuleset(db: Db, zoneId: string, rs: StoredRuleset): void {
  const data = JSON.stringify(rs);
  db.prepare(
    `INSERT INTO rulesets (id, zone_id, phase, data) VALUES (?, ?, ?, ?)
     ON CONFLICT(zone_id, phase) DO UPDATE SET data = excluded.data`,
  ).run(rs.id, zoneId, rs.phase, data);
  db.prepare(
    `INSERT INTO ruleset_versions (zone_id, ruleset_id, version, data) VALUES (?, ?, ?, ?)
     ON CONFLICT(zone_id, ruleset_id, version) DO UPDATE SET data = excluded.data`,
  ).run(zoneId, rs.id, Number(rs.version), data);
}

/** The zone's own rulesets (one entry point per phase), latest versions, in phase order. */
export function listZoneRulesets(db: Db, zoneId: string): StoredRuleset[] {
  const rows = db.prepare('SELECT data FROM rulesets WHERE zone_id = ? ORDER BY phase').all(zoneId) as {
    data: string;
  }[];
  return rows.flatMap((r) => parseJson<StoredRuleset[]>(`[${r.data}]`, []));
}

/** Every stored version of one of the zone's rulesets, oldest first (none for an unknown id). */
export function zoneRulesetVersions(db: Db, zoneId: string, rulesetId: string): StoredRuleset[] {
  const rows = db
    .prepare('SELECT data FROM ruleset_versions WHERE zone_id = ? AND ruleset_id = ? ORDER BY version')
    .all(zoneId, rulesetId) as { data: string }[];
  return rows.flatMap((r) => parseJson<StoredRuleset[]>(`[${r.data}]`, []));
}
