/**
 * Pure planning of a zone's `waf`.
 *
 * `managed_rules: previous` plans nothing (a report if the zone has in fact migrated: that cannot be undone).
 * `managed_rules: new` on a zone still on the previous WAF plans the spec's ordered procedure as steps:
 *   [delete URI-based overrides (irreversible, only with delete_uri_overrides)] -> check compatibility ->
 *   fetch the equivalent configuration -> merge the file's overrides into it ->
 *   PUT with waf_migration=validation (Enterprise, mode validation; irreversible) or
 *   PUT with waf_migration=pending (irreversible).
 * A zone in validation with `mode: pending` plans merge -> pending. A migrated zone (or one in validation
 * with `mode: validation`) plans an in-place update of the entrypoint when a named override differs.
 * Blockers are plan errors (UserError) that say what to do. Every step's `before` carries the migration
 * status, so a saved plan made before someone else moved the zone is stale and refused.
 * Every migration step is `runsLast` (DESIGN 4: the migration runs last in a zone): the engine makes
 * the first of them wait for every other step of the zone, of every kind.
 */
import { UserError } from '../../errors.js';
import type { StepDraft } from '../../core/runtime.js';
import { migrationBlockers } from '../../rules/waf/migration.js';
import { mergeOverrides, overridesChanged, readOverrides } from './merge.js';
import type { OverrideView } from './merge.js';
import { MANAGED_PHASE, shownState, statusView } from './model.js';
import type { RulesetConfig, WafLive } from './model.js';

export type WafStepData =
  | { op: 'delete-uri-override'; id: string }
  | { op: 'check' }
  | { op: 'fetch'; configHash: string }
  | { op: 'merge' }
  | { op: 'migrate'; mode: 'validation' | 'pending'; config: RulesetConfig }
  | { op: 'update-entrypoint'; config: RulesetConfig; mode?: 'validation' };

export interface WafPlanInput {
  managed_rules?: unknown;
  migration?: { mode?: unknown };
  delete_uri_overrides?: unknown;
  overrides?: unknown;
}

export const STEP = {
  check: 'migration:check',
  fetch: 'migration:fetch',
  merge: 'migration:merge',
  validation: 'migration:validation',
  pending: 'migration:pending',
  entrypoint: 'entrypoint-overrides',
} as const;

export function planWaf(
  desired: WafPlanInput | undefined,
  live: WafLive | undefined,
  path: string,
  hash: (value: unknown) => string,
): StepDraft[] {
  if (!desired || !live) return [];
  const state = shownState(live.status.migration_state);
  const status = statusView(live.status);
  if (desired.managed_rules !== 'new') {
    if (state === 'previous') return [];
    return [
      {
        key: 'previous-unreachable',
        action: 'report',
        address: 'managed rules',
        before: status,
        after: null,
        reason: `the zone is in migration state "${state}" and cannot go back to the previous WAF; set managed_rules: new`,
      },
    ];
  }
  const mode = desired.migration?.mode === 'validation' ? 'validation' : 'pending';
  const overrides = readOverrides(desired);

  if (state === 'complete' || (state === 'validation' && mode === 'validation')) {
    if (overrides.length === 0) return [];
    if (!live.entrypoint) {
      throw new UserError(
        `${path}.overrides: the zone has no ${MANAGED_PHASE} entrypoint ruleset to override`,
      );
    }
    const merged = mergeOverrides(live.entrypoint, overrides);
    if (merged.problems.length) throw planError(path, merged.problems);
    if (!overridesChanged(merged.before, merged.after)) return [];
    return [
      {
        key: STEP.entrypoint,
        action: 'update',
        address: 'managed rules overrides (entrypoint ruleset)',
        before: { status, overrides: merged.before },
        after: { status, overrides: merged.after },
        summary: `update ${Object.keys(merged.after).length} override(s); other rules and overrides are kept`,
        data: {
          op: 'update-entrypoint',
          config: merged.config,
          ...(state === 'validation' ? { mode: 'validation' as const } : {}),
        } satisfies WafStepData,
      },
    ];
  }

  if (state === 'validation') {
    // mode pending: complete the migration with the configuration that runs in validation
    if (!live.entrypoint)
      throw new UserError(`${path}: the zone is in validation but has no managed entrypoint ruleset`);
    const merged = mergeOverrides(live.entrypoint, overrides);
    if (merged.problems.length) throw planError(path, merged.problems);
    return [mergeStep(status, merged, []), finalStep('pending', status, merged.config, [STEP.merge])];
  }

  // previous WAF only
  const problems: string[] = [];
  const deleteOverrides = desired.delete_uri_overrides === true;
  const blockers = migrationBlockers({
    plan: live.tier ?? 'pro',
    uriOverrides: deleteOverrides ? 0 : live.uriOverrides.length,
    firewallRuleCount: live.firewall?.count ?? 0,
    longestExpressionBytes: live.firewall?.longestExpressionBytes ?? 0,
  });
  for (const b of blockers) {
    if (b.code === 'uri_overrides') {
      const list = live.uriOverrides.map((o) => `${o.id} (${o.urls.join(', ') || 'no urls'})`).join('; ');
      problems.push(`${b.message}: ${list}; set delete_uri_overrides: true to delete them (irreversible)`);
    } else problems.push(b.message);
  }
  if (live.tier === undefined) {
    problems.push("the zone's plan tier is unknown; the migration is for Pro, Business and Enterprise zones");
  }
  if (mode === 'validation' && live.tier !== undefined && live.tier !== 'enterprise') {
    problems.push(
      `migration.mode validation is for Enterprise zones only (this zone is ${live.tier}); use mode: pending`,
    );
  }
  if (live.check && !live.check.compatible) {
    // the API's own reasons, less those already said and the URI-based overrides the plan deletes
    const known = new Set(blockers.map((b) => b.message));
    const extra = live.check.reasons.filter(
      (r) => !known.has(r) && !(/URI-based/i.test(r) && (deleteOverrides || live.uriOverrides.length > 0)),
    );
    problems.push(...extra);
    if (!blockers.length && !extra.length && !deleteOverrides && live.uriOverrides.length === 0) {
      problems.push(
        `the API reports the zone not compatible for the migration (migration_state ${live.check.migration_state}); ` +
          'if it has more than 200 firewall rules or a rule expression over 4 KB, contact support',
      );
    }
  }
  const merged = mergeOverrides(live.config ?? { rules: [] }, overrides);
  problems.push(...merged.problems);
  if (!live.config) problems.push('the API returned no equivalent configuration for the migration');
  if (problems.length) throw planError(path, problems);

  const drafts: StepDraft[] = [];
  const deletes = deleteOverrides ? live.uriOverrides : [];
  for (const o of deletes) {
    drafts.push({
      key: `uri-override:${o.id}`,
      action: 'delete',
      address: `URI-based WAF override ${o.id}`,
      before: { status, id: o.id, description: o.description ?? '', urls: o.urls },
      after: null,
      irreversible: true,
      runsLast: true,
      liveId: o.id,
      summary: `delete URI-based override ${o.id} (irreversible: it unblocks the migration)`,
      data: { op: 'delete-uri-override', id: o.id } satisfies WafStepData,
    });
  }
  drafts.push({
    key: STEP.check,
    action: 'migrate',
    address: 'migration step 1: check compatibility',
    before: status,
    after: { compatible: true },
    summary: 'GET waf_migration/check: the zone must be compatible',
    dependsOn: deletes.map((o) => `uri-override:${o.id}`),
    runsLast: true,
    data: { op: 'check' } satisfies WafStepData,
  });
  drafts.push({
    key: STEP.fetch,
    action: 'migrate',
    address: 'migration step 2: fetch the equivalent configuration',
    before: status,
    after: { rules: (live.config?.rules ?? []).length },
    summary: 'GET waf_migration/config: the new configuration equivalent to the previous one',
    dependsOn: [STEP.check],
    runsLast: true,
    data: { op: 'fetch', configHash: hash(live.config) } satisfies WafStepData,
  });
  drafts.push(mergeStep(status, merged, [STEP.fetch]));
  if (mode === 'validation') drafts.push(finalStep('validation', status, merged.config, [STEP.merge]));
  else drafts.push(finalStep('pending', status, merged.config, [STEP.merge]));
  return drafts;
}

function mergeStep(
  status: Record<string, string>,
  merged: { before: OverrideView; after: OverrideView },
  dependsOn: string[],
): StepDraft {
  const after = merged.after;
  return {
    key: STEP.merge,
    action: 'migrate',
    address: "migration step 3: merge the file's overrides",
    before: status,
    after: { overrides: after },
    changes: Object.keys(after).map((id) => ({
      path: `overrides.${id}`,
      before: merged.before[id],
      after: after[id],
    })),
    summary: `merge ${Object.keys(after).length} override(s) into the configuration`,
    dependsOn,
    runsLast: true,
    data: { op: 'merge' } satisfies WafStepData,
  };
}

function finalStep(
  mode: 'validation' | 'pending',
  status: Record<string, string>,
  config: RulesetConfig,
  dependsOn: string[],
): StepDraft {
  const target = mode === 'validation' ? 'validation' : 'complete';
  return {
    key: mode === 'validation' ? STEP.validation : STEP.pending,
    action: 'migrate',
    address:
      mode === 'validation'
        ? 'migration step 4: validation mode (both WAF versions run; review security events)'
        : 'migration final step: new WAF only (previous WAF disabled)',
    before: status,
    after: { state: target, rules: config.rules.length },
    changes: [
      { path: 'migration_state', before: status.state, after: target },
      { path: 'previous WAF', before: status.old_waf, after: mode === 'validation' ? 'enabled' : 'disabled' },
      { path: 'new WAF', before: status.new_waf, after: 'enabled' },
    ],
    irreversible: true,
    summary:
      mode === 'validation'
        ? 'PUT entrypoint with waf_migration=validation (irreversible: no way back to previous-only)'
        : 'PUT entrypoint with waf_migration=pending (irreversible: the previous WAF is disabled for good)',
    dependsOn,
    runsLast: true,
    data: { op: 'migrate', mode, config } satisfies WafStepData,
  };
}

function planError(path: string, problems: string[]): UserError {
  return new UserError(
    `${path}: the WAF migration cannot be planned:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
  );
}
