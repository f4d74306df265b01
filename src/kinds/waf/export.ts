/**
 * Export of a zone's WAF managed rules. A zone still on the previous WAF exports as
 * `managed_rules: previous` (nothing is planned for it); a zone in validation as `new` with
 * `migration.mode: validation` (so the plan does not complete the migration); a migrated zone as
 * `new`. The overrides of the managed entrypoint are exported in the file's terms (see exceptionsOf);
 * what the file cannot say is kept by the planner anyway and is listed in a comment.
 */
import type { ExportContext, ExportResult, LayoutHint } from '../../core/export/types.js';
import { OVERRIDE_ACTIONS } from '../../rules/waf/index.js';
import { shownState, type RulesetConfig, type RulesetRule, type WafLive } from './model.js';
import { ID32, type Entry } from '../../rules/shared/values.js';
import type { RulesetOverrides } from './exceptions.js';
import { entryOf, shortFormSays } from './export-exceptions.js';

const isExecute = (r: RulesetRule) => r.action === 'execute' && typeof r.action_parameters?.id === 'string';

/**
 * The file's form of every execute rule: a ruleset whose overrides are single rule overrides only
 * goes to the short form `overrides` (`ruleset` only when the entrypoint executes several); any
 * other goes to `managed_rulesets`, which owns its whole override set. What neither can say is kept
 * live by the planner (it never touches a ruleset the file does not name) and listed.
 */
function exceptionsOf(entrypoint: RulesetConfig | null | undefined): {
  entries: Entry[];
  rulesets: Entry[];
  skipped: string[];
} {
  const executes = (entrypoint?.rules ?? []).filter(isExecute);
  const entries: Entry[] = [];
  const rulesets: Entry[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  const named = new Set<string>();
  for (const rule of executes) {
    const ruleset = String(rule.action_parameters?.id).toLowerCase();
    const ov = (rule.action_parameters?.overrides ?? {}) as RulesetOverrides;
    if (!shortFormSays(ov)) {
      const entry = ID32.test(ruleset) && !named.has(ruleset) ? entryOf(ruleset, ov) : undefined;
      if (entry) {
        named.add(ruleset);
        rulesets.push(entry);
        continue;
      }
      for (const [k, v] of Object.entries(ov)) {
        if (k !== 'rules' && v !== undefined && !(Array.isArray(v) && v.length === 0))
          skipped.push(`${k} override of managed ruleset ${ruleset} (kept as it is)`);
      }
    }
    for (const o of ov.rules ?? []) {
      const id = typeof o.id === 'string' ? o.id.toLowerCase() : '';
      if (!id || seen.has(id)) continue;
      if (o.action !== undefined && !(OVERRIDE_ACTIONS as readonly unknown[]).includes(o.action)) {
        skipped.push(`override of rule ${id} with action ${String(o.action)} (kept as it is)`);
        continue;
      }
      seen.add(id);
      const e: Entry = { id };
      if (o.action !== undefined) e.action = o.action;
      if (typeof o.enabled === 'boolean') e.enabled = o.enabled;
      if (executes.length > 1) e.ruleset = ruleset;
      entries.push(e);
    }
  }
  return { entries, rulesets, skipped };
}

export function exportWaf(raw: unknown, ctx: ExportContext): ExportResult {
  const live = raw as WafLive;
  const state = shownState(live.status.migration_state);
  const layout: LayoutHint[] = [];
  if (state === 'previous') {
    const uri = live.uriOverrides.length;
    const lines = [
      'still on the previous WAF managed rules; `new` migrates (irreversible, see the README)',
      ...(uri > 0 ? [`${uri} URI-based override(s) of the previous WAF would block the migration`] : []),
    ];
    layout.push({ path: ['managed_rules'], comment: lines.join('\n') });
    return { value: { managed_rules: 'previous' }, layout, counts: { overrides: 0 } };
  }
  const value: Entry = { managed_rules: 'new' };
  if (state === 'validation') {
    value.migration = { mode: 'validation' };
    layout.push({
      path: ['migration'],
      commentBefore: 'both WAF versions run; `mode: pending` completes the migration (irreversible)',
      flow: true,
    });
  }
  const { entries, rulesets, skipped } = exceptionsOf(live.entrypoint);
  if (entries.length > 0) value.overrides = entries;
  entries.forEach((_, i) => layout.push({ path: ['overrides', i], flow: true }));
  if (rulesets.length > 0) value.managed_rulesets = rulesets;
  rulesets.forEach((r, i) => {
    for (const list of ['categories', 'rules'] as const) {
      const items = Array.isArray(r[list]) ? (r[list] as unknown[]) : [];
      items.forEach((_, j) => layout.push({ path: ['managed_rulesets', i, list, j], flow: true }));
    }
  });
  if (skipped.length > 0) {
    layout.push({
      path: ['managed_rules'],
      comment: ['the entrypoint also has what the file cannot say:', ...skipped].join('\n'),
    });
  }
  const notes = skipped.map((s) => `${ctx.owner.name}: waf ${s}`);
  const exceptions = rulesets.reduce(
    (n, r) =>
      n +
      (Array.isArray(r.rules) ? r.rules.length : 0) +
      (Array.isArray(r.categories) ? r.categories.length : 0),
    0,
  );
  return { value, layout, notes, counts: { overrides: entries.length + exceptions } };
}
