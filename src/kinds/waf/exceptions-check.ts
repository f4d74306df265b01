/**
 * The plan-time checks of `managed_rulesets` against the catalogue the API serves (the offline ones
 * are in ./validate-exceptions.ts): a ruleset the zone cannot execute, a rule id or a category the
 * live ruleset does not have (with the closest ones it has), an action or a score threshold the rule
 * cannot take. Each problem names its dotted path; the planner turns them into plan errors at
 * `file:line:col`. Pure.
 */
import { editDistance } from '../../config/suggest.js';
import { OVERRIDE_ACTIONS } from '../../rules/waf/index.js';
import type { Catalogue, CatalogueRuleset } from './catalogue.js';
import { OWASP_SCORE_RULE, rulesetIdOf, rulesetLabel, type DesiredRulesetEntry } from './exceptions.js';

export interface CatalogueProblem {
  path: string;
  message: string;
}

/**
 * Up to `count` candidates near `word` (edit distance), nearest first: the nearest one, and those
 * at most two edits further (a typo has one or two near neighbours, not a random third); none when
 * even the nearest differs in more than a third of the word.
 */
export function nearest(word: string, candidates: Iterable<string>, count = 3): string[] {
  const scored = [...new Set(candidates)]
    .map((c) => ({ c, d: editDistance(word, c) }))
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c));
  const best = scored[0]?.d ?? 0;
  // beyond a third of the word it is not a typo of it, and a suggestion would only mislead
  const far = Math.max(2, Math.floor(word.length / 3));
  return scored
    .filter((x) => x.d <= best + 2 && x.d <= far)
    .slice(0, count)
    .map((x) => x.c);
}

const closestText = (list: string[]) => (list.length > 0 ? `; the closest: ${list.join(', ')}` : '');

export function checkAgainstCatalogue(
  entries: DesiredRulesetEntry[],
  catalogue: Catalogue,
  path: string,
): CatalogueProblem[] {
  const problems: CatalogueProblem[] = [];
  entries.forEach((entry, i) => {
    const at = `${path}.managed_rulesets[${i}]`;
    const id = rulesetIdOf(entry.ruleset);
    const ruleset = id ? catalogue.rulesets[id] : undefined;
    if (!id || !ruleset) {
      const can = catalogue.available.map((a) => `${rulesetLabel(a.id)} (${a.name})`).join(', ');
      problems.push({
        path: `${at}.ruleset`,
        message: `the zone cannot execute the managed ruleset ${entry.ruleset}; it can execute: ${can || 'none'}`,
      });
      return;
    }
    checkCategories(entry, ruleset, at, problems);
    checkRules(entry, ruleset, at, problems);
  });
  return problems;
}

function checkCategories(
  entry: DesiredRulesetEntry,
  ruleset: CatalogueRuleset,
  at: string,
  problems: CatalogueProblem[],
): void {
  const known = new Set(ruleset.rules.flatMap((r) => r.categories));
  (entry.categories ?? []).forEach((c, j) => {
    if (known.has(c.category)) return;
    problems.push({
      path: `${at}.categories[${j}].category`,
      message:
        `${rulesetLabel(ruleset.id)} (version ${ruleset.version}) has no rule in the category ` +
        `"${c.category}"${closestText(nearest(c.category, known))}`,
    });
  });
}

function checkRules(
  entry: DesiredRulesetEntry,
  ruleset: CatalogueRuleset,
  at: string,
  problems: CatalogueProblem[],
): void {
  const byId = new Map(ruleset.rules.map((r) => [r.id, r]));
  (entry.rules ?? []).forEach((r, j) => {
    const id = r.id.toLowerCase();
    const rule = byId.get(id);
    if (!rule) {
      problems.push({
        path: `${at}.rules[${j}].id`,
        message:
          `${rulesetLabel(ruleset.id)} (version ${ruleset.version}) has no rule ${id}` +
          closestText(nearest(id, byId.keys()).map((c) => `${c} "${byId.get(c)?.description ?? ''}"`)),
      });
      return;
    }
    // a rule takes an override action only when its own default is one of them (not `score`,
    // `rewrite` or `skip`): the API would refuse the override, or run a rule that does something else
    if (r.action !== undefined && !(OVERRIDE_ACTIONS as readonly string[]).includes(rule.action)) {
      problems.push({
        path: `${at}.rules[${j}].action`,
        message: `rule ${id} "${rule.description}" (default action ${rule.action || 'none'}) cannot take the action ${r.action}`,
      });
    }
    if (r.score_threshold !== undefined && id !== OWASP_SCORE_RULE) {
      problems.push({
        path: `${at}.rules[${j}].score_threshold`,
        message:
          `rule ${id} "${rule.description}" does not act on the anomaly score; only the OWASP rule ` +
          `${OWASP_SCORE_RULE} (949110) takes a score_threshold (or the entry's own score_threshold)`,
      });
    }
  });
}
