/**
 * Where `managed_rulesets` enters the waf plan: on top of the short-form `overrides` merge, in the
 * migration's merge step (the zone migrates with its exceptions) and in the in-place update of the
 * entry point of a migrated zone (./exceptions-plan.ts does the planning itself).
 *
 * The update's `before` holds the entry point's version and the version of every named managed
 * ruleset: a saved plan is refused once either has moved (someone wrote the entry point, or the
 * provider published a version), since its exceptions were checked against what it saw.
 */
import type { StepDraft } from '../../core/runtime.js';
import { managedExecuteRule } from '../../rules/waf/ruleset.js';
import { readRulesetEntries } from './exceptions.js';
import { applyExceptions, keptReason, type ExceptionsResult } from './exceptions-plan.js';
import { mergeOverrides, overridesChanged, readOverrides, type MergeResult } from './merge.js';
import { MANAGED_PHASE, type RulesetConfig, type WafLive } from './model.js';
import { STEP, placedError, placedErrors, type PlanPlace } from './plan-place.js';
import type { WafPlanInput, WafStepData } from './plan.js';

export type FileMerge = MergeResult & { exceptions?: ExceptionsResult };

/** The short-form merge with the file's `managed_rulesets` applied on top (when it has any). */
export function withExceptions(
  merged: MergeResult,
  desired: WafPlanInput,
  live: WafLive,
  path: string,
  place: PlanPlace,
): FileMerge {
  const entries = readRulesetEntries(desired);
  if (entries.length === 0) return merged;
  if (!live.catalogue) {
    throw placedError(place, `${path}.managed_rulesets`, 'the managed rulesets catalogue was not read');
  }
  const exceptions = applyExceptions(merged.config, entries, live.catalogue, path);
  if (exceptions.problems.length > 0) throw placedErrors(place, exceptions.problems);
  for (const note of exceptions.notes) place.warn?.(`zone ${place.zone ?? ''}: waf ${note}`);
  return { ...merged, config: exceptions.config, exceptions };
}

/** The entry point's identity and version, for a saved plan's staleness check. */
function entrypointVersion(config: RulesetConfig): Record<string, string> {
  const out: Record<string, string> = {};
  if (config.id) out.id = config.id;
  if (config.version) out.version = config.version;
  return out;
}

export function exceptionsUpdate(
  state: 'complete' | 'validation',
  status: Record<string, string>,
  live: WafLive,
  desired: WafPlanInput,
  path: string,
  place: PlanPlace,
  planError: (problems: string[], at?: string) => Error,
): StepDraft[] {
  const overrides = readOverrides(desired);
  let base = live.entrypoint;
  const creating = !base;
  if (!base) {
    if (state !== 'complete') {
      throw placedError(
        place,
        `${path}.managed_rulesets`,
        `the zone is in validation but has no ${MANAGED_PHASE} entrypoint ruleset to write the exceptions to`,
      );
    }
    // a zone created migrated has no entry point: it is created with what the file names
    base = {
      name: 'default',
      rules: overrides.length > 0 ? [managedExecuteRule() as RulesetConfig['rules'][0]] : [],
    };
  }
  const merged = mergeOverrides(base, overrides);
  if (merged.problems.length) throw planError(merged.problems, `${path}.overrides`);
  const file = withExceptions(merged, desired, live, path, place);
  const exceptions = file.exceptions!;
  if (!creating && !overridesChanged(merged.before, merged.after) && !exceptions.changed) return [];
  const shortForm = Object.keys(merged.after).map((id) => ({
    path: `overrides.${id}`,
    before: merged.before[id],
    after: merged.after[id],
  }));
  const reason = keptReason(exceptions.kept);
  return [
    {
      key: STEP.entrypoint,
      action: creating ? 'create' : 'update',
      address: creating
        ? `managed rules entrypoint ruleset (${MANAGED_PHASE}) with the file's exceptions`
        : 'managed rules exceptions (entrypoint ruleset)',
      before: creating
        ? null
        : {
            status,
            entrypoint: entrypointVersion(base),
            overrides: merged.before,
            managed_rulesets: exceptions.versions,
          },
      after: { status, overrides: merged.after, managed_rulesets: exceptions.changes },
      changes: [
        ...shortForm.filter((c) => JSON.stringify(c.before) !== JSON.stringify(c.after)),
        ...exceptions.changes,
      ],
      ...(reason ? { reason } : {}),
      summary: `write the exceptions of ${Object.keys(exceptions.versions).join(', ')}; other rules are kept`,
      data: {
        op: 'update-entrypoint',
        config: file.config,
        ...(state === 'validation' ? { mode: 'validation' as const } : {}),
      } satisfies WafStepData,
    },
  ];
}
