/**
 * Plan-time refusals collected across every owner and kind. A kind refuses by throwing a UserError
 * from its plan (a gate such as a malicious-script ceiling, a migration blocker, a live conflict the
 * API would refuse); buildPlan keeps going with the other owners and kinds and throws once at the
 * end, so a file with three blocked zones shows all three in one run, not in three.
 */
import type { DesiredState } from '../config/model.js';
import { UserError } from '../errors.js';
import type { OwnerRef } from './runtime.js';

export interface PlanProblem {
  owner: OwnerRef;
  kind: string;
  message: string;
}

/** Thrown by buildPlan when any kind refused; `problems` are in file order. */
export class PlanProblemsError extends UserError {
  constructor(readonly problems: PlanProblem[]) {
    super(
      problems.length === 1
        ? problems[0].message
        : `${problems.length} problems stop this plan; nothing was changed:\n  ${problems
            .map((p) => p.message.replace(/\n/g, '\n    '))
            .join('\n  ')}`,
    );
  }
}

/** a `file:line:col: ` anywhere on the first line (some kinds put the zone first) */
const LOCATED = /(^|\s)\S+:\d+:\d+: /;

/**
 * One refusal, made to name its owner (`zone x.example: `) and its place in the file
 * (`file:line:col: `, the kind's key in the owner's entry) when the kind's message does not already.
 */
export function planProblem(
  owner: OwnerRef,
  kind: string,
  entryPath: string | undefined,
  key: string,
  desired: DesiredState,
  err: UserError,
): PlanProblem {
  let message = err.message;
  const named = `${owner.scope} ${owner.name}`;
  if (!message.includes(named)) message = `${named}: ${message}`;
  if (!LOCATED.test(message) && entryPath) {
    const at = locate(desired, key ? `${entryPath}.${key}` : entryPath);
    if (at) message = `${at}: ${message}`;
  }
  return { owner, kind, message };
}

/** The nearest located ancestor of a dotted path (a missing key has no location of its own). */
function locate(desired: DesiredState, path: string): string | undefined {
  const parent = /(\.[^.[\]]+|\[\d+\])$/;
  for (let p = path; p; p = p.replace(parent, '')) {
    const at = desired.locations.get(p);
    if (at) return `${at.file}:${at.line}:${at.col}`;
    if (!parent.test(p)) break;
  }
  return undefined;
}
