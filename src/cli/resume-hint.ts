/**
 * What apply says after a signal stopped it. The command to finish with repeats the flags of the
 * interrupted run: without them (`--api-url`, `--local`, `--var`) the copied command may plan
 * against another target or other values. Nothing secret is on a command line: tokens come from
 * the environment only, and a `--var` of `${env:NAME}` is repeated as that reference, never as its
 * value. When every step was done before the signal, nothing is left to finish and it says so. A
 * saved plan is not the command to finish with: the steps done moved the live state it was made
 * from, so applying it again is refused as stale; a new plan is.
 */
import type { ApplyReport } from '../core/apply.js';

/** Characters a POSIX shell reads as themselves, so the word needs no quotes. */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** `word` as a POSIX shell reads it back: plain, or in single quotes (a `'` as `'\''`). */
export function shellWord(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The line after an interrupted apply's report; `argv` is the run's own arguments, `savedPlan` the
 * saved plan it applied, if any.
 */
export function interruptedMessage(
  report: Pick<ApplyReport, 'done' | 'notRun' | 'failed'>,
  argv: readonly string[],
  savedPlan?: string,
): string {
  const done = report.done.length;
  const left = report.notRun.length + report.failed.length;
  if (left === 0)
    return `apply was interrupted after its last step: ${stepCount(done)} done, nothing is left to run`;
  const stopped = `apply was interrupted: ${stepCount(done)} done, ${report.notRun.length} not run; `;
  if (savedPlan !== undefined && done > 0)
    return (
      stopped +
      `the saved plan ${savedPlan} no longer applies (the steps done changed the live state it was made from): ` +
      'to finish, plan again as it was made (its files, variables and target) and apply the new plan'
    );
  const command = ['zoneplan', ...argv].map(shellWord).join(' ');
  return stopped + `run \`${command}\` again to finish (it reads the live state again and converges)`;
}

/** `1 step`, `3 steps` */
export function stepCount(n: number): string {
  return `${n} step${n === 1 ? '' : 's'}`;
}
