/**
 * The text plan, in the familiar style: grouped by owner and kind, `+ create`, `~ update` with
 * `field: old -> new` lines, `- delete`, `! report`, irreversible steps marked, and a summary line
 * with counts, an estimate of the API calls apply will make and the requests reading made. Every line passes through redact(); a step's lines
 * through redactForStep (its `${env:}` values masked, the same text elsewhere shown).
 */
import { redact, redactForStep } from '../redact.js';
import { countActions, type Plan } from './plan.js';
import type { Step } from './runtime.js';

/** How the text output colours its parts (the CLI's `styles(color)` builds one; `plain` leaves text as is). */
export interface TextStyle {
  green(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  bold(s: string): string;
  dim(s: string): string;
}

const plain: TextStyle = {
  green: (s) => s,
  red: (s) => s,
  yellow: (s) => s,
  cyan: (s) => s,
  bold: (s) => s,
  dim: (s) => s,
};

export function formatValue(v: unknown): string {
  if (v === undefined) return '(unset)';
  if (typeof v === 'string') return JSON.stringify(v);
  return JSON.stringify(v) ?? String(v);
}

const SIGN: Record<Step['action'], string> = {
  create: '+',
  update: '~',
  delete: '-',
  migrate: '>',
  report: '!',
};

/** The word a step is shown with: its action, or `rename` for an update that renames in place. */
export function verbOf(s: Step): string {
  return s.rename !== undefined ? 'rename' : s.action;
}

function colour(style: TextStyle, s: Step): (t: string) => string {
  if (s.action === 'create') return style.green;
  if (s.action === 'delete') return style.red;
  if (s.action === 'report') return style.yellow;
  return style.cyan;
}

/** Groups steps by owner, then kind, keeping the plan's order inside each group. */
export function groupSteps(steps: Step[]): Map<string, Map<string, Step[]>> {
  const owners = new Map<string, Map<string, Step[]>>();
  for (const s of steps) {
    const o = `${s.owner.scope} ${s.owner.name}`;
    let kinds = owners.get(o);
    if (!kinds) owners.set(o, (kinds = new Map()));
    let list = kinds.get(s.kind);
    if (!list) kinds.set(s.kind, (list = []));
    list.push(s);
  }
  return owners;
}

export function summaryLine(plan: Plan): string {
  return planCounts(plan) + readsNote(plan);
}

/**
 * The requests reading took, beside the apply estimate: the API's budget counts both, and at fleet
 * scale the reads are most of a plan's cost. Empty when they were not counted.
 */
function readsNote(plan: Plan): string {
  if (plan.reads === undefined) return '';
  return ` Read with ${plan.reads} API request${plan.reads === 1 ? '' : 's'}.`;
}

function planCounts(plan: Plan): string {
  const c = countActions(plan.steps);
  if (plan.steps.length === 0) return 'No changes. The live state matches the desired state.';
  const parts = [`${c.create} to create`, `${c.update} to update`, `${c.delete} to delete`];
  if (c.migrate) parts.push(`${c.migrate} to migrate`);
  if (c.report) parts.push(`${c.report} to review`);
  const irreversible = plan.steps.filter((s) => s.irreversible).length;
  if (irreversible) parts.push(`${irreversible} irreversible`);
  return `Plan: ${parts.join(', ')} (about ${plan.calls} API call${plan.calls === 1 ? '' : 's'}).`;
}

/**
 * One field of a step: `path: value` for a create (the value it will send), `path: old -> new`
 * for an update. Long lines are wrapped at `width`, never cut: the continuation lines are indented
 * under the value, so a 600-character TXT record reads in full. `mask` runs on the whole line
 * before it is wrapped: a secret split across two lines would no longer be found by the redactor.
 */
export function fieldLines(
  step: Step,
  indent: string,
  width: number,
  mask: (text: string) => string = redact,
): string[] {
  return step.changes.flatMap((c) => {
    const text =
      step.action === 'create' && (c.before === undefined || c.before === null)
        ? `${c.path}: ${formatValue(c.after)}`
        : `${c.path}: ${formatValue(c.before)} -> ${formatValue(c.after)}`;
    return wrap(mask(text), indent, width);
  });
}

/** Wraps at a space when one is in the second half of the line, else mid-word; drops nothing. */
function wrap(text: string, indent: string, width: number): string[] {
  const first = Math.max(20, width - indent.length);
  if (text.length <= first) return [indent + text];
  const lines: string[] = [];
  let start = 0;
  while (start < text.length) {
    const room = lines.length === 0 ? first : first - 2;
    let end = Math.min(text.length, start + room);
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end);
      if (space > start + room / 2) end = space + 1;
    }
    lines.push((lines.length === 0 ? indent : indent + '  ') + text.slice(start, end).trimEnd());
    start = end;
  }
  return lines;
}

/** The width text plans wrap at: wide enough that a CI log keeps ordinary lines whole. */
export const DEFAULT_WIDTH = 160;

export function renderText(plan: Plan, style: TextStyle = plain, width = DEFAULT_WIDTH): string {
  const lines: string[] = [];
  for (const [owner, kinds] of groupSteps(plan.steps)) {
    lines.push(redact(style.bold(owner)));
    for (const [kind, steps] of kinds) {
      lines.push(`  ${style.dim(kind)}`);
      for (const s of steps) {
        const own: string[] = [];
        const mark = s.irreversible ? style.red(' (irreversible)') : '';
        // masked before wrapping (see fieldLines), and once more as a whole, the safe side
        const mask = (text: string) => redactForStep(text, s.source);
        const head = wrap(mask(`${SIGN[s.action]} ${verbOf(s)} ${s.address}`), '', width - 4);
        head.forEach((h, i) => own.push(`    ${colour(style, s)(h)}${i === head.length - 1 ? mark : ''}`));
        own.push(...fieldLines(s, '        ', width, mask));
        if (s.reason) own.push(`        ${style.yellow(s.reason)}`);
        lines.push(mask(own.join('\n')));
      }
    }
    lines.push('');
  }
  for (const g of plan.guards) {
    lines.push(redact(style.yellow(`needs --force: ${g.owner} ${g.kind}: ${g.message}`)));
  }
  lines.push(style.bold(summaryLine(plan)));
  return lines.join('\n');
}
