/**
 * Later versions of the managed rulesets: the provider adds, removes and changes managed rules
 * over time, and the ruleset's `version` and `last_updated` move. The first version is the
 * generated catalogue (./managed-catalogue.ts), or a copy of another target's (./managed-base.ts);
 * each later version is stored as its changes to the one before (a few rules, not a copy of hundreds), given by fixtures (`managed_rulesets`) or
 * published at runtime by the test route. They are the same for every zone, as on the real API.
 */
import { isObject } from '../../../rules/shared/values.js';
import type { Db } from '../../store/db.js';
import { ID32 } from '../../store/ids.js';
import { parseJson } from '../area-helpers/replies.js';
import {
  FIRST_VERSION_DATE,
  MANAGED_RULE_ACTIONS,
  firstManagedVersions,
  type ManagedRule,
  type ManagedRuleset,
} from './managed-catalogue.js';
import { readBase } from './managed-base.js';

export const MANAGED_VERSIONS_SQL = `CREATE TABLE managed_ruleset_versions (
     ruleset_id TEXT NOT NULL,
     version INTEGER NOT NULL,
     data TEXT NOT NULL,
     PRIMARY KEY (ruleset_id, version)
   );`;

/** What one version changes: rules added, removed (by id) and changed (by id), and its date. */
export interface VersionChanges {
  add: ManagedRule[];
  remove: string[];
  change: (Partial<Omit<ManagedRule, 'id'>> & { id: string })[];
  last_updated: string;
}

/** A problem in a change set: where (path inside it) and what. */
export interface ChangeProblem {
  path: (string | number)[];
  message: string;
}

const CHANGE_KEYS = ['add', 'remove', 'change', 'last_updated'];
const RULE_KEYS = ['id', 'action', 'categories', 'description', 'enabled'];

/** The default date of a version a file gives: one day after the version before, so reloads change nothing. */
export function defaultVersionDate(before: ManagedRuleset): string {
  const d = new Date(Date.parse(before.last_updated) + 86_400_000);
  return d.toISOString().replace('Z', '000Z');
}

type Fail = (path: (string | number)[], message: string) => never;

function ruleFields(raw: Record<string, unknown>, path: (string | number)[], fail: Fail, needAll: boolean) {
  for (const k of Object.keys(raw))
    if (!RULE_KEYS.includes(k))
      fail([...path, k], `is not a managed rule field; use ${RULE_KEYS.join(', ')}`);
  if (typeof raw.id !== 'string' || !ID32.test(raw.id))
    fail([...path, 'id'], 'is required: 32 lowercase hexadecimal characters');
  const out: Partial<ManagedRule> & { id: string } = { id: raw.id };
  if (raw.action !== undefined || needAll) {
    const action = raw.action ?? 'block';
    if (!(MANAGED_RULE_ACTIONS as readonly unknown[]).includes(action))
      fail([...path, 'action'], `must be one of ${MANAGED_RULE_ACTIONS.join(', ')}`);
    out.action = action as string;
  }
  if (raw.categories !== undefined || needAll) {
    const cats = raw.categories;
    if (!Array.isArray(cats) || cats.length === 0 || cats.some((c) => typeof c !== 'string' || c === ''))
      fail([...path, 'categories'], 'must be a non-empty list of category names');
    if (new Set(cats).size !== cats.length) fail([...path, 'categories'], 'must not repeat a category');
    out.categories = cats as string[];
  }
  if (raw.description !== undefined || needAll) {
    if (typeof raw.description !== 'string' || raw.description === '')
      fail([...path, 'description'], 'is required (a string)');
    out.description = raw.description;
  }
  if (raw.enabled !== undefined || needAll) {
    const enabled = raw.enabled ?? true;
    if (typeof enabled !== 'boolean') fail([...path, 'enabled'], 'must be true or false');
    out.enabled = enabled;
  }
  return out;
}

/**
 * Checks a change set against the version it follows and returns it in stored form. Every rule
 * id it removes or changes must be a rule of that version; an added id must not be.
 */
export function parseChanges(
  raw: unknown,
  before: ManagedRuleset,
  defaultDate: string,
  fail: Fail,
): VersionChanges {
  if (!isObject(raw)) fail([], `must be a mapping (${CHANGE_KEYS.join(', ')})`);
  for (const k of Object.keys(raw))
    if (!CHANGE_KEYS.includes(k)) fail([k], `is not a version field; use ${CHANGE_KEYS.join(', ')}`);
  const ids = new Set(before.rules.map((r) => r.id));
  const list = (key: string): unknown[] => {
    const v = raw[key] ?? [];
    if (!Array.isArray(v)) fail([key], 'must be a list');
    return v;
  };
  const remove = list('remove').map((id, i) => {
    if (typeof id !== 'string' || !ids.has(id))
      fail(['remove', i], `${String(id).slice(0, 40)} is not a rule of version ${before.version}`);
    return id;
  });
  const change = list('change').map((r, i) => {
    if (!isObject(r))
      fail(['change', i], 'must be a mapping with the id of the rule and the fields that change');
    const fields = ruleFields(r, ['change', i], fail, false);
    if (!ids.has(fields.id))
      fail(['change', i, 'id'], `${fields.id} is not a rule of version ${before.version}`);
    if (remove.includes(fields.id)) fail(['change', i, 'id'], `${fields.id} is also removed by this version`);
    return fields;
  });
  const added = new Set<string>();
  const add = list('add').map((r, i): ManagedRule => {
    if (!isObject(r)) fail(['add', i], 'must be a mapping (id, description, categories, action?, enabled?)');
    const f = ruleFields(r, ['add', i], fail, true);
    if (ids.has(f.id) || added.has(f.id)) fail(['add', i, 'id'], `${f.id} is already a rule of the ruleset`);
    added.add(f.id);
    return { ...(f as ManagedRule), version: '', last_updated: '', ref: f.id };
  });
  let date = defaultDate;
  if (raw.last_updated !== undefined) {
    if (typeof raw.last_updated !== 'string' || Number.isNaN(Date.parse(raw.last_updated)))
      fail(['last_updated'], 'must be an ISO 8601 date and time (2026-03-01T00:00:00Z)');
    date = new Date(raw.last_updated).toISOString().replace('Z', '000Z');
  }
  return { add, remove, change, last_updated: date };
}

/** The version after `before`, with `changes` applied: changed and added rules carry the new version. */
export function applyChanges(before: ManagedRuleset, changes: VersionChanges): ManagedRuleset {
  const version = String(Number(before.version) + 1);
  const stamp = { version, last_updated: changes.last_updated };
  const removed = new Set(changes.remove);
  const changed = new Map(changes.change.map((c) => [c.id, c]));
  const rules = before.rules
    .filter((r) => !removed.has(r.id))
    .map((r) => {
      const c = changed.get(r.id);
      return c ? { ...r, ...c, ...stamp } : r;
    });
  for (const r of changes.add) rules.push({ ...r, ...stamp });
  return { ...before, ...stamp, rules };
}

/** The stored change sets of a ruleset, in version order (version 2 first). */
function storedChanges(db: Db, rulesetId: string): VersionChanges[] {
  const rows = db
    .prepare('SELECT data FROM managed_ruleset_versions WHERE ruleset_id = ? ORDER BY version')
    .all(rulesetId) as { data: string }[];
  return rows.map((r) =>
    parseJson<VersionChanges>(r.data, { add: [], remove: [], change: [], last_updated: FIRST_VERSION_DATE }),
  );
}

/** Every version of a managed ruleset, oldest first; undefined for an id that is not one. */
export function managedVersions(db: Db, rulesetId: string): ManagedRuleset[] | undefined {
  const generated = firstManagedVersions().find((r) => r.id === rulesetId);
  if (!generated) return undefined;
  const out = [readBase(db, rulesetId) ?? generated];
  for (const c of storedChanges(db, rulesetId)) out.push(applyChanges(out[out.length - 1]!, c));
  return out;
}

/** The latest version of every managed ruleset. */
export function latestManagedRulesets(db: Db): ManagedRuleset[] {
  return firstManagedVersions().map((r) => managedVersions(db, r.id)!.at(-1)!);
}

/** Stores version `version` (after the first) of a ruleset, replacing what that version held. */
export function saveChanges(db: Db, rulesetId: string, version: number, changes: VersionChanges): void {
  db.prepare(
    `INSERT INTO managed_ruleset_versions (ruleset_id, version, data) VALUES (?, ?, ?)
     ON CONFLICT(ruleset_id, version) DO UPDATE SET data = excluded.data`,
  ).run(rulesetId, version, JSON.stringify(changes));
}
