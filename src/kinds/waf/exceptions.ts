/**
 * `waf.managed_rulesets`: the exceptions a file declares for each managed ruleset the zone's
 * `http_request_firewall_managed` entry point executes, and the override object of the execute rule
 * they stand for (docs/kinds/waf.md, "Exceptions"). Pure: no I/O.
 *
 * The file owns the whole override object of every ruleset it names, so the object is built from the
 * entry alone. The OWASP shortcuts are spelt out here once, for the planner and for export:
 *  - `paranoia_level: N` disables the categories `paranoia-level-(N+1)` .. `paranoia-level-4`;
 *  - `score_threshold` and `action` are fields of one rule override, of the score rule 949110, since
 *    that rule alone acts on the anomaly score (overriding the other rules' action changes nothing).
 */
import { ID32_ANY_CASE } from '../../rules/shared/values.js';
import type { OverrideEntry } from './model.js';

/** The short names a file may use for the managed rulesets (their ids are the same in every zone). */
export const RULESET_SHORT_NAMES = {
  cloudflare_managed: { id: 'efb7b8c949ac4650a09736fc376e9aee', name: 'Cloudflare Managed Ruleset' },
  owasp: { id: '4814384a9e5d4991b9815dcfc25d2f1f', name: 'Cloudflare OWASP Core Ruleset' },
  exposed_credentials: {
    id: 'c2e184081120413c86c3ab7e14069605',
    name: 'Cloudflare Exposed Credentials Check',
  },
} as const;

export type ShortName = keyof typeof RULESET_SHORT_NAMES;

export const OWASP_ID = RULESET_SHORT_NAMES.owasp.id;
/** "949110: Inbound Anomaly Score Exceeded": the OWASP rule that acts on the score. */
export const OWASP_SCORE_RULE = '6179ae15870a4bb7b2d480d4843b323c';
/** The documented score thresholds of the OWASP ruleset. */
export const SCORE_LEVELS = { high: 25, medium: 40, low: 60 } as const;
export const PARANOIA_LEVELS = [1, 2, 3, 4] as const;
export { SENSITIVITY_LEVELS } from '../../rules/waf/ruleset.js';

/** The ruleset id a file's `ruleset` names (a short name or a 32-hex id), else undefined. */
export function rulesetIdOf(name: string): string | undefined {
  const short = (RULESET_SHORT_NAMES as Record<string, { id: string }>)[name];
  if (short) return short.id;
  return ID32_ANY_CASE.test(name) ? name.toLowerCase() : undefined;
}

/** How plans and exports name a ruleset: its short name when it has one, else its id. */
export function rulesetLabel(id: string): string {
  const hit = Object.entries(RULESET_SHORT_NAMES).find(([, r]) => r.id === id.toLowerCase());
  return hit ? hit[0] : id.toLowerCase();
}

export function rulesetTitle(id: string): string | undefined {
  return Object.values(RULESET_SHORT_NAMES).find((r) => r.id === id.toLowerCase())?.name;
}

export const paranoiaCategory = (level: number) => `paranoia-level-${level}`;

/**
 * The paranoia level an override object's categories stand for: N when exactly the categories of the
 * levels above N are turned off, each with nothing else; undefined otherwise (they are then shown
 * and exported as the categories they are).
 */
export function paranoiaLevelOf(categories: readonly Record<string, unknown>[]): number | undefined {
  const levels = categories.filter((c) => /^paranoia-level-[1-4]$/.test(String(c.category)));
  if (levels.length === 0 || !levels.every((c) => c.enabled === false && Object.keys(c).length === 2))
    return undefined;
  const level = 4 - levels.length;
  const expected = PARANOIA_LEVELS.filter((l) => l > level).map(paranoiaCategory);
  return level >= 1 && expected.every((name) => levels.some((c) => c.category === name)) ? level : undefined;
}

/** The API's number for a file's score threshold (a level name or a number). */
export function scoreOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value in SCORE_LEVELS)
    return SCORE_LEVELS[value as keyof typeof SCORE_LEVELS];
  return undefined;
}

/** A file's score threshold as export writes it: the level's name when it is a documented one. */
export function scoreName(value: number): string | number {
  const hit = Object.entries(SCORE_LEVELS).find(([, n]) => n === value);
  return hit ? hit[0] : value;
}

export interface DesiredCategory {
  category: string;
  action?: string;
  enabled?: boolean;
  sensitivity_level?: string;
}

export interface DesiredRule {
  id: string;
  action?: string;
  enabled?: boolean;
  score_threshold?: number;
  sensitivity_level?: string;
}

export interface DesiredRulesetEntry {
  /** as written (short name or id) */
  ruleset: string;
  action?: string;
  enabled?: boolean;
  sensitivity_level?: string;
  paranoia_level?: number;
  score_threshold?: string | number;
  report_new_rules?: boolean;
  categories?: DesiredCategory[];
  rules?: DesiredRule[];
}

/** The override object of an execute rule, as the API holds it. */
export interface RulesetOverrides {
  action?: string;
  enabled?: boolean;
  sensitivity_level?: string;
  categories?: DesiredCategory[];
  rules?: OverrideEntry[];
  [key: string]: unknown;
}

const FIELDS = ['action', 'enabled', 'sensitivity_level', 'score_threshold'] as const;

function pick<T extends Record<string, unknown>>(from: Record<string, unknown>, keys: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (from[k] !== undefined) out[k] = from[k];
  return out as T;
}

/** Reads the file's entries defensively (the schema and validate have passed). */
export function readRulesetEntries(value: unknown): DesiredRulesetEntry[] {
  const list = (value as { managed_rulesets?: unknown } | undefined)?.managed_rulesets;
  return Array.isArray(list) ? (list.filter((e) => e && typeof e === 'object') as DesiredRulesetEntry[]) : [];
}

/**
 * The override object an entry stands for. Ruleset-level fields first, then the categories (the
 * file's, then the paranoia level's that the file does not set itself), then the rules (the file's,
 * with the OWASP score rule's fields folded in). Empty when the entry declares no exception.
 */
export function overridesOf(entry: DesiredRulesetEntry): RulesetOverrides {
  const id = rulesetIdOf(entry.ruleset);
  const owasp = id === OWASP_ID;
  const out: RulesetOverrides = {};
  if (!owasp && entry.action !== undefined) out.action = entry.action;
  if (entry.enabled !== undefined) out.enabled = entry.enabled;
  if (entry.sensitivity_level !== undefined) out.sensitivity_level = entry.sensitivity_level;
  const categories: DesiredCategory[] = (entry.categories ?? []).map((c) => ({
    category: c.category,
    ...pick(c as unknown as Record<string, unknown>, ['action', 'enabled', 'sensitivity_level']),
  }));
  if (owasp && entry.paranoia_level !== undefined) {
    const named = new Set(categories.map((c) => c.category));
    for (let level = entry.paranoia_level + 1; level <= 4; level++) {
      if (!named.has(paranoiaCategory(level)))
        categories.push({ category: paranoiaCategory(level), enabled: false });
    }
  }
  if (categories.length > 0) out.categories = categories;
  const rules: OverrideEntry[] = (entry.rules ?? []).map((r) => ({
    id: r.id.toLowerCase(),
    ...pick<Record<string, unknown>>(r as unknown as Record<string, unknown>, FIELDS),
  }));
  if (owasp) {
    const score: Record<string, unknown> = {};
    if (entry.action !== undefined) score.action = entry.action;
    const threshold = scoreOf(entry.score_threshold);
    if (threshold !== undefined) score.score_threshold = threshold;
    if (Object.keys(score).length > 0) {
      const own = rules.find((r) => r.id === OWASP_SCORE_RULE);
      // the rule's own fields win: validate refuses a field set in both places
      if (own) Object.assign(own, { ...score, ...own });
      else rules.push({ id: OWASP_SCORE_RULE, ...score });
    }
  }
  if (rules.length > 0) out.rules = rules;
  return out;
}

/**
 * An override object in a canonical form, for comparing the file's with the live one: categories
 * sorted by name and rules by id (their order means nothing to the API), empty lists dropped, ids
 * in lower case, and every other key kept as it is so that nothing live is compared away.
 */
export function canonicalOverrides(o: RulesetOverrides | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o ?? {})) {
    if (v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    if (k === 'categories' && Array.isArray(v)) {
      out[k] = [...(v as DesiredCategory[])]
        .map((c) => sortedKeys(c as unknown as Record<string, unknown>))
        .sort((a, b) => String(a.category).localeCompare(String(b.category)));
    } else if (k === 'rules' && Array.isArray(v)) {
      out[k] = (v as OverrideEntry[])
        .map((r) => sortedKeys({ ...r, id: String(r.id).toLowerCase() }))
        .sort((a, b) => String(a.id).localeCompare(String(b.id)));
    } else out[k] = v;
  }
  return sortedKeys(out);
}

function sortedKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );
}

export function sameOverrides(a: RulesetOverrides | undefined, b: RulesetOverrides | undefined): boolean {
  return JSON.stringify(canonicalOverrides(a)) === JSON.stringify(canonicalOverrides(b));
}
