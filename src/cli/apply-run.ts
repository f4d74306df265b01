/**
 * `zoneplan apply`: plan (or re-check a saved plan), refuse what the safety rules refuse, confirm,
 * run with a journal and a progress line, and report what was and was not done.
 */
import { statSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { join, resolve } from 'node:path';
import type { DesiredState } from '../config/model.js';
import { UserError } from '../errors.js';
import { kindOf } from '../read-user-file.js';
import { redact } from '../redact.js';
import { applyPlan, type ApplyReport } from '../core/apply.js';
import type { Plan } from '../core/plan.js';
import { openJournal } from '../core/journal.js';
import {
  changedFiles,
  changedSinceSaved,
  looksLikePlanFile,
  readPlanFile,
  savedSelection,
  staleReasons,
} from '../core/plan-file.js';
import { isSelective } from '../core/selection.js';
import { acquireApplyLock } from './pipeline/lock.js';
import { renderText } from '../core/render-text.js';
import {
  appendApplySummary,
  emptyReport,
  printTextReport,
  renderApplyJson,
  renderApplyMarkdown,
} from './apply-report.js';
import type { ApplyOptions } from './apply.js';
import { confirm } from './confirm.js';
import { InterruptedError, onInterrupt } from './interrupt.js';
import type { Format } from './formats.js';
import { interruptedMessage } from './resume-hint.js';
import type { GlobalOptions } from './globals.js';
import type { Output } from './output.js';
import { openSession, runProgressOf } from './pipeline/session.js';
import { budgetNotice } from './run-progress.js';
import { countRequests } from '../core/read.js';
import { selectionOf } from './selection-options.js';
import { stateDirOf } from './pipeline/state-dir.js';
import { checkSameTarget, type Target } from './pipeline/target.js';
import { placeOf, readCommandLineVariables, type CommandLineVariables } from '../config/vars.js';

/**
 * The variables a saved plan was made with. A variable the command line gives again must have the
 * value the plan recorded (repeating the flags of the plan is fine); another value, or a variable
 * the plan was made without, is refused by name: the plan is of those values, and no other.
 */
async function savedVariables(
  arg: string,
  saved: ReturnType<typeof readPlanFile>,
  globals: GlobalOptions,
): Promise<CommandLineVariables> {
  const recorded = new Map(Object.entries(saved.variables ?? {}));
  const cli = await readCommandLineVariables(globals.varFiles, globals.vars);
  const refused: string[] = [];
  for (const [name, v] of cli.vars) {
    const where = placeOf(name, v);
    if (!recorded.has(name))
      refused.push(
        `${where}: variable ${name} was not given when the plan was made (it used the files' value)`,
      );
    else if (!isDeepStrictEqual(recorded.get(name), v.value))
      refused.push(
        `${where}: variable ${name} is ${JSON.stringify(v.value)} here, but the plan was made with ${JSON.stringify(recorded.get(name))}`,
      );
  }
  if (refused.length > 0)
    throw new UserError(
      `the saved plan ${arg} applies the variables it was made with:\n  ${refused.join('\n  ')}\n` +
        'apply it without them, or plan again with the new values',
    );
  const vars = new Map([...recorded].map(([name, value]) => [name, { value, from: 'the saved plan' }]));
  return { vars, targets: cli.targets };
}

/**
 * The target of the saved plan, when the command line and the environment name none: its URL (a
 * remote API), or the embedded local API on purpose (--local) for a plan made against that.
 * A named target is left as it is, and refused when it is another one (checkSameTarget).
 */
function withSavedTarget(target: string, globals: GlobalOptions): GlobalOptions {
  if (globals.apiUrl || globals.io.env.CLOUDFLARE_BASE_URL?.trim()) return globals;
  if (target.startsWith('local:')) return { ...globals, local: true };
  // a URL whose secret parameters were redacted cannot be used as it is: --api-url must say it
  if (target.includes('[REDACTED]')) return globals;
  return { ...globals, apiUrl: target, apiUrlFrom: 'from the saved plan' };
}

export async function runApply(
  args: string[],
  opts: ApplyOptions,
  globals: GlobalOptions,
  out: Output,
): Promise<void> {
  const arg = args[0];
  const plans = args.filter((a) => looksLikePlanFile(a));
  if (plans.length > 0 && args.length > 1)
    throw new UserError(`${plans[0]} is a saved plan: apply it alone (\`zoneplan apply ${plans[0]}\`)`);
  // a saved plan is checked whole (its digest, its paths, the bytes of the files it names) before
  // any file is parsed or the lock's directory is made beside them
  const saved = plans.length === 1 ? readPlanFile(arg, globals.io.cwd) : undefined;
  const changed = saved ? await changedSinceSaved(saved, globals.io.cwd) : [];
  if (changed.length > 0)
    throw new UserError(
      `the saved plan ${arg} is stale: ${changed.join(', ')} since it was made; plan again`,
    );
  const paths = saved ? saved.desiredPaths : args;
  // the plan's own variables and target, unless the command line says otherwise (then refused
  // when it differs): `apply plan.json` takes no other flag
  const given = saved ? await savedVariables(arg, saved, globals) : undefined;
  if (saved) globals = withSavedTarget(saved.target, globals);
  // the lock's directory is made beside the first path: only beside a file or a directory
  if (!saved) refuseOddPaths(paths, globals.io.cwd);
  // the lock covers the plan too: a run that waited plans from what the other one left
  const lock = await acquireApplyLock(stateDirOf(paths, globals.io.cwd), opts.lockTimeout ?? 0, (l) =>
    out.info(l),
  );
  try {
    await planAndApply(arg, saved, paths, opts, globals, out, given);
  } finally {
    lock.release();
  }
}

/**
 * A path that is not a regular file or a directory (a FIFO, a device) is refused before the lock
 * makes `.zoneplan/` beside it; a missing path is left to the loader, which says so at the file.
 */
function refuseOddPaths(paths: string[], cwd: string): void {
  for (const path of paths) {
    let info;
    try {
      info = statSync(resolve(cwd, path));
    } catch {
      continue;
    }
    if (!info.isFile() && !info.isDirectory())
      throw new UserError(`${path}: is ${kindOf(info)}, not a desired-state file or a directory of them`);
  }
}

async function planAndApply(
  arg: string,
  saved: ReturnType<typeof readPlanFile> | undefined,
  paths: string[],
  opts: ApplyOptions,
  globals: GlobalOptions,
  out: Output,
  given?: CommandLineVariables,
): Promise<void> {
  const asked = selectionOf(opts);
  if (saved && isSelective(asked))
    throw new UserError(
      `the saved plan ${arg} applies the owners it was planned for; --zone, --account and --shard belong to \`zoneplan plan\``,
    );
  const selection = saved ? savedSelection(saved) : asked;
  // A saved plan names its files (by hash) and its target: a plan made for another target is refused
  // as such, not with that target's 401 (nor after reading the real API).
  // (only for a saved plan: without one, the live reads may start while the files are checked)
  const check = saved
    ? (desired: DesiredState, target?: Target) => {
        if (target) return checkSameTarget(saved.target, target, saved.credential);
        const changed = changedFiles(saved, {
          files: desired.source.files,
          sha256s: desired.source.sha256s ?? [desired.source.sha256],
          cwd: globals.io.cwd,
        });
        if (changed.length > 0) {
          throw new UserError(
            `the saved plan ${arg} is stale: ${changed.join(', ')} since it was made; plan again`,
          );
        }
      }
    : undefined;
  const session = await openSession(paths, globals, out, check, selection, given);
  const { plan, target, desired } = session;
  try {
    if (saved) {
      const stale = staleReasons(saved, plan);
      if (stale.length > 0) {
        throw new UserError(`the saved plan ${arg} is stale:\n  ${stale.join('\n  ')}\nplan again`);
      }
    }
    const runnable = plan.steps.filter((s) => s.action !== 'report');
    // text shows the plan before asking; json and markdown are one document, printed once it ran
    const format = (globals.format ?? 'text') as Format;
    if (format === 'text') out.out(renderText(plan, out.style));
    const tell = (r: ApplyReport, journalPath?: string) =>
      reportApply({
        plan,
        target: target.identity,
        format,
        report: r,
        journalPath,
        out,
        env: globals.io.env,
      });
    if (runnable.length === 0) {
      tell(emptyReport());
      return;
    }
    if (opts.rehearseFirst) {
      // before any write to the target: the same plan on a copy of what was just read
      const { rehearse, rehearsalLines } = await import('./rehearse.js');
      const r = await rehearse({ ...session, allowIrreversible: opts.allowIrreversible });
      for (const l of rehearsalLines(r)) out.info(l);
      if (!r.passed) throw new UserError('the rehearsal did not pass; nothing was applied to the target');
    }
    if (plan.guards.length > 0 && !opts.force) {
      const why = redact(plan.guards.map((g) => `${g.owner} ${g.kind}: ${g.message}`).join('\n  '));
      throw new UserError(`refusing to apply without --force:\n  ${why}`);
    }
    if (!opts.autoApprove) {
      if (!globals.io.stdin.isTTY) {
        throw new UserError('apply asks for confirmation on a terminal; without one, pass --auto-approve');
      }
      // stdout keeps its one document: the plan to approve is shown on the terminal's stderr
      if (format !== 'text') globals.io.stderr.write(renderText(plan, out.style) + '\n');
      if (!(await confirm(`Apply these changes to ${target.identity}?`, globals.io)))
        throw new UserError('apply cancelled');
    }
    const journal = openJournal(join(stateDirOf(paths, globals.io.cwd), 'journal'));
    // the writes may take the run past what the budget allows at once: said before they start
    const notice = budgetNotice((plan.reads ?? 0) + plan.calls, target.client.rateLimit);
    if (notice && plan.calls > 0) out.info(notice);
    const bar = runProgressOf(globals, target);
    const applying = countRequests(target.client);
    const stop = new AbortController();
    const release = onInterrupt((signal) => {
      bar.finish();
      out.warn(
        `${signal} received: starting no new step, finishing the requests in flight, then reading back ` +
          'what was written (send it again to stop at once)',
      );
      stop.abort();
    });
    let report: ApplyReport;
    try {
      report = await applyPlan(plan, {
        client: applying,
        kinds: session.kinds,
        desired,
        live: session.live,
        auth: target.auth,
        parallelism: opts.parallelism ?? target.client.concurrency,
        allowIrreversible: opts.allowIrreversible,
        journal,
        onProgress: (d, t) => bar.update('applying', d, t, 'steps'),
        log: (l) => out.debug(l),
        signal: stop.signal,
      });
    } finally {
      release();
      bar.finish();
    }
    tell(report, journal.path);
    const requests = requestsLine(plan.reads, applying.requests);
    if (format === 'text') out.out(requests);
    else out.info(requests);
    if (report.interrupted) {
      throw new InterruptedError(
        interruptedMessage(report, globals.run.argv ?? ['apply', ...paths], saved ? arg : undefined),
      );
    }
    const problems =
      report.failed.length + report.notRun.length + report.readBack.length + report.skipped.length;
    if (problems > 0) throw new UserError(incompleteMessage(report, journal.path));
  } finally {
    await target.close();
  }
}

/**
 * Why apply exits 1, by what went wrong: steps that failed or did not run (a 4xx fails again until
 * its cause is fixed), steps all done but read back different (the API stored something other than
 * the plan promised: nothing was refused, a fresh plan shows what is live), or only irreversible
 * steps skipped on purpose.
 */
function incompleteMessage(report: ApplyReport, journalPath: string | undefined): string {
  const journal = journalPath ? `; the journal is ${journalPath}` : '';
  if (report.failed.length + report.notRun.length > 0)
    return (
      `apply did not complete${journal}; a step the API refused (a 4xx above) fails again until its ` +
      'cause is fixed; then run apply again: it reads the live state and finishes the rest'
    );
  const differences = report.readBack.length;
  if (differences > 0)
    return (
      `every step ran, but the read-back found ${differences} difference${differences === 1 ? '' : 's'} ` +
      `(above): the API stored something other than the plan promised${journal}; run plan again to see what is live`
    );
  return `${skippedCount(report.skipped)}; rerun with --allow-irreversible to run them`;
}

/** `API requests: 906 (606 to read, 300 to apply and read back).` */
function requestsLine(reads: number | undefined, applying: number): string {
  if (reads === undefined) return `API requests to apply and read back: ${applying}.`;
  return `API requests: ${reads + applying} (${reads} to read, ${applying} to apply and read back).`;
}

/**
 * The run's result in the format asked for, and in GitHub Actions its Markdown in the job summary.
 * A run with nothing to do prints no text report (the plan said `No changes.`).
 */
function reportApply(a: {
  plan: Plan;
  target: string;
  format: Format;
  report: ApplyReport;
  journalPath?: string;
  out: Output;
  env: NodeJS.ProcessEnv;
}): void {
  const ran =
    a.report.done.length + a.report.failed.length + a.report.notRun.length + a.report.skipped.length;
  const markdown = () => renderApplyMarkdown(a.plan, a.target, a.report);
  if (a.env.GITHUB_STEP_SUMMARY) appendApplySummary(a.env, markdown());
  if (a.format === 'json') a.out.out(renderApplyJson(a.plan, a.target, a.report, a.journalPath));
  else if (a.format === 'markdown') a.out.out(markdown());
  else if (ran > 0) printTextReport(a.report, a.out, a.journalPath);
  if (a.format !== 'text' && a.journalPath) a.out.info(`journal: ${a.journalPath}`);
}

/** `2 irreversible step(s) skipped, and 3 step(s) that depend on them`, counting each kind apart. */
function skippedCount(skipped: { irreversible: boolean }[]): string {
  const irreversible = skipped.filter((s) => s.irreversible).length;
  const dependants = skipped.length - irreversible;
  return (
    `${irreversible} irreversible step(s) skipped` +
    (dependants > 0 ? `, and ${dependants} step(s) that depend on them` : '')
  );
}
