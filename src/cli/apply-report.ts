/**
 * What `zoneplan apply` says when it has run: the text report (the default), one JSON document
 * (`--format json`: the plan with each step's outcome, and the counts), or Markdown (`--format
 * markdown`, and the GitHub job summary: the Markdown plan, then what happened). The shapes are
 * documented in docs/plan-and-apply.md ("apply --format json"). Every line is redacted: a step's
 * address or error may hold an `${env:...}` value (a TXT record's content).
 */
import { appendFileSync } from 'node:fs';
import type { ApplyReport } from '../core/apply.js';
import type { Plan } from '../core/plan.js';
import { redactedJson, toJsonPlan, type JsonPlan, type JsonStep } from '../core/render-json.js';
import { renderMarkdown } from '../core/render-markdown.js';
import { stepName, type Step } from '../core/runtime.js';
import { redact, redactAroundSteps, redactForStep } from '../redact.js';
import type { Output } from './output.js';
import { stepCount } from './resume-hint.js';

export type StepOutcome = 'applied' | 'failed' | 'not_run' | 'skipped' | 'reported';

export interface JsonAppliedStep extends JsonStep {
  outcome: StepOutcome;
  /** the API's or the engine's message, for a failed step */
  error?: string;
  /** the write's outcome was unknown and a re-read showed it done */
  resolved?: true;
}

export interface JsonApply extends Omit<JsonPlan, 'steps'> {
  steps: JsonAppliedStep[];
  outcome: {
    applied: number;
    failed: number;
    not_run: number;
    skipped: number;
    resolved: number;
    /** steps the run had to do (the plan's steps but its reports) */
    total: number;
    read_back: string[];
    interrupted: boolean;
    /** every step applied and read back as planned */
    ok: boolean;
    journal: string | null;
  };
}

/** The report of a run that had no step to run (nothing changed, or only reports). */
export function emptyReport(): ApplyReport {
  return {
    done: [],
    failed: [],
    notRun: [],
    skipped: [],
    resolved: [],
    readBack: [],
    ok: true,
    interrupted: false,
  };
}

const total = (r: ApplyReport) => r.done.length + r.failed.length + r.notRun.length + r.skipped.length;

export function toJsonApply(
  plan: Plan,
  target: string,
  r: ApplyReport,
  journal: string | undefined,
): JsonApply {
  const base = toJsonPlan(plan, target);
  const outcome = new Map<string, { outcome: StepOutcome; error?: string }>();
  for (const s of r.done) outcome.set(s.id, { outcome: 'applied' });
  for (const f of r.failed) outcome.set(f.step.id, { outcome: 'failed', error: f.error });
  for (const s of r.notRun) outcome.set(s.id, { outcome: 'not_run' });
  for (const s of r.skipped) outcome.set(s.id, { outcome: 'skipped' });
  const resolved = new Set(r.resolved.map((s) => s.id));
  return {
    ...base,
    steps: plan.steps.map((s, i) => {
      const o = outcome.get(s.id) ?? { outcome: s.action === 'report' ? 'reported' : 'not_run' };
      return { ...base.steps[i], ...o, ...(resolved.has(s.id) ? { resolved: true as const } : {}) };
    }),
    outcome: {
      applied: r.done.length,
      failed: r.failed.length,
      not_run: r.notRun.length,
      skipped: r.skipped.length,
      resolved: r.resolved.length,
      total: total(r),
      read_back: r.readBack,
      interrupted: r.interrupted,
      ok: r.failed.length + r.notRun.length + r.skipped.length + r.readBack.length === 0 && !r.interrupted,
      journal: journal ?? null,
    },
  };
}

export function renderApplyJson(plan: Plan, target: string, r: ApplyReport, journal?: string): string {
  return redactedJson(
    toJsonApply(plan, target, r, journal),
    plan.steps.map((s) => s.source),
  );
}

/** a job summary holds 1 MiB: the list of steps that did not apply stops well before */
const MAX_LISTED = 100;

/** The Markdown plan, then a section on what the run did and did not do. */
export function renderApplyMarkdown(plan: Plan, target: string, r: ApplyReport): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  const lines = [
    renderMarkdown(plan, target).trimEnd(),
    '',
    `#### Applied ${r.done.length} of ${stepCount(total(r))}${r.interrupted ? ' (interrupted)' : ''}`,
  ];
  const item = (what: string, s: Step, why = '') =>
    redactForStep(`- ${what}: \`${cell(stepName(s))}\`${why ? `: ${cell(why)}` : ''}`, s.source);
  const problems = [
    ...r.failed.map((f) => item('failed', f.step, f.error)),
    ...r.notRun.map((s) => item('not run', s)),
    ...r.skipped.map((s) =>
      item(
        'skipped',
        s,
        s.irreversible ? 'irreversible, needs --allow-irreversible' : 'depends on a skipped step',
      ),
    ),
    ...r.readBack.map((l) => redact(`- read-back: ${cell(l)}`)),
    ...r.resolved.map((s) => item('resolved by re-reading', s)),
  ];
  if (problems.length > 0) lines.push('', ...problems.slice(0, MAX_LISTED));
  if (problems.length > MAX_LISTED)
    lines.push(`- ... and ${problems.length - MAX_LISTED} more: see \`zoneplan apply --format json\``);
  return lines.join('\n') + '\n';
}

/** In GitHub Actions (GITHUB_STEP_SUMMARY set), the Markdown of the run goes to the job summary. */
export function appendApplySummary(env: NodeJS.ProcessEnv, markdown: string): void {
  const path = env.GITHUB_STEP_SUMMARY;
  if (!path) return;
  appendFileSync(path, redactAroundSteps(`## zoneplan apply\n\n${markdown}\n`));
}

export function printTextReport(r: ApplyReport, output: Output, journalPath: string | undefined): void {
  // addresses may hold `${env:...}` values (a TXT record's content): every line is redacted
  const out = { ...output, out: (line: string) => output.out(redact(line)) };
  out.out('');
  out.out(out.style.bold(`Applied ${r.done.length} of ${stepCount(total(r))}.`));
  // many of them means another run got there first (its writes were refused as already true): a count
  const shownResolved = r.resolved.length > 10 ? r.resolved.slice(0, 3) : r.resolved;
  for (const s of shownResolved) out.out(`  resolved by re-reading (outcome was unknown): ${stepName(s)}`);
  if (shownResolved.length < r.resolved.length)
    out.out(
      `  ... and ${r.resolved.length - shownResolved.length} more found already done by re-reading ` +
        '(an unknown outcome, or another run got there first)',
    );
  for (const f of r.failed) out.out(out.style.red(`  failed: ${stepName(f.step)}: ${f.error}`));
  for (const s of r.notRun) out.out(`  not run: ${stepName(s)}`);
  for (const s of r.skipped) {
    // the skipped list also holds the steps that wait for an irreversible one (the WAF check after a
    // URI-override deletion): they are not irreversible themselves, and must not read as such
    const why = s.irreversible
      ? 'irreversible, needs --allow-irreversible'
      : 'depends on a skipped irreversible step';
    out.out(out.style.yellow(`  skipped (${why}): ${stepName(s)}`));
  }
  for (const line of r.readBack) out.out(out.style.red(`  read-back: ${line}`));
  if (journalPath) out.info(`journal: ${journalPath}`);
}
