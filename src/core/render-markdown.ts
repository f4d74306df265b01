/**
 * The Markdown plan, for a pull-request comment or the GitHub job summary: a heading with the
 * counts, then one table per owner. Every field a create sends and every field an update changes is
 * shown, never cut. A plan too long for one GitHub comment (65,536 characters) stays under it by
 * summarising its largest groups, largest first, as one row each ("+ 4,000 records: see the JSON
 * plan") with their counts; the smaller groups keep their rows.
 */
import { redact, redactForStep } from '../redact.js';
import { countActions, type Plan } from './plan.js';
import type { Step } from './runtime.js';
import { formatValue, groupSteps, summaryLine, verbOf } from './render-text.js';

/** GitHub's limit for an issue or pull-request comment body. */
export const MARKDOWN_LIMIT = 65_536;
/** room kept for what a caller wraps around the plan (the action's heading and marker) */
const MARGIN = 1_024;
const ICON: Record<string, string> = { create: '+', update: '~', delete: '-', migrate: '>', report: '!' };

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

function row(s: Step, kind: string): string {
  const changes = s.changes.map((c) =>
    s.action === 'create' && (c.before === undefined || c.before === null)
      ? `${c.path}: ${formatValue(c.after)}`
      : `${c.path}: ${formatValue(c.before)} → ${formatValue(c.after)}`,
  );
  if (s.reason) changes.push(s.reason);
  const what = `\`${ICON[s.action]}\` ${verbOf(s)}${s.irreversible ? ' **(irreversible)**' : ''}`;
  return `| ${what} | ${kind} | \`${cell(s.address)}\` | ${cell(changes.join('<br>'))} |`;
}

/** One row that stands for a whole group: its counts, and where the full list is. */
function summaryRow(kind: string, steps: Step[]): string {
  const c = countActions(steps);
  const parts = (['create', 'update', 'delete', 'migrate', 'report'] as const)
    .filter((a) => c[a] > 0)
    .map((a) => `${ICON[a]} ${c[a].toLocaleString('en-US')} to ${a === 'report' ? 'review' : a}`);
  return `| | ${kind} | ${steps.length.toLocaleString('en-US')} steps | ${parts.join(', ')}: see the JSON plan (\`zoneplan plan --format json\`) |`;
}

/**
 * `preface`: Markdown lines shown under the target line, before the tables (the verdict of a
 * rehearsal: what a reviewer reads first). They are kept whole when the plan is summarised.
 */
export function renderMarkdown(
  plan: Plan,
  target: string,
  opts: { limit?: number; preface?: string[] } = {},
): string {
  const limit = opts.limit ?? MARKDOWN_LIMIT;
  const preface = (opts.preface ?? []).map((l) => redact(l));
  const groups = [...groupSteps(plan.steps)].map(([owner, kinds]) => ({
    owner,
    kinds: [...kinds].map(([kind, steps]) => ({
      kind,
      steps,
      rows: steps.map((s) => redactForStep(row(s, kind), s.source)),
    })),
  }));
  const render = () => {
    // the rows are redacted per step already (redactForStep); everything else is redacted here
    const lines = [
      redact(`### zoneplan: ${summaryLine(plan)}`),
      '',
      redact(`Target: \`${cell(target)}\``),
      '',
      ...(preface.length > 0 ? [...preface, ''] : []),
    ];
    for (const g of groups) {
      lines.push(redact(`#### ${cell(g.owner)}`), '', '| | kind | object | changes |', '|---|---|---|---|');
      for (const k of g.kinds) lines.push(...k.rows);
      lines.push('');
    }
    if (plan.guards.length > 0) {
      lines.push('**Needs `--force`:**', '');
      for (const g of plan.guards) lines.push(redact(`- ${cell(g.owner)} ${g.kind}: ${cell(g.message)}`));
      lines.push('');
    }
    return lines.join('\n');
  };
  let text = render();
  // the largest groups first: summarising them frees the most room and keeps the most rows
  const bySize = groups
    .flatMap((g) => g.kinds)
    .sort((a, b) => b.rows.reduce((n, r) => n + r.length, 0) - a.rows.reduce((n, r) => n + r.length, 0));
  for (const k of bySize) {
    if (text.length <= limit - MARGIN) break;
    k.rows = [redact(summaryRow(k.kind, k.steps))];
    text = render();
  }
  if (text.length > limit - MARGIN) {
    // thousands of owners: even one row each is too long; keep whole lines up to the limit
    const note = '\n\n_The plan names more owners than a comment can hold: see the JSON plan._\n';
    text = text.slice(0, text.lastIndexOf('\n', limit - MARGIN - note.length)) + note;
  }
  return text;
}
