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
 * A migrated zone with no entrypoint yet (zones created migrated have none) plans its creation, executing
 * the Cloudflare Managed Ruleset with the file's overrides. A migrated zone whose file still asks for
 * `mode: validation` gets a report beside that (validation is behind it, and there is no way back).
 * Blockers are plan errors (UserError) that say what to do and where in the file. Every step's `before`
 * carries the migration status, so a saved plan made before someone else moved the zone is stale and
 * refused; the fetch step's (and the merge step's from validation) also carries a digest of the
 * configuration the plan merged into, so a saved plan made before someone changed it is refused too.
 * Every migration step is `runsLast` (docs/reference/design.md section 4: the migration runs last in a zone): the engine makes
 * the first of them wait for every other step of the zone, of every kind.
 */
import { UserError } from '../../errors.js';
import { STEP, placedError, type PlanPlace } from './plan-place.js';
import type { StepDraft } from '../../core/runtime.js';
import { migrationBlockers } from '../../rules/waf/migration.js';
import { MANAGED_RULESETS, managedExecuteRule } from '../../rules/waf/ruleset.js';
import { mergeOverrides, overridesChanged, readOverrides } from './merge.js';
import { readRulesetEntries } from './exceptions.js';
import { exceptionsUpdate, withExceptions } from './plan-exceptions.js';
import { keptReason, type ExceptionsResult } from './exceptions-plan.js';
import type { OverrideView } from './merge.js';
import { MANAGED_PHASE, shownState, statusView, withoutServerFields } from './model.js';
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
  managed_rulesets?: unknown;
}

export { STEP, placedError, type PlanPlace } from './plan-place.js';

export function planWaf(
  desired: WafPlanInput | undefined,
  live: WafLive | undefined,
  path: string,
  hash: (value: unknown) => string,
  place: PlanPlace = {},
): StepDraft[] {
  if (!desired || !live) return [];
  const planError = (problems: string[], at = path) =>
    placedError(
      place,
      at,
      `the WAF migration cannot be planned:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
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
    const drafts = overridesUpdate(state, status, live, desired, path, place, planError);
    if (state === 'validation' || mode === 'pending') return drafts;
    // the file asks for both WAF versions, but the zone is past that and cannot go back: say so
    // (the overrides are still kept up to date)
    return [
      ...drafts,
      {
        key: 'validation-unreachable',
        action: 'report',
        address: 'managed rules',
        before: status,
        after: null,
        reason:
          'the zone has completed the migration (new WAF only) and cannot go back to validation mode; ' +
          `set ${path}.migration.mode: pending, or remove migration`,
      },
    ];
  }

  if (state === 'validation') {
    // mode pending: complete the migration with the configuration that runs in validation
    if (!live.entrypoint)
      throw placedError(place, path, 'the zone is in validation but has no managed entrypoint ruleset');
    const merged = mergeOverrides(live.entrypoint, overrides);
    if (merged.problems.length) throw planError(merged.problems, `${path}.overrides`);
    const file = withExceptions(merged, desired, live, path, place);
    // the final PUT sends what was merged into this entrypoint: a saved plan is stale once it changes
    const base = hash(withoutServerFields(live.entrypoint));
    return [mergeStep(status, file, [], base), finalStep('pending', status, file.config, [STEP.merge])];
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
    } else if (b.code === 'free_plan') {
      problems.push(
        `${b.message}; upgrade the zone's plan to Pro or higher, or set managed_rules: previous to keep the previous WAF`,
      );
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
  if (problems.length) throw planError(problems);
  const file = withExceptions(merged, desired, live, path, place);

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
    // The merge and the final PUT are built from this configuration. Its digest in `before` makes a
    // saved plan stale (naming this step) when someone changes the previous WAF after the plan:
    // a re-plan at apply time would otherwise merge into the new configuration unseen.
    before: { ...status, configuration: `sha256:${hash(live.config)}` },
    after: { rules: (live.config?.rules ?? []).length },
    summary: 'GET waf_migration/config: the new configuration equivalent to the previous one',
    dependsOn: [STEP.check],
    runsLast: true,
    data: { op: 'fetch', configHash: hash(live.config) } satisfies WafStepData,
  });
  drafts.push(mergeStep(status, file, [STEP.fetch]));
  if (mode === 'validation') drafts.push(finalStep('validation', status, file.config, [STEP.merge]));
  else drafts.push(finalStep('pending', status, file.config, [STEP.merge]));
  return drafts;
}

/**
 * A migrated zone, or one in validation that the file keeps there: the file's overrides go into the
 * live entrypoint ruleset in place (or into a new one, on a migrated zone that has none).
 */
function overridesUpdate(
  state: 'complete' | 'validation',
  status: Record<string, string>,
  live: WafLive,
  desired: WafPlanInput,
  path: string,
  place: PlanPlace,
  planError: (problems: string[], at?: string) => UserError,
): StepDraft[] {
  const overrides = readOverrides(desired);
  if (readRulesetEntries(desired).length > 0) {
    return exceptionsUpdate(state, status, live, desired, path, place, planError);
  }
  if (overrides.length === 0) return [];
  if (!live.entrypoint) {
    // A zone created after the migration (or migrated with no rule) has no entrypoint: like any
    // other missing object, it is created, with the file's overrides. In validation the API takes
    // no plain PUT of it, and a zone in validation always has one: that is not ours to invent.
    if (state === 'complete') return [createEntrypoint(status, overrides, `${path}.overrides`, place)];
    throw placedError(
      place,
      `${path}.overrides`,
      `the zone is in validation but has no ${MANAGED_PHASE} entrypoint ruleset to override; ` +
        'run plan again once the API shows it (GET .../rulesets/phases/' +
        `${MANAGED_PHASE}/entrypoint)`,
    );
  }
  const merged = mergeOverrides(live.entrypoint, overrides);
  if (merged.problems.length) throw planError(merged.problems, `${path}.overrides`);
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

function mergeStep(
  status: Record<string, string>,
  merged: { before: OverrideView; after: OverrideView; exceptions?: ExceptionsResult },
  dependsOn: string[],
  baseHash?: string,
): StepDraft {
  const after = merged.after;
  const exceptions = merged.exceptions;
  return {
    key: STEP.merge,
    action: 'migrate',
    address: "migration step 3: merge the file's overrides",
    before: {
      ...(baseHash ? { ...status, configuration: `sha256:${baseHash}` } : status),
      ...(exceptions ? { managed_rulesets: exceptions.versions } : {}),
    },
    after: { overrides: after, ...(exceptions ? { managed_rulesets: exceptions.changes } : {}) },
    changes: [
      ...Object.keys(after).map((id) => ({
        path: `overrides.${id}`,
        before: merged.before[id],
        after: after[id],
      })),
      ...(exceptions?.changes ?? []),
    ],
    ...(exceptions && keptReason(exceptions.kept) ? { reason: keptReason(exceptions.kept) } : {}),
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
    // only what moves: from validation to pending the new WAF is already enabled
    changes: [
      { path: 'migration_state', before: status.state, after: target },
      { path: 'previous WAF', before: status.old_waf, after: mode === 'validation' ? 'enabled' : 'disabled' },
      { path: 'new WAF', before: status.new_waf, after: 'enabled' },
    ].filter((c) => c.before !== c.after),
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

/**
 * Creation of the managed phase entrypoint on a migrated zone that has none: one rule executing the
 * Cloudflare Managed Ruleset (what the migration itself would have created) with the file's overrides.
 * `before` is null like any create: if someone creates the entrypoint after the plan, the re-plan
 * is an update (or nothing) and a saved plan is refused.
 */
function createEntrypoint(
  status: Record<string, string>,
  overrides: ReturnType<typeof readOverrides>,
  path: string,
  place: PlanPlace,
): StepDraft {
  const managed = MANAGED_RULESETS.cloudflare;
  const base: RulesetConfig = {
    name: 'default',
    rules: [managedExecuteRule() as RulesetConfig['rules'][number]],
  };
  const merged = mergeOverrides(base, overrides);
  if (merged.problems.length) {
    throw placedError(
      place,
      path,
      `the zone has no ${MANAGED_PHASE} entrypoint ruleset; the one the plan would create executes only the ` +
        `${managed.name} (${managed.id}):\n${merged.problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
  return {
    key: STEP.entrypoint,
    action: 'create',
    address: `managed rules entrypoint ruleset (${MANAGED_PHASE}) with the file's overrides`,
    before: null,
    after: { status, executes: managed.id, overrides: merged.after },
    changes: [
      { path: 'rules[0]', before: undefined, after: `execute ${managed.name} (${managed.id})` },
      ...Object.keys(merged.after).map((id) => ({
        path: `overrides.${id}`,
        before: null,
        after: merged.after[id],
      })),
    ],
    summary: `create the entrypoint executing the ${managed.name} with ${Object.keys(merged.after).length} override(s)`,
    data: { op: 'update-entrypoint', config: merged.config } satisfies WafStepData,
  };
}
