/**
 * The Markdown plan, for a pull-request comment or the GitHub job summary: a heading with the
 * counts, then one table per owner. Long plans are cut at MAX_ROWS rows (the job summary takes at
 * most 1 MiB) with a line saying how many were left out.
 */
import { redact } from '../redact.js';
import type { Plan } from './plan.js';
import { formatValue, groupSteps, summaryLine } from './render-text.js';

const MAX_ROWS = 1000;
const ICON: Record<string, string> = { create: '+', update: '~', delete: '-', migrate: '>', report: '!' };

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

export function renderMarkdown(plan: Plan, target: string): string {
  const lines = [`### zoneplan: ${summaryLine(plan)}`, '', `Target: \`${cell(target)}\``, ''];
  let rows = 0;
  for (const [owner, kinds] of groupSteps(plan.steps)) {
    lines.push(`#### ${cell(owner)}`, '', '| | kind | object | changes |', '|---|---|---|---|');
    for (const [kind, steps] of kinds) {
      for (const s of steps) {
        if (rows++ >= MAX_ROWS) continue;
        const changes = s.changes.map((c) => `${c.path}: ${formatValue(c.before)} → ${formatValue(c.after)}`);
        if (s.reason) changes.push(s.reason);
        const what = `\`${ICON[s.action]}\` ${s.action}${s.irreversible ? ' **(irreversible)**' : ''}`;
        lines.push(`| ${what} | ${kind} | \`${cell(s.address)}\` | ${cell(changes.join('<br>'))} |`);
      }
    }
    lines.push('');
  }
  if (rows > MAX_ROWS) lines.push(`_${rows - MAX_ROWS} more steps not shown._`, '');
  if (plan.guards.length > 0) {
    lines.push('**Needs `--force`:**', '');
    for (const g of plan.guards) lines.push(`- ${cell(g.owner)} ${g.kind}: ${cell(g.message)}`);
    lines.push('');
  }
  return redact(lines.join('\n'));
}
