/**
 * A copy of another target's managed ruleset, in place of the generated version 1: the fixtures'
 * `managed_rulesets[].base`. A sandbox standing in for a real target (a rehearsal, a copy of
 * production) must answer the real catalogue, whose rule ids and version differ from the generated
 * one, or every exception the file names would be an unknown rule there. Later versions (given by
 * the file or published at runtime) build on it.
 */
import { isObject } from '../../../rules/shared/values.js';
import type { Db } from '../../store/db.js';
import { ID32 } from '../../store/ids.js';
import { parseJson } from '../area-helpers/replies.js';
import type { ManagedRule, ManagedRuleset } from './managed-catalogue.js';

export const MANAGED_BASES_SQL = `CREATE TABLE managed_ruleset_bases (
     ruleset_id TEXT PRIMARY KEY,
     data TEXT NOT NULL
   );`;

type Fail = (path: (string | number)[], message: string) => never;

const BASE_KEYS = ['version', 'last_updated', 'name', 'description', 'rules'];
const RULE_KEYS = ['id', 'version', 'action', 'categories', 'description', 'enabled', 'last_updated', 'ref'];

function isoDate(v: unknown, path: (string | number)[], fail: Fail): string {
  if (typeof v !== 'string' || Number.isNaN(Date.parse(v)))
    fail(path, 'must be an ISO 8601 date and time (2026-03-01T00:00:00Z)');
  return v;
}

function digits(v: unknown, path: (string | number)[], fail: Fail): string {
  const text = typeof v === 'number' ? String(v) : v;
  if (typeof text !== 'string' || !/^[1-9][0-9]{0,8}$/.test(text))
    fail(path, 'must be a version number (1 or more)');
  return text;
}

/**
 * Checks a copied version as the API answered it (the rules' own `version`, `last_updated` and
 * `ref` default to the ruleset's and the rule id) and returns it as served, on top of `generated`
 * (its id, kind and phase; its name and description unless the copy gives them).
 */
export function parseBase(raw: unknown, generated: ManagedRuleset, fail: Fail): ManagedRuleset {
  if (!isObject(raw)) fail([], 'must be a mapping (version, last_updated, rules)');
  for (const k of Object.keys(raw))
    if (!BASE_KEYS.includes(k)) fail([k], `is not a key here; use ${BASE_KEYS.join(', ')}`);
  const version = digits(raw.version, ['version'], fail);
  const lastUpdated = isoDate(raw.last_updated, ['last_updated'], fail);
  for (const k of ['name', 'description'] as const)
    if (raw[k] !== undefined && typeof raw[k] !== 'string') fail([k], 'must be a string');
  if (!Array.isArray(raw.rules))
    fail(['rules'], 'is required: the list of the rules as the API answered them');
  const seen = new Set<string>();
  const rules = raw.rules.map((r, i): ManagedRule => {
    const p = ['rules', i];
    if (!isObject(r)) fail(p, 'must be a mapping (id, action, categories, description, enabled, ...)');
    for (const k of Object.keys(r))
      if (!RULE_KEYS.includes(k)) fail([...p, k], `is not a managed rule field; use ${RULE_KEYS.join(', ')}`);
    if (typeof r.id !== 'string' || !ID32.test(r.id))
      fail([...p, 'id'], 'must be 32 lowercase hexadecimal characters');
    if (seen.has(r.id)) fail([...p, 'id'], `${r.id} is already a rule above`);
    seen.add(r.id);
    // a copy holds what the other target answered: any action name, and any categories
    if (typeof r.action !== 'string' || !/^[a-z_]+$/.test(r.action))
      fail([...p, 'action'], 'must be an action name');
    const cats = r.categories ?? [];
    if (!Array.isArray(cats) || cats.some((c) => typeof c !== 'string' || c === ''))
      fail([...p, 'categories'], 'must be a list of category names');
    if (r.description !== undefined && typeof r.description !== 'string')
      fail([...p, 'description'], 'must be a string');
    if (r.enabled !== undefined && typeof r.enabled !== 'boolean')
      fail([...p, 'enabled'], 'must be true or false');
    if (r.ref !== undefined && (typeof r.ref !== 'string' || r.ref === ''))
      fail([...p, 'ref'], 'must be a non-empty string');
    return {
      id: r.id,
      version: r.version === undefined ? version : digits(r.version, [...p, 'version'], fail),
      action: r.action,
      categories: cats as string[],
      description: (r.description as string | undefined) ?? '',
      last_updated:
        r.last_updated === undefined ? lastUpdated : isoDate(r.last_updated, [...p, 'last_updated'], fail),
      ref: (r.ref as string | undefined) ?? r.id,
      enabled: (r.enabled as boolean | undefined) ?? true,
    };
  });
  return {
    ...generated,
    name: (raw.name as string | undefined) ?? generated.name,
    description: (raw.description as string | undefined) ?? generated.description,
    version,
    last_updated: lastUpdated,
    rules,
  };
}

export function readBase(db: Db, rulesetId: string): ManagedRuleset | undefined {
  const row = db.prepare('SELECT data FROM managed_ruleset_bases WHERE ruleset_id = ?').get(rulesetId) as
    { data: string } | undefined;
  return row ? parseJson<ManagedRuleset | undefined>(row.data, undefined) : undefined;
}

/**
 * Makes `base` (or, with undefined, the generated version 1) the version the ruleset's later ones
 * build on. When that changes, the stored later versions go: they were changes to another version.
 */
export function writeBase(db: Db, rulesetId: string, base: ManagedRuleset | undefined): void {
  const before = db.prepare('SELECT data FROM managed_ruleset_bases WHERE ruleset_id = ?').get(rulesetId) as
    { data: string } | undefined;
  const data = base === undefined ? undefined : JSON.stringify(base);
  if (before?.data === data) return;
  db.prepare('DELETE FROM managed_ruleset_versions WHERE ruleset_id = ?').run(rulesetId);
  if (data === undefined) db.prepare('DELETE FROM managed_ruleset_bases WHERE ruleset_id = ?').run(rulesetId);
  else
    db.prepare(
      `INSERT INTO managed_ruleset_bases (ruleset_id, data) VALUES (?, ?)
       ON CONFLICT(ruleset_id) DO UPDATE SET data = excluded.data`,
    ).run(rulesetId, data);
}
