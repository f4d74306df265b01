/**
 * Merging the file's overrides into a ruleset configuration (the migration's equivalent configuration,
 * or the live entrypoint after the migration). Only the overrides the file names change; every other
 * rule of the ruleset, and every other override, is kept as it is.
 */
import type { OverrideEntry, RulesetConfig, RulesetRule } from './model.js';

export interface DesiredOverride {
  id: string;
  action?: string;
  enabled?: boolean;
  ruleset?: string;
}

/** What the plan shows for the overrides the file names: `{ruleId: {action, enabled}}`, absent as null. */
export type OverrideView = Record<string, { action?: string; enabled?: boolean; ruleset?: string } | null>;

export interface MergeResult {
  config: RulesetConfig;
  problems: string[];
  /** the named overrides before and after the merge, for the plan */
  before: OverrideView;
  after: OverrideView;
}

const isExecute = (r: RulesetRule) => r.action === 'execute' && typeof r.action_parameters?.id === 'string';

/** Picks the execute rule an override belongs to (see the schema's `ruleset` description). */
function targetRule(rules: RulesetRule[], o: DesiredOverride): RulesetRule | undefined {
  const executes = rules.filter(isExecute);
  if (o.ruleset)
    return executes.find((r) => r.action_parameters?.id?.toLowerCase() === o.ruleset?.toLowerCase());
  const id = o.id.toLowerCase();
  return (
    executes.find((r) =>
      (r.action_parameters?.overrides?.rules ?? []).some((e) => e.id?.toLowerCase() === id),
    ) ?? executes[0]
  );
}

function view(rule: RulesetRule | undefined, id: string): OverrideView[string] {
  const entry = rule?.action_parameters?.overrides?.rules?.find(
    (e) => e.id?.toLowerCase() === id.toLowerCase(),
  );
  if (!entry) return null;
  const v: NonNullable<OverrideView[string]> = { ruleset: rule?.action_parameters?.id };
  if (entry.action !== undefined) v.action = entry.action;
  if (entry.enabled !== undefined) v.enabled = entry.enabled;
  return v;
}

export function mergeOverrides(base: RulesetConfig, overrides: DesiredOverride[]): MergeResult {
  const config = structuredClone(base);
  const problems: string[] = [];
  const before: OverrideView = {};
  const after: OverrideView = {};
  for (const o of overrides) {
    const id = o.id.toLowerCase();
    const rule = targetRule(config.rules, o);
    if (!rule) {
      problems.push(
        o.ruleset
          ? `override ${o.id}: the ruleset executes no managed ruleset ${o.ruleset}`
          : `override ${o.id}: the ruleset has no rule that executes a managed ruleset to override`,
      );
      continue;
    }
    // the current value wherever it is (it may live in another execute rule than the target)
    const holder = config.rules.find((r) => view(r, id) !== null);
    before[id] = view(holder, id);
    if (holder && holder !== rule) removeEntry(holder, id);
    const params = (rule.action_parameters ??= {});
    const ov = (params.overrides ??= {});
    const list: OverrideEntry[] = (ov.rules ??= []);
    let entry = list.find((e) => e.id?.toLowerCase() === id);
    if (!entry) {
      entry = before[id] ? { id, ...stripRuleset(before[id]) } : { id };
      list.push(entry);
    }
    if (o.action !== undefined) entry.action = o.action;
    if (o.enabled !== undefined) entry.enabled = o.enabled;
    after[id] = view(rule, id);
  }
  return { config, problems, before, after };
}

function removeEntry(rule: RulesetRule, id: string): void {
  const ov = rule.action_parameters?.overrides;
  if (ov?.rules) ov.rules = ov.rules.filter((e) => e.id?.toLowerCase() !== id);
}

function stripRuleset(v: NonNullable<OverrideView[string]>): Omit<OverrideEntry, 'id'> {
  const out: Omit<OverrideEntry, 'id'> = {};
  if (v.action !== undefined) out.action = v.action;
  if (v.enabled !== undefined) out.enabled = v.enabled;
  return out;
}

/** Whether the merge changes any named override (only what the file sets is compared). */
export function overridesChanged(before: OverrideView, after: OverrideView): boolean {
  return JSON.stringify(sortKeys(before)) !== JSON.stringify(sortKeys(after));
}

function sortKeys(v: OverrideView): OverrideView {
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, v[k]]),
  );
}

/** Reads the file's overrides defensively. */
export function readOverrides(value: unknown): DesiredOverride[] {
  const list = (value as { overrides?: unknown } | undefined)?.overrides;
  if (!Array.isArray(list)) return [];
  return list
    .filter((o): o is Record<string, unknown> => !!o && typeof o === 'object' && typeof o.id === 'string')
    .map((o) => {
      const out: DesiredOverride = { id: String(o.id).toLowerCase() };
      if (typeof o.action === 'string') out.action = o.action;
      if (typeof o.enabled === 'boolean') out.enabled = o.enabled;
      if (typeof o.ruleset === 'string') out.ruleset = o.ruleset.toLowerCase();
      return out;
    });
}
