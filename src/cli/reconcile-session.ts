/**
 * What plan, apply and drift share: load the file(s) as one desired state, keep the selected
 * owners (--zone, --account, --shard), pick the target and say which, check that the
 * credentials can reach every area the file uses (before any request), read live state and plan.
 * Imported lazily by the commands so `zoneplan --help` stays fast.
 */
import { appendFileSync } from 'node:fs';
import { formatDiagnostic } from '../errors.js';
import { loadDesiredFiles } from '../config/desired-files.js';
import { variablesFromCli } from '../config/vars.js';
import type { DesiredState } from '../config/model.js';
import { allKinds } from '../kinds/index.js';
import { buildPlan, runtimeKinds, type LiveState, type Plan, type RuntimeKind } from '../core/plan.js';
import { checkAuthFor, readLive } from '../core/read.js';
import { renderJson } from '../core/render-json.js';
import { renderMarkdown } from '../core/render-markdown.js';
import { renderText } from '../core/render-text.js';
import { formatShard, isSelective, selectOwners, type Selection } from '../core/selection.js';
import type { Output } from './output.js';
import type { GlobalOptions } from './globals.js';
import { rateLimitFor } from './selection-options.js';
import { resolveTarget, type Target } from './target.js';

export interface Session {
  /** the desired-state paths as given (files and directories) */
  paths: string[];
  selection: Selection;
  desired: DesiredState;
  target: Target;
  kinds: RuntimeKind[];
  live: LiveState;
  plan: Plan;
}

/**
 * `check` (optional) runs twice before any request: once the file is loaded (no target yet), and
 * once the target is chosen. apply of a saved plan refuses a changed file or another target there,
 * before it reads live state on that target.
 */
export type SessionCheck = (desired: DesiredState, target?: Target) => void;

export async function openSession(
  paths: string[],
  globals: GlobalOptions,
  out: Output,
  check?: SessionCheck,
  selection: Selection = { zones: [], accounts: [] },
): Promise<Session> {
  const vars = await variablesFromCli(globals.varFiles, globals.vars);
  const loaded = await loadDesiredFiles(paths, { env: globals.io.env, vars, cwd: globals.io.cwd });
  check?.(loaded.desired);
  const desired = selectOwners(loaded.desired, selection);
  const kinds = runtimeKinds(allKinds());
  // the shards of one user share its request budget: each takes its part unless --rate-limit says
  const rateLimit = rateLimitFor(selection, globals.rateLimit);
  if (rateLimit !== globals.rateLimit)
    out.debug(
      `rate limit ${rateLimit} requests/seconds: the API's budget shared by ${selection.shard?.count} shards`,
    );
  const target = await resolveTarget({
    desired,
    file: paths[0],
    globals: { ...globals, rateLimit },
    log: (l) => out.debug(l),
  });
  try {
    // the target comes first on stderr, so a CI log shows at a glance where the run went
    out.info(target.description);
    for (const w of loaded.warnings) out.warn(formatDiagnostic(w));
    if (isSelective(selection)) out.info(describeSelection(selection, desired, loaded.desired));
    check?.(desired, target);
    for (const n of target.notes) out.info(n);
    checkAuthFor(desired, kinds, target.auth);
    const live = await readLive(desired, kinds, target.client, { auth: target.auth });
    const plan = buildPlan(desired, live, kinds);
    return { paths, selection, desired, target, kinds, live, plan };
  } catch (err) {
    await target.close();
    throw err;
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
  appendFileSync(path, (heading ? `## ${heading}\n\n` : '') + md + '\n');
}
