/**
 * Planning `managed_rulesets` into the managed phase's entry point (pure): the override object of
 * the execute rule of every ruleset the file names becomes exactly what the file declares (an
 * exception removed from the file is removed live); a named ruleset the entry point does not execute
 * gets an execute rule; every other rule keeps its id, its ref and all its fields, and is listed once
 * as kept. The provider's changes to a named ruleset since the version the last write saw (recorded
 * in its execute rule, see ./catalogue.ts) are shown per rule with description and default action.
 */
import type { FieldChange } from '../../core/runtime.js';
import type { Catalogue, CatalogueRule, CatalogueRuleset } from './catalogue.js';
import { seenVersionOf, withSeenVersion } from './catalogue.js';
import { checkAgainstCatalogue, type CatalogueProblem } from './exceptions-check.js';
import {
  overridesOf,
  rulesetIdOf,
  rulesetLabel,
  rulesetTitle,
  sameOverrides,
  type DesiredRulesetEntry,
  type RulesetOverrides,
} from './exceptions.js';
import { viewChanges, viewOf } from './exceptions-view.js';
import type { RulesetConfig, RulesetRule } from './model.js';

export interface ExceptionsResult {
  config: RulesetConfig;
  changes: FieldChange[];
  /** whether the entry point must be written */
  changed: boolean;
  /** the entry point's other rules, one line each */
  kept: string[];
  problems: CatalogueProblem[];
  /** the provider's changes of a ruleset whose entry does not ask for `report_new_rules` */
  notes: string[];
  /** the latest version of every named ruleset, by label: what a saved plan was made against */
  versions: Record<string, string>;
}

const isExecuteOf = (r: RulesetRule, id: string) =>
  r.action === 'execute' && String(r.action_parameters?.id ?? '').toLowerCase() === id;

function ruleLine(r: CatalogueRule): string {
  return `rule ${r.id} "${r.description}"`;
}

function defaultText(r: CatalogueRule): string {
  return `${r.action || 'none'}${r.enabled ? '' : ', disabled by default'}`;
}

/** Rules added and removed between the version the last write saw and the latest one. */
export function providerChanges(ruleset: CatalogueRuleset): {
  added: CatalogueRule[];
  removed: CatalogueRule[];
} {
  if (!ruleset.seen) return { added: [], removed: [] };
  const before = new Set(ruleset.seen.rules.map((r) => r.id));
  const now = new Set(ruleset.rules.map((r) => r.id));
  return {
    added: ruleset.rules.filter((r) => !before.has(r.id)),
    removed: ruleset.seen.rules.filter((r) => !now.has(r.id)),
  };
}

export function applyExceptions(
  base: RulesetConfig,
  entries: DesiredRulesetEntry[],
  catalogue: Catalogue,
  path: string,
): ExceptionsResult {
  const config = structuredClone(base);
  const result: ExceptionsResult = {
    config,
    changes: [],
    changed: false,
    kept: [],
    problems: checkAgainstCatalogue(entries, catalogue, path),
    notes: [],
    versions: {},
  };
  if (result.problems.length > 0) return result;
  const named = new Set<RulesetRule>();
  const markers: { rule: RulesetRule; version: string }[] = [];
  for (const entry of entries) {
    const id = rulesetIdOf(entry.ruleset)!;
    const ruleset = catalogue.rulesets[id]!;
    const label = rulesetLabel(id);
    result.versions[label] = ruleset.version;
    const rulesById = new Map(ruleset.rules.map((r) => [r.id, r]));
    const desired = overridesOf(entry);
    let rule = config.rules.find((r) => isExecuteOf(r, id));
    if (!rule) {
      rule = {
        action: 'execute',
        expression: 'true',
        description: `Execute the ${rulesetTitle(id) ?? ruleset.name}`,
        enabled: true,
        action_parameters: { id },
      };
      config.rules.push(rule);
      result.changed = true;
      result.changes.push({
        path: label,
        before: undefined,
        after: 'executed on every request (new execute rule)',
      });
    }
    named.add(rule);
    const params = (rule.action_parameters ??= {});
    const live = params.overrides as RulesetOverrides | undefined;
    if (!sameOverrides(live, desired)) {
      result.changed = true;
      const shown = viewChanges(id, viewOf(id, live, rulesById), viewOf(id, desired, rulesById), rulesById);
      // every difference has a line in the file's terms; the raw objects only if one ever had none
      result.changes.push(
        ...(shown.length > 0 ? shown : [{ path: `${label}: overrides`, before: live, after: desired }]),
      );
      if (Object.keys(desired).length > 0) params.overrides = desired;
      else delete params.overrides;
    }
    markers.push({ rule, version: ruleset.version });
    const seen = seenVersionOf(rule);
    const { added, removed } = providerChanges(ruleset);
    const was = seen ?? '?';
    const lines = [
      ...added.map((r) => ({
        change: {
          path: `${label}: ${ruleLine(r)}`,
          before: `not in version ${was}`,
          after: `added in version ${ruleset.version}, default ${defaultText(r)}`,
        },
        note: `${ruleLine(r)} added (default ${defaultText(r)})`,
      })),
      ...removed.map((r) => ({
        change: {
          path: `${label}: ${ruleLine(r)}`,
          before: `in version ${was}, default ${defaultText(r)}`,
          after: `removed in version ${ruleset.version}`,
        },
        note: `${ruleLine(r)} removed`,
      })),
    ];
    if (entry.report_new_rules === true) {
      // the write records the version reviewed: the next drift reports only what comes after it
      result.changes.push(...lines.map((l) => l.change));
      if (seen !== ruleset.version) {
        result.changed = true;
        result.changes.push({
          path: `${label}: rules seen at version`,
          before: seen,
          after: ruleset.version,
        });
      }
    } else if (lines.length > 0) {
      result.notes.push(
        `${label}: the provider changed the ruleset since version ${was} (now ${ruleset.version}): ` +
          lines.map((l) => l.note).join('; '),
      );
    }
  }
  if (result.changed) {
    for (const m of markers) m.rule.description = withSeenVersion(m.rule.description, m.version);
  }
  config.rules.forEach((r, i) => {
    if (named.has(r)) return;
    const what =
      r.action === 'execute'
        ? `execute ${rulesetLabel(String(r.action_parameters?.id ?? ''))}`
        : `${r.action ?? 'rule'}${r.description ? ` "${r.description}"` : ''}`;
    result.kept.push(`rules[${i}] ${what}${r.id ? ` (id ${r.id})` : ''}`);
  });
  return result;
}

/** The `reason` line of a step that writes the entry point: what it keeps as it is. */
export function keptReason(kept: string[]): string | undefined {
  return kept.length > 0 ? `kept: not managed by this file: ${kept.join('; ')}` : undefined;
}
