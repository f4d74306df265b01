/**
 * Export of a zone's WAF managed rules. A zone still on the previous WAF exports as
 * `managed_rules: previous` (nothing is planned for it); a zone in validation as `new` with
 * `migration.mode: validation` (so the plan does not complete the migration); a migrated zone as
 * `new`. The rule overrides of the managed entrypoint are exported as the file's `overrides`; what the
 * file cannot say (category or ruleset-wide overrides, unknown actions) is kept by the planner anyway
 * (it only touches the overrides the file names) and is listed in a comment.
 */
import type { ExportContext, ExportResult, LayoutHint } from '../../core/export/types.js';
import { OVERRIDE_ACTIONS } from '../../rules/waf/index.js';
import { shownState, type RulesetConfig, type RulesetRule, type WafLive } from './model.js';
import type { Entry } from '../../rules/shared/values.js';

const isExecute = (r: RulesetRule) => r.action === 'execute' && typeof r.action_parameters?.id === 'string';

/** Rule overrides of every execute rule; `ruleset` only when the entrypoint executes several. */
function overridesOf(entrypoint: RulesetConfig | null | undefined): { entries: Entry[]; skipped: string[] } {
  const executes = (entrypoint?.rules ?? []).filter(isExecute);
  const entries: Entry[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  for (const rule of executes) {
    const ruleset = String(rule.action_parameters?.id).toLowerCase();
    const ov = rule.action_parameters?.overrides ?? {};
    for (const [k, v] of Object.entries(ov)) {
      if (k !== 'rules' && v !== undefined && !(Array.isArray(v) && v.length === 0))
        skipped.push(`${k} override of managed ruleset ${ruleset} (kept as it is)`);
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
  return { entries, skipped };
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
  const { entries, skipped } = overridesOf(live.entrypoint);
  if (entries.length > 0) value.overrides = entries;
  entries.forEach((_, i) => layout.push({ path: ['overrides', i], flow: true }));
  if (skipped.length > 0) {
    layout.push({
      path: ['managed_rules'],
      comment: ['the entrypoint also has what the file cannot say:', ...skipped].join('\n'),
    });
  }
  const notes = skipped.map((s) => `${ctx.owner.name}: waf ${s}`);
  return { value, layout, notes, counts: { overrides: entries.length } };
}
