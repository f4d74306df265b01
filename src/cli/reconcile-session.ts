/**
 * What plan, apply and drift share: load the file, pick the target and say which, check that the
 * credentials can reach every area the file uses (before any request), read live state and plan.
 * Imported lazily by the commands so `zoneplan --help` stays fast.
 */
import { appendFileSync } from 'node:fs';
import { formatDiagnostic } from '../errors.js';
import { loadDesiredState } from '../config/load.js';
import { variablesFromCli } from '../config/vars.js';
import type { DesiredState } from '../config/model.js';
import { allKinds } from '../kinds/index.js';
import { buildPlan, runtimeKinds, type LiveState, type Plan, type RuntimeKind } from '../core/plan.js';
import { checkAuthFor, readLive } from '../core/read.js';
import { renderJson } from '../core/render-json.js';
import { renderMarkdown } from '../core/render-markdown.js';
import { renderText } from '../core/render-text.js';
import type { Output } from './output.js';
import type { GlobalOptions } from './globals.js';
import { resolveTarget, type Target } from './target.js';

export interface Session {
  file: string;
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
  file: string,
  globals: GlobalOptions,
  out: Output,
  check?: SessionCheck,
): Promise<Session> {
  const vars = await variablesFromCli(globals.varFiles, globals.vars);
  const { desired, warnings } = await loadDesiredState(file, { env: globals.io.env, vars });
  check?.(desired);
  const kinds = runtimeKinds(allKinds());
  const target = await resolveTarget({ desired, file, globals, log: (l) => out.debug(l) });
  try {
    // the target comes first on stderr, so a CI log shows at a glance where the run went
    out.info(target.description);
    for (const w of warnings) out.warn(formatDiagnostic(w));
    check?.(desired, target);
    for (const n of target.notes) out.info(n);
    checkAuthFor(desired, kinds, target.auth);
    const live = await readLive(desired, kinds, target.client, { auth: target.auth });
    const plan = buildPlan(desired, live, kinds);
    return { file, desired, target, kinds, live, plan };
  } catch (err) {
    await target.close();
    throw err;
  }
}

export type PlanFormat = 'text' | 'json' | 'markdown';

export function renderPlan(plan: Plan, format: PlanFormat, target: Target, out: Output): string {
  if (format === 'json') return renderJson(plan, target.identity);
  if (format === 'markdown') return renderMarkdown(plan, target.identity);
  return renderText(plan, out.style);
}

/** In GitHub Actions, the Markdown plan also goes to the job summary. */
export function appendStepSummary(
  plan: Plan,
  target: Target,
  env: NodeJS.ProcessEnv,
  heading?: string,
): void {
  const path = env.GITHUB_STEP_SUMMARY;
  if (!path) return;
  const md = renderMarkdown(plan, target.identity);
  appendFileSync(path, (heading ? `## ${heading}\n\n` : '') + md + '\n');
}
