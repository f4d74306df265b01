/**
 * Export of an execute rule's override object as a `managed_rulesets` entry: the inverse of
 * `overridesOf` (./exceptions.ts), with the OWASP shortcuts read back (the paranoia categories as
 * `paranoia_level`, the score rule's fields as the entry's `action` and `score_threshold`). An
 * object the entry cannot say exactly is not exported as one, since the file would own it and the
 * next apply would change it: the caller keeps it live and says so. Pure.
 */
import { OVERRIDE_ACTIONS } from '../../rules/waf/index.js';
import type { Entry } from '../../rules/shared/values.js';
import {
  OWASP_ID,
  OWASP_SCORE_RULE,
  SENSITIVITY_LEVELS,
  overridesOf,
  paranoiaCategory,
  paranoiaLevelOf,
  rulesetLabel,
  sameOverrides,
  scoreName,
  type DesiredRulesetEntry,
  type RulesetOverrides,
} from './exceptions.js';

const RULESET_KEYS = new Set(['action', 'enabled', 'sensitivity_level', 'categories', 'rules']);
const CATEGORY_KEYS = new Set(['category', 'action', 'enabled', 'sensitivity_level']);
const RULE_KEYS = new Set(['id', 'action', 'enabled', 'score_threshold', 'sensitivity_level']);

const isAction = (v: unknown) => v === undefined || (OVERRIDE_ACTIONS as readonly unknown[]).includes(v);
const isSensitivity = (v: unknown) =>
  v === undefined || (SENSITIVITY_LEVELS as readonly unknown[]).includes(v);

/** Whether the short form (`overrides: [{id, action?, enabled?}]`) says all of the object. */
export function shortFormSays(o: RulesetOverrides | undefined): boolean {
  return Object.entries(o ?? {}).every(
    ([k, v]) =>
      v === undefined ||
      (Array.isArray(v) && v.length === 0) ||
      (k === 'rules' &&
        Array.isArray(v) &&
        v.every(
          (r: Record<string, unknown>) =>
            Object.keys(r).every((f) => ['id', 'action', 'enabled'].includes(f)) &&
            isAction(r.action) &&
            (r.action !== undefined || r.enabled !== undefined),
        )),
  );
}

function fieldsOk(o: Record<string, unknown>, keys: Set<string>): boolean {
  return (
    Object.keys(o).every((k) => keys.has(k)) &&
    isAction(o.action) &&
    (o.enabled === undefined || typeof o.enabled === 'boolean') &&
    isSensitivity(o.sensitivity_level) &&
    (o.score_threshold === undefined ||
      (Number.isInteger(o.score_threshold) && Number(o.score_threshold) >= 1))
  );
}

/** The entry for `rulesetId`'s override object, or undefined when an entry cannot say it exactly. */
export function entryOf(rulesetId: string, o: RulesetOverrides | undefined): Entry | undefined {
  const set = o ?? {};
  if (!Object.keys(set).every((k) => RULESET_KEYS.has(k)) || !fieldsOk(set, RULESET_KEYS)) return undefined;
  const owasp = rulesetId === OWASP_ID;
  const entry: Entry = { ruleset: rulesetLabel(rulesetId) };
  if (owasp && set.action !== undefined) return undefined; // the entry's action means the score rule's
  for (const k of ['action', 'enabled', 'sensitivity_level'] as const)
    if (set[k] !== undefined) entry[k] = set[k];
  let categories = [...(set.categories ?? [])] as unknown as Record<string, unknown>[];
  if (!categories.every((c) => typeof c.category === 'string' && fieldsOk(c, CATEGORY_KEYS)))
    return undefined;
  if (owasp) {
    const level = paranoiaLevelOf(categories);
    if (level !== undefined) {
      entry.paranoia_level = level;
      const off = new Set([1, 2, 3, 4].filter((l) => l > level).map(paranoiaCategory));
      categories = categories.filter((c) => !off.has(String(c.category)));
    }
  }
  const rules: Record<string, unknown>[] = [];
  for (const raw of (set.rules ?? []) as unknown as Record<string, unknown>[]) {
    if (typeof raw.id !== 'string' || !fieldsOk(raw, RULE_KEYS)) return undefined;
    const r: Record<string, unknown> = { ...raw, id: raw.id.toLowerCase() };
    if (owasp && r.id === OWASP_SCORE_RULE) {
      if (r.action !== undefined) entry.action = r.action;
      if (typeof r.score_threshold === 'number') entry.score_threshold = scoreName(r.score_threshold);
      delete r.action;
      delete r.score_threshold;
      if (Object.keys(r).length === 1) continue;
    }
    rules.push(r);
  }
  if (categories.length > 0) entry.categories = categories;
  if (rules.length > 0) entry.rules = rules;
  // the entry must stand for exactly the live object, or the next plan would change it
  return sameOverrides(overridesOf(entry as unknown as DesiredRulesetEntry), o) ? entry : undefined;
}
