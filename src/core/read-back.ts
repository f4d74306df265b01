/**
 * The read-back after apply (docs/plan-and-apply.md, "The read-back"): every (owner, kind) that was
 * written is planned again, from a fresh read or from the live value its writes' answers settled
 * (ApplyContext.settled); a step left over is the API storing something other than the plan
 * promised, except the steps skipped or not run on purpose and what they need first.
 */
import { redact } from '../redact.js';
import { draftsToSteps, planOne, type OwnerLive } from './plan.js';
import { readOwner } from './read.js';
import type { Step } from './runtime.js';
import type { ApplyOptions } from './apply.js';

/** The (owner, kind) a step belongs to: what apply runs together and reads back once. */
export const groupKey = (s: Step) => `${s.owner.scope}\u0000${s.owner.name}\u0000${s.kind}`;
const oneLine = (e: unknown) => redact(String((e as Error)?.message ?? e).split('\n')[0]);

/** What a step needs done first: its declared dependencies (not the engine's order-only ones). */
function prerequisitesOf(step: Step): string[] {
  if (!step.orderOnly?.length) return step.dependsOn;
  const orderOnly = new Set(step.orderOnly);
  return step.dependsOn.filter((d) => !orderOnly.has(d));
}

/**
 * The ids of `roots` and of every step they depend on, transitively, through declared dependencies
 * only. A kind that plans a sequence (the WAF migration: check, fetch, merge, final step) plans the
 * steps before a skipped one again while it waits, though they ran: they are expected to remain.
 */
export function withPrerequisites(roots: Step[], stepOf: (id: string) => Step | undefined): Set<string> {
  const out = new Set(roots.map((s) => s.id));
  const queue = [...roots];
  while (queue.length > 0) {
    for (const d of prerequisitesOf(queue.pop()!)) {
      if (out.has(d)) continue;
      out.add(d);
      const dep = stepOf(d);
      if (dep) queue.push(dep);
    }
  }
  return out;
}

/**
 * Reads back every (owner, kind) that was written and re-plans it; what is left is a mismatch,
 * except the steps in `expected` (skipped or not run on purpose, and their prerequisites). A group
 * whose writes' answers settled its live value (`isSettled`) is re-planned from that value without
 * a read. Groups of different owners are read back in parallel (the client caps the requests in
 * flight); the problems are listed in the order of the steps.
 */
export async function readBack(
  done: Step[],
  expected: Set<string>,
  opts: ApplyOptions,
  ownerOf: (s: Step) => OwnerLive,
  isSettled: (group: string) => boolean,
): Promise<string[]> {
  const touched = new Map<string, Step>();
  for (const step of done) touched.set(groupKey(step), step);
  const groups = [...touched];
  const problems: string[][] = groups.map(() => []);
  let next = 0;
  const worker = async () => {
    while (next < groups.length) {
      const i = next++;
      const [key, step] = groups[i];
      problems[i] = await verifyGroup(step, !isSettled(key), expected, opts, ownerOf);
    }
  };
  const parallelism = Math.max(1, opts.parallelism ?? 4);
  await Promise.all(Array.from({ length: Math.min(parallelism, groups.length) }, worker));
  return problems.flat().map(redact);
}

/** The read-back of one (owner, kind): read it again (unless `read` is false) and re-plan. */
async function verifyGroup(
  step: Step,
  read: boolean,
  expected: Set<string>,
  opts: ApplyOptions,
  ownerOf: (s: Step) => OwnerLive,
): Promise<string[]> {
  const kind = opts.kinds.find((k) => k.name === step.kind)!;
  const o = ownerOf(step);
  try {
    if (read) await readOwner(o, opts.kinds, opts.client, opts.auth, new Set([kind.name]));
  } catch (err) {
    return [`${o.owner.name} ${kind.name}: the read-back failed: ${oneLine(err)}`];
  }
  const fresh = draftsToSteps(planOne(kind, o, opts.desired), o.owner, kind.name);
  // the fresh plan's own declared prerequisites of the expected steps remain too
  const freshById = new Map(fresh.map((s) => [s.id, s]));
  const remain = withPrerequisites(
    fresh.filter((s) => expected.has(s.id)),
    (id) => freshById.get(id),
  );
  const problems: string[] = [];
  for (const s of fresh) {
    // steps never run on purpose (skipped irreversible ones, and what they need first) remain
    if (s.action === 'report' || expected.has(s.id) || remain.has(s.id)) continue;
    const fields = s.changes.map((c) => c.path).join(', ');
    problems.push(
      `${o.owner.name} ${kind.name} ${s.address}: the API stored something other than the plan promised` +
        (fields ? ` (${fields})` : ` (still needs ${s.action})`),
    );
  }
  return problems;
}
