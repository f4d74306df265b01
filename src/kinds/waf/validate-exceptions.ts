/**
 * Offline checks of `waf.managed_rulesets` (the schema has passed; the catalogue checks come at plan
 * time, ./exceptions-check.ts): known ruleset names, each ruleset once, the OWASP-only fields, one
 * place per setting, and the traps as warnings that name their consequence.
 */
import type { ValidateContext } from '../../core/kind.js';
import { closest } from '../../config/suggest.js';
import { isObject } from '../../rules/shared/values.js';
import {
  OWASP_ID,
  OWASP_SCORE_RULE,
  RULESET_SHORT_NAMES,
  paranoiaCategory,
  rulesetIdOf,
  rulesetLabel,
  type DesiredRulesetEntry,
} from './exceptions.js';

export function validateExceptions(value: Record<string, unknown>, ctx: ValidateContext): void {
  const entries = Array.isArray(value.managed_rulesets) ? value.managed_rulesets : [];
  const named = new Map<string, number>();
  entries.forEach((raw, i) => {
    if (!isObject(raw)) return;
    const entry = raw as unknown as DesiredRulesetEntry;
    const at = `${ctx.path}.managed_rulesets[${i}]`;
    const id = rulesetIdOf(entry.ruleset);
    if (!id) {
      const near = closest(entry.ruleset, Object.keys(RULESET_SHORT_NAMES));
      ctx.error(
        `${at}.ruleset`,
        `"${entry.ruleset}" is not a managed ruleset; use ${Object.keys(RULESET_SHORT_NAMES).join(', ')} or a ` +
          `32-hex ruleset id${near ? ` (did you mean ${near}?)` : ''}`,
      );
      return;
    }
    if (named.has(id)) {
      ctx.error(
        `${at}.ruleset`,
        `${rulesetLabel(id)} is already named at managed_rulesets[${named.get(id)}]`,
      );
      return;
    }
    named.set(id, i);
    checkEntry(entry, id, at, ctx);
  });
  checkShortForm(value, named, ctx);
}

function checkEntry(entry: DesiredRulesetEntry, id: string, at: string, ctx: ValidateContext): void {
  const owasp = id === OWASP_ID;
  for (const key of ['paranoia_level', 'score_threshold'] as const) {
    if (entry[key] !== undefined && !owasp) ctx.error(`${at}.${key}`, 'is for the owasp ruleset only');
  }
  const seenCategories = new Set<string>();
  (entry.categories ?? []).forEach((c, j) => {
    const p = `${at}.categories[${j}]`;
    if (seenCategories.has(c.category)) ctx.error(`${p}.category`, `category ${c.category} is named twice`);
    seenCategories.add(c.category);
    if (c.action === undefined && c.enabled === undefined && c.sensitivity_level === undefined)
      ctx.error(p, 'an exception sets action, enabled or sensitivity_level');
    if (owasp && c.action !== undefined) ctx.warn(`${p}.action`, ownAction('the rules of this category'));
    const level = /^paranoia-level-([1-4])$/.exec(c.category)?.[1];
    if (owasp && level && entry.paranoia_level !== undefined && c.enabled !== undefined) {
      const off = Number(level) > entry.paranoia_level;
      if (off === c.enabled)
        ctx.warn(
          `${p}.enabled`,
          `contradicts paranoia_level ${entry.paranoia_level}, which ${off ? 'disables' : 'keeps'} ` +
            `${paranoiaCategory(Number(level))}: this category wins, so the rules of level ${level} ` +
            `${c.enabled ? 'run' : 'do not run'}`,
        );
    }
  });
  const seenRules = new Set<string>();
  (entry.rules ?? []).forEach((r, j) => {
    const p = `${at}.rules[${j}]`;
    const rid = r.id.toLowerCase();
    if (seenRules.has(rid)) ctx.error(`${p}.id`, `rule ${rid} is named twice`);
    seenRules.add(rid);
    if (Object.keys(r).length === 1)
      ctx.error(p, 'an exception sets action, enabled, score_threshold or sensitivity_level');
    if (owasp && rid === OWASP_SCORE_RULE) {
      if (r.action !== undefined && entry.action !== undefined)
        ctx.error(
          `${p}.action`,
          `the entry's action already sets the action of this rule (949110); keep one`,
        );
      if (r.score_threshold !== undefined && entry.score_threshold !== undefined)
        ctx.error(`${p}.score_threshold`, `the entry's score_threshold already sets it; keep one`);
    } else if (owasp && r.action !== undefined) {
      ctx.warn(`${p}.action`, ownAction('this rule'));
    }
  });
  if (entry.enabled === false) {
    ctx.warn(
      `${at}.enabled`,
      `turns off every rule of ${rulesetLabel(id)} that no category or rule exception below enables again` +
        (seenCategories.size + seenRules.size === 0 ? ' (here: all of them)' : ''),
    );
  }
}

const ownAction = (what: string) =>
  `has no effect: the OWASP rules only add to the anomaly score, and the score rule (949110) decides; ` +
  `set the entry's action (and score_threshold) instead of the action of ${what}`;

/**
 * `overrides` (the short form) and `managed_rulesets` may both be used, for different rulesets: a
 * ruleset named under managed_rulesets has all its exceptions there. A short-form override without
 * `ruleset` counts as one of cloudflare_managed.
 */
function checkShortForm(
  value: Record<string, unknown>,
  named: Map<string, number>,
  ctx: ValidateContext,
): void {
  if (!Array.isArray(value.overrides)) return;
  value.overrides.forEach((o, i) => {
    if (!isObject(o)) return;
    const target =
      typeof o.ruleset === 'string' ? o.ruleset.toLowerCase() : RULESET_SHORT_NAMES.cloudflare_managed.id;
    const at = named.get(target);
    if (at === undefined) return;
    ctx.error(
      `${ctx.path}.overrides[${i}]`,
      `${rulesetLabel(target)} is managed under managed_rulesets[${at}], which holds all its exceptions; ` +
        `move this override to managed_rulesets[${at}].rules`,
    );
  });
}
