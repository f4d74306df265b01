/**
 * What plan, apply and drift share: load the file(s) as one desired state, keep the selected
 * owners (--zone, --account, --shard), pick the target and say which, check that the
 * credentials can reach every area the file uses (before any request), read live state and plan.
 * Imported lazily by the commands so `zoneplan --help` stays fast.
 */
import { appendFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatDiagnostic } from '../../errors.js';
import { redact, redactAroundSteps } from '../../redact.js';
import { loadDesiredFiles } from '../../config/desired-files.js';
import { readCommandLineVariables, type CommandLineVariables, type Variables } from '../../config/vars.js';
import type { DesiredState } from '../../config/model.js';
import { allKinds } from '../../kinds/index.js';
import { buildPlan, runtimeKinds, type LiveState, type Plan, type RuntimeKind } from '../../core/plan.js';
import { readFloor } from '../../core/estimate.js';
import { checkAuthFor, readLive } from '../../core/read.js';
import { renderJson } from '../../core/render-json.js';
import { renderMarkdown } from '../../core/render-markdown.js';
import { renderText } from '../../core/render-text.js';
import { formatShard, isSelective, selectOwners, type Selection } from '../../core/selection.js';
import type { Output } from '../output.js';
import type { GlobalOptions } from '../globals.js';
import { budgetNotice, createRunProgress, type RunProgress } from '../run-progress.js';
import { rateLimitFor } from '../selection-options.js';
import { EarlyReads } from './early-reads.js';
import { scanOwners } from './early-scan.js';
import { MAX_FILE_BYTES } from '../../config/yaml-source.js';
import { readUserFileSync } from '../../read-user-file.js';
import { resolveTarget, type Target, type TargetInput } from './target.js';
import { checkVarFileTargets } from './var-file-target.js';

export interface Session {
  /** the desired-state paths as given (files and directories) */
  paths: string[];
  selection: Selection;
  desired: DesiredState;
  target: Target;
  kinds: RuntimeKind[];
  live: LiveState;
  plan: Plan;
  /** the command line's variables (--var-file, --var), as a saved plan records them */
  variables: Variables;
}

/**
 * `check` (optional) runs twice before any request: once the file is loaded (no target yet), and
 * once the target is chosen. apply of a saved plan refuses a changed file or another target there,
 * before it reads live state on that target.
 */
export type SessionCheck = (desired: DesiredState, target?: Target) => void;

/**
 * How long the checks of the files wait, at most, for the early reads' first answers (see
 * EarlyReads.headStart): a local API answers a zone lookup in a few milliseconds.
 */
const HEAD_START_MS = 20;

export async function openSession(
  paths: string[],
  globals: GlobalOptions,
  out: Output,
  check?: SessionCheck,
  selection: Selection = { zones: [], accounts: [] },
  /** the variables to use instead of the command line's (apply of a saved plan: the plan's) */
  given?: CommandLineVariables,
): Promise<Session> {
  const cli = given ?? (await readCommandLineVariables(globals.varFiles, globals.vars));
  const vars = cli.vars;
  const kinds = runtimeKinds(allKinds());
  // the shards of one user share its request budget: each takes its part unless --rate-limit says
  const rateLimit = rateLimitFor(selection, globals.rateLimit, globals.io.env);
  const targetInput = (desired: DesiredState): TargetInput => ({
    desired,
    file: paths[0],
    globals: { ...globals, rateLimit },
    log: (l) => requestLines.add(l),
  });
  // the request lines (--verbose) of reads sent while the files are checked wait for the files to
  // be valid: a file with errors reports its errors and nothing else
  const requestLines = new HeldLines((l) => out.debug(l));
  let early: { target: Target; reads?: EarlyReads } | undefined;
  const startEarly = async (values: unknown[]) => {
    const target = await earlyTarget(values, globals, targetInput);
    if (!target) return;
    const reads = EarlyReads.start(
      values,
      selection,
      kinds,
      target.client,
      target.auth,
      target.client.concurrency,
    );
    early = { target, reads };
    await reads?.headStart(HEAD_START_MS);
  };
  // a saved plan is checked against the files before anything is read; otherwise the owners that
  // the file's text names plainly are read before it is even parsed (./early-scan.ts)
  const scanned = check || !mayReadEarly(globals) ? undefined : scanFile(paths, globals.io.cwd);
  if (scanned?.owners) await startEarly([scanned.owners]);
  const onRead = check
    ? undefined
    : async (values: unknown[]) => {
        if (!early) return startEarly(values);
        // reads started from the text are kept when the parsed file starts the very same ones
        // (the scan gives what the parse gives, or nothing); any other reads it starts go out on
        // the same target beside them
        if (early.reads?.covers(values, selection, kinds)) return;
        const reads = EarlyReads.start(
          values,
          selection,
          kinds,
          early.target.client,
          early.target.auth,
          early.target.client.concurrency,
        );
        if (!reads) return;
        early.reads = reads;
        await reads.headStart(HEAD_START_MS);
      };
  let loaded: Awaited<ReturnType<typeof loadDesiredFiles>>;
  try {
    loaded = await loadDesiredFiles(paths, {
      env: globals.io.env,
      vars,
      cwd: globals.io.cwd,
      onRead,
      // the bytes the scan read are the ones parsed: once the reads are on their way the parse
      // starts at once, with no wait for the disk in which the answer's processing would go first
      read: scanned?.read,
      // a turn of the event loop between the checks' stages lets the early reads move on
      between: () => (early?.reads ? new Promise((resolve) => setImmediate(resolve)) : Promise.resolve()),
    });
  } catch (err) {
    // the early answers are not wanted: drop them without waiting, so only the errors are reported
    requestLines.drop();
    await early?.target.client.abandon();
    throw err;
  }
  let target = early?.target;
  try {
    check?.(loaded.desired);
    const desired = selectOwners(loaded.desired, selection);
    if (rateLimit !== globals.rateLimit)
      out.debug(
        `rate limit ${rateLimit} requests/seconds: the API's budget shared by ${selection.shard?.count} shards`,
      );
    // an early target is the one the checked files choose too: it was taken only where they do not
    // choose (see earlyTarget)
    target ??= await resolveTarget(targetInput(desired));
    // the target comes first on stderr, so a CI log shows at a glance where the run went
    out.info(target.description);
    // a diagnostic says `warning:` itself, after its place (as validate prints it): not a second time
    for (const w of loaded.warnings) globals.io.stderr.write(out.style.yellow(formatDiagnostic(w)) + '\n');
    if (isSelective(selection)) out.info(describeSelection(selection, desired, loaded.desired));
    check?.(desired, target);
    checkVarFileTargets(cli.targets, target, loaded.desired);
    for (const n of target.notes) out.info(n);
    checkAuthFor(desired, kinds, target.auth);
    requestLines.release();
    // a run longer than the budget allows at once says so first (the budget is the user's)
    const notice = budgetNotice(readFloor(desired, kinds), target.client.rateLimit);
    if (notice) out.info(notice);
    const client = early?.reads ? early.reads.serving() : target.client;
    const progress = runProgressOf(globals, target);
    let live: LiveState;
    try {
      live = await readLive(desired, kinds, client, {
        auth: target.auth,
        concurrency: target.client.concurrency,
        onOwnerRead: (done, total) => progress.update('reading', done, total, ownersUnit(desired)),
      });
    } finally {
      progress.finish();
    }
    const plan = buildPlan(desired, live, kinds);
    for (const w of plan.warnings ?? []) out.warn(redact(w));
    return { paths, selection, desired, target, kinds, live, plan, variables: vars };
  } catch (err) {
    requestLines.release();
    await target?.close();
    throw err;
  }
}

/**
 * The target, chosen before the files are checked, when the command line or the environment
 * chooses a remote one whatever the files say: --api-url, CLOUDFLARE_BASE_URL, or a token with no
 * `target:` in any file and no --local. Undefined otherwise, and whenever choosing fails (the run
 * then chooses after the checks, as it always does, and reports why there). Not with
 * CLOUDFLARE_EMAIL set: choosing registers the address for redaction, and the files' diagnostics
 * must read the same as without early reads.
 */
async function earlyTarget(
  values: unknown[],
  globals: GlobalOptions,
  input: (desired: DesiredState) => TargetInput,
): Promise<Target | undefined> {
  if (!mayReadEarly(globals)) return undefined;
  const choosesTarget = values.some((v) => v !== null && typeof v === 'object' && 'target' in v);
  if (choosesTarget && !namesTarget(globals)) return undefined;
  try {
    // a remote target reads nothing of the desired state: no owner, no account
    return await resolveTarget(input({ zones: [], accounts: [] } as unknown as DesiredState));
  } catch {
    return undefined;
  }
}

/**
 * The one desired-state file of the command line, read: its bytes (which the loader then parses)
 * and the owners its text names (see ./early-scan.ts; undefined for a text the scan does not
 * read). Undefined for several paths, a directory, a file that cannot be read or is over the size
 * limit (the loader reads and reports those). Read at once: nothing else is under way yet.
 */
function scanFile(
  paths: string[],
  cwd: string,
): { owners?: Record<string, unknown>; read: { path: string; bytes: Buffer } } | undefined {
  if (paths.length !== 1) return undefined;
  const path = resolve(cwd, paths[0]!);
  let bytes: Buffer;
  try {
    bytes = readUserFileSync(path, MAX_FILE_BYTES);
  } catch {
    return undefined;
  }
  let owners: Record<string, unknown> | undefined;
  try {
    owners = scanOwners(bytes.toString('utf8'));
  } catch {
    owners = undefined; // the scan only gives up: the parse says what is wrong
  }
  return { owners, read: { path, bytes } };
}

/** Whether the command line or the environment chooses a remote target whatever the files say. */
function namesTarget(globals: GlobalOptions): boolean {
  return Boolean(globals.apiUrl || globals.io.env.CLOUDFLARE_BASE_URL?.trim());
}

/**
 * Whether a target may be chosen before the files are checked (see earlyTarget), as far as the
 * command line and the environment tell: a named target, or a token without --local.
 */
function mayReadEarly(globals: GlobalOptions): boolean {
  const env = globals.io.env;
  if (env.CLOUDFLARE_EMAIL?.trim()) return false;
  const token = Boolean(env.CLOUDFLARE_API_TOKEN?.trim()) && !env.CLOUDFLARE_API_KEY?.trim();
  return namesTarget(globals) || (!globals.local && token);
}

/** The progress line of a run on this target (./run-progress.ts). */
export function runProgressOf(globals: GlobalOptions, target: Target): RunProgress {
  return createRunProgress({
    stream: globals.io.stderr,
    quiet: globals.quiet,
    requests: () => target.client.stats.requests,
    waitMs: () => target.client.budgetWaitMs(),
  });
}

/** What the reading counts: zones, or zones and accounts. */
function ownersUnit(desired: DesiredState): string {
  return desired.accounts.length === 0
    ? 'zones'
    : desired.zones.length === 0
      ? 'accounts'
      : 'zones and accounts';
}

/** Lines held back until released (then printed, and every later line at once), or dropped. */
class HeldLines {
  private held: string[] | undefined = [];
  constructor(private readonly print: (line: string) => void) {}
  add(line: string): void {
    if (this.held) this.held.push(line);
    else this.print(line);
  }
  release(): void {
    const lines = this.held ?? [];
    this.held = undefined;
    for (const l of lines) this.print(l);
  }
  drop(): void {
    if (this.held) this.held = [];
  }
}

/** `selected 3 of 40 zones and 0 of 2 accounts (--zone *.example.com, --shard 2/4)` */
function describeSelection(selection: Selection, picked: DesiredState, all: DesiredState): string {
  const flags = [
    ...selection.zones.map((z) => `--zone ${z}`),
    ...selection.accounts.map((a) => `--account ${a}`),
    ...(selection.shard ? [`--shard ${formatShard(selection.shard)}`] : []),
  ];
  return (
    `selected ${picked.zones.length} of ${all.zones.length} zone(s) and ` +
    `${picked.accounts.length} of ${all.accounts.length} account(s) (${flags.join(', ')})`
  );
}

export type PlanFormat = 'text' | 'json' | 'markdown';

/** `preface`: Markdown lines under the target line (a rehearsal's verdict); Markdown only. */
export function renderPlan(
  plan: Plan,
  format: PlanFormat,
  target: Target,
  out: Output,
  preface?: string[],
): string {
  if (format === 'json') return renderJson(plan, target.identity);
  if (format === 'markdown') return renderMarkdown(plan, target.identity, { preface });
  return renderText(plan, out.style);
}

/** In GitHub Actions, the Markdown plan also goes to the job summary. */
export function appendStepSummary(
  plan: Plan,
  target: Target,
  env: NodeJS.ProcessEnv,
  heading?: string,
  preface?: string[],
): void {
  const path = env.GITHUB_STEP_SUMMARY;
  if (!path) return;
  const md = renderMarkdown(plan, target.identity, { preface });
  // the Markdown masked each step's env values; the file gets the run's last pass like stdout does
  appendFileSync(path, redactAroundSteps((heading ? `## ${heading}\n\n` : '') + md + '\n'));
}
