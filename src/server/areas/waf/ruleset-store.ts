/**
 * Phase entry point rulesets of a zone, stored whole as JSON: building the next version from a PUT
 * body (server-set ids, versions, refs and timestamps; `id`, `version`, `ref` may be omitted or
 * blank in the body) and the ruleset object the API returns.
 */
import { ApiError } from '../../http/envelope.js';
import type { Db } from '../../store/db.js';
import { newId, now } from '../../store/ids.js';
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
 * The next version of a phase's entry point from a validated body. Rules with a known id keep it
 * (their version moves only when they changed); rules without one get a new id. Throws a 400 for
 * an id that is not a rule of this ruleset.
 */
export function nextRuleset(
  current: StoredRuleset | undefined,
  zoneId: string,
  phase: string,
  body: Record<string, unknown>,
): StoredRuleset {
  const stamp = now();
  const known = new Map((current?.rules ?? []).map((r) => [r.id, r]));
  const rules = (body.rules as Record<string, unknown>[]).map((raw, i): StoredRule => {
    const givenId = typeof raw.id === 'string' ? raw.id : '';
    const before = givenId ? known.get(givenId) : undefined;
    if (givenId && !before) {
      throw ApiError.of(
        400,
        1002,
        `rules[${i}].id: ${givenId.slice(0, 40)} is not a rule of this ruleset; leave id blank to add a rule`,
        `/rules/${i}/id`,
      );
    }
    const id = before?.id ?? newId();
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

export function saveRuleset(db: Db, zoneId: string, rs: StoredRuleset): void {
  db.prepare(
    `INSERT INTO rulesets (id, zone_id, phase, data) VALUES (?, ?, ?, ?)
     ON CONFLICT(zone_id, phase) DO UPDATE SET data = excluded.data`,
  ).run(rs.id, zoneId, rs.phase, JSON.stringify(rs));
}
