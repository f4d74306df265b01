/**
 * How a plan shows the exceptions of a managed ruleset: in the file's terms, one line per thing a
 * reviewer decides (`owasp: paranoia level: 1 -> 2`, `cloudflare_managed: category wordpress:
 * "default" -> "block"`, `rule 5de7... "Drupal - SQLi": "default (block)" -> "log"`), never as a raw
 * diff of the ruleset. Pure.
 */
import type { FieldChange } from '../../core/runtime.js';
import type { CatalogueRule } from './catalogue.js';
import {
  OWASP_ID,
  OWASP_SCORE_RULE,
  paranoiaLevelOf,
  rulesetLabel,
  scoreName,
  type RulesetOverrides,
} from './exceptions.js';

/** label -> value; a label absent means "the ruleset's default". */
export type ExceptionView = Map<string, string>;

const DESCRIPTION_MAX = 60;

/** `log, disabled, sensitivity low, score threshold 40`: the fields an override sets. */
function fieldsText(o: Record<string, unknown>): string {
  const parts: string[] = [];
  if (o.action !== undefined) parts.push(String(o.action));
  if (o.enabled === false) parts.push('disabled');
  if (o.enabled === true) parts.push('enabled');
  if (o.sensitivity_level !== undefined) parts.push(`sensitivity ${String(o.sensitivity_level)}`);
  if (o.score_threshold !== undefined) parts.push(`score threshold ${String(o.score_threshold)}`);
  const known = new Set(['id', 'category', 'action', 'enabled', 'sensitivity_level', 'score_threshold']);
  for (const [k, v] of Object.entries(o)) if (!known.has(k)) parts.push(`${k} ${JSON.stringify(v)}`);
  return parts.join(', ');
}

function short(text: string): string {
  return text.length > DESCRIPTION_MAX ? `${text.slice(0, DESCRIPTION_MAX - 3)}...` : text;
}

/** The label of a rule: its id and, when the catalogue has it, its description. */
export function ruleLabel(id: string, catalogue?: Map<string, CatalogueRule>): string {
  const d = catalogue?.get(id)?.description;
  return d ? `rule ${id} ${JSON.stringify(short(d))}` : `rule ${id}`;
}

export function viewOf(
  rulesetId: string,
  o: RulesetOverrides | undefined,
  catalogue?: Map<string, CatalogueRule>,
): ExceptionView {
  const view: ExceptionView = new Map();
  const owasp = rulesetId === OWASP_ID;
  const set = o ?? {};
  for (const [k, v] of Object.entries(set)) {
    if (k === 'categories' || k === 'rules' || v === undefined) continue;
    // for owasp, the file's `action` is the score rule's: a ruleset-wide one is another line
    const label =
      k === 'sensitivity_level' ? 'sensitivity level' : owasp && k === 'action' ? 'action of every rule' : k;
    view.set(label, String(v));
  }
  let categories = (set.categories ?? []) as { category: string; [k: string]: unknown }[];
  const level = owasp ? paranoiaLevelOf(categories) : undefined;
  if (level !== undefined) {
    view.set('paranoia level', String(level));
    categories = categories.filter((c) => !/^paranoia-level-[1-4]$/.test(c.category));
  }
  for (const c of categories) view.set(`category ${c.category}`, fieldsText(c));
  for (const r of set.rules ?? []) {
    const id = String(r.id).toLowerCase();
    if (owasp && id === OWASP_SCORE_RULE) {
      const { id: _id, action, score_threshold, ...rest } = r;
      if (action !== undefined) view.set('action', String(action));
      if (typeof score_threshold === 'number')
        view.set('score threshold', String(scoreName(score_threshold)));
      if (Object.keys(rest).length > 0) view.set(ruleLabel(id, catalogue), fieldsText(rest));
      continue;
    }
    view.set(ruleLabel(id, catalogue), fieldsText(r));
  }
  return view;
}

/** What an absent line means: the default, with the rule's own default action when it is known. */
function defaultFor(label: string, catalogue?: Map<string, CatalogueRule>): string {
  const id = label.startsWith('rule ') ? label.slice(5, 37) : undefined;
  const rule = id ? catalogue?.get(id) : undefined;
  return rule?.action ? `default (${rule.action})` : 'default';
}

/** The changed lines between two views, in the file's terms, prefixed with the ruleset's label. */
export function viewChanges(
  rulesetId: string,
  before: ExceptionView,
  after: ExceptionView,
  catalogue?: Map<string, CatalogueRule>,
): FieldChange[] {
  const label = rulesetLabel(rulesetId);
  const keys = [...new Set([...before.keys(), ...after.keys()])];
  const changes: FieldChange[] = [];
  for (const key of keys) {
    const b = before.get(key);
    const a = after.get(key);
    if (b === a) continue;
    changes.push({
      path: `${label}: ${key}`,
      before: asShown(key, b ?? defaultFor(key, catalogue)),
      after: asShown(key, a ?? defaultFor(key, catalogue)),
    });
  }
  return changes;
}

/** Numbers (a paranoia level, a score) read as numbers: `paranoia level: 1 -> 2`. */
function asShown(key: string, value: string): string | number {
  if ((key === 'paranoia level' || key === 'score threshold') && /^\d+$/.test(value)) return Number(value);
  return value;
}
