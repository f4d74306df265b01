/**
 * The applying end (docs/reference/design.md section 5). Steps run in dependency order; ready steps of one (owner, kind) go
 * to the kind together (so DNS can batch them), and groups of different owners or kinds run in
 * parallel up to `parallelism`. On a failure no new group starts, those in flight finish, and the
 * report says what was and was not done.
 *
 * A result `unknown` (the write may or may not have happened) is resolved by re-reading that
 * (owner, kind) and re-planning it: steps the fresh plan no longer has are done, the others are
 * re-run with the fresh plan's data. Nothing is repeated blindly. After a clean run every (owner,
 * kind) that was written is read back (or taken from what the writes' answers settled, see
 * ApplyContext.settled) and re-planned; anything left is an inconsistency, reported
 * by address (Terraform's "provider produced inconsistent result after apply"), except the steps
 * skipped or not run on purpose and the steps they depend on (declared by the kind, transitively).
 */
import type { Auth } from '../client/types.js';
import type { DesiredState } from '../config/model.js';
import { redact } from '../redact.js';
import { nullJournal, type Journal } from './journal.js';
import {
  draftsToSteps,
  planOne,
  type LiveState,
  type OwnerLive,
  type Plan,
  type RuntimeKind,
} from './plan.js';
import { readOwner } from './read.js';
import { groupKey, readBack as readBackPlan, withPrerequisites } from './read-back.js';
import type { Requester, Step, StepResult } from './runtime.js';

export interface ApplyOptions {
  client: Requester;
  kinds: RuntimeKind[];
  desired: DesiredState;
  live: LiveState;
  auth?: Auth;
  parallelism?: number;
  allowIrreversible?: boolean;
  /**
   * false: no read-back after the steps (report.readBack stays empty), for a caller that reads and
   * plans every owner again itself right after (a rehearsal's second plan), which finds whatever
   * the read-back would, and more; reading the touched groups twice costs a 10,000-record zone a
   * whole second read. Default true.
   */
  readBack?: boolean;
  journal?: Journal;
  onProgress?(done: number, total: number): void;
  log?(line: string): void;
  /**
   * Aborted on an interrupt: no new step starts and no new write is sent (a kind's next request in
   * a group fails with NOT_STARTED and its step counts as not run); what is in flight finishes.
   */
  signal?: AbortSignal;
}

/** The message of a write refused because the run was interrupted; its step was not run. */
export const NOT_STARTED = 'not started: the run was interrupted';

type Status = 'pending' | 'running' | 'done' | 'failed' | 'not-run' | 'skipped';

export interface ApplyReport {
  done: Step[];
  failed: { step: Step; error: string }[];
  /** not started because the run stopped or a dependency did not complete */
  notRun: Step[];
  /** irreversible steps (and their dependants) skipped without --allow-irreversible */
  skipped: Step[];
  /** steps whose outcome was unknown and that a re-read showed as done */
  resolved: Step[];
  /** read-back mismatches, one line each, naming the object */
  readBack: string[];
  ok: boolean;
  /** the run stopped early because `signal` was aborted */
  interrupted: boolean;
}

interface Entry {
  step: Step;
  status: Status;
  error?: string;
  attempts: number;
}

/**
 * How many times one step may be attempted when each attempt ends with an unknown outcome: every
 * unknown outcome is followed by a re-read and a re-plan (never a blind repeat), so a retry is safe;
 * the bound only stops a target that never answers a write from looping forever.
 */
export const MAX_UNKNOWN_ATTEMPTS = 6;

const oneLine = (e: unknown) => redact(String((e as Error)?.message ?? e).split('\n')[0]);

/** The client with writes refused once `signal` is aborted (reads still go: the read-back needs them). */
function gatedClient(client: Requester, signal: AbortSignal | undefined): Requester {
  if (!signal) return client;
  return {
    request(method, path, options) {
      if (signal.aborted && method.toUpperCase() !== 'GET') return Promise.reject(new Error(NOT_STARTED));
      return client.request(method, path, options);
    },
  };
}

export async function applyPlan(plan: Plan, opts: ApplyOptions): Promise<ApplyReport> {
  const writer = gatedClient(opts.client, opts.signal);
  const journal = opts.journal ?? nullJournal;
  const parallelism = Math.max(1, opts.parallelism ?? 4);
  const kindByName = new Map(opts.kinds.map((k) => [k.name, k]));
  const ownerLive = new Map(opts.live.owners.map((o) => [`${o.owner.scope}\u0000${o.owner.name}`, o]));
  const ownerOf = (s: Step): OwnerLive => ownerLive.get(`${s.owner.scope}\u0000${s.owner.name}`)!;
  const reports = new Set(plan.steps.filter((s) => s.action === 'report').map((s) => s.id));
  const entries = new Map<string, Entry>();
  for (const step of plan.steps) {
    if (step.action !== 'report') entries.set(step.id, { step, status: 'pending', attempts: 0 });
  }
  // irreversible steps and everything after them wait for --allow-irreversible (steps are ordered)
  if (!opts.allowIrreversible) {
    for (const e of entries.values()) {
      const blocked = e.step.dependsOn.some((d) => entries.get(d)?.status === 'skipped');
      if (e.step.irreversible || blocked) e.status = 'skipped';
    }
  }
  const total = [...entries.values()].filter((e) => e.status === 'pending').length;
  let progressed = 0;
  const progress = (n: number) => {
    progressed = Math.min(total, progressed + n);
    opts.onProgress?.(progressed, total);
  };
  const resolved: Step[] = [];
  /**
   * (owner, kind) groups whose every run settled its live value from the API's answers (see
   * ApplyContext.settled): the read-back re-plans them without reading. One run that did not
   * settle (or an unknown outcome) puts the group in `unsettled` for good: it is read back.
   */
  const settled = new Set<string>();
  const unsettled = new Set<string>();
  let stopping = false;
  const interrupted = () => opts.signal?.aborted === true;
  const inflight = new Map<string, Promise<void>>();
  journal.write({ event: 'run-started', steps: total });

  const depState = (id: string): 'done' | 'wait' | 'blocked' => {
    if (reports.has(id)) return 'blocked';
    const e = entries.get(id);
    if (!e) return 'done';
    if (e.status === 'done') return 'done';
    return e.status === 'pending' || e.status === 'running' ? 'wait' : 'blocked';
  };

  const finish = (e: Entry, status: Status, error?: string) => {
    e.status = status;
    e.error = error;
    const event = status === 'done' ? 'step-done' : status === 'failed' ? 'step-failed' : `step-${status}`;
    journal.write({ event, id: e.step.id, address: e.step.address, action: e.step.action, error });
    if (status === 'failed') stopping = true;
  };

  async function resolveUnknown(kind: RuntimeKind, owner: OwnerLive, unknown: Entry[]): Promise<void> {
    for (const e of unknown) journal.write({ event: 'step-unknown', id: e.step.id, error: e.error });
    try {
      await readOwner(owner, opts.kinds, opts.client, opts.auth, new Set([kind.name]));
    } catch (err) {
      for (const e of unknown) finish(e, 'failed', `outcome unknown and the re-read failed: ${oneLine(err)}`);
      return;
    }
    const fresh = new Map(
      draftsToSteps(planOne(kind, owner, opts.desired), owner.owner, kind.name).map((s) => [s.id, s]),
    );
    const group = groupKey(unknown[0].step);
    const unknownSet = new Set(unknown);
    for (const e of entries.values()) {
      if (groupKey(e.step) !== group || (e.status !== 'pending' && !unknownSet.has(e))) continue;
      const again = fresh.get(e.step.id);
      if (!again) {
        // the re-read shows it done (even on the last attempt: the write did happen)
        finish(e, 'done');
        resolved.push(e.step);
        journal.write({ event: 'step-resolved', id: e.step.id, note: 'a re-read shows it done' });
        progress(1);
      } else if (unknownSet.has(e) && e.attempts >= MAX_UNKNOWN_ATTEMPTS) {
        finish(
          e,
          'failed',
          `${e.error ?? 'outcome unknown'} (still unknown after ${e.attempts} attempts, each followed by a re-read)`,
        );
      } else {
        Object.assign(e.step, { data: again.data, before: again.before, after: again.after });
        e.status = 'pending';
        if (unknownSet.has(e)) journal.write({ event: 'step-retry', id: e.step.id, attempt: e.attempts + 1 });
      }
    }
  }

  async function runGroup(kind: RuntimeKind, group: Entry[]): Promise<void> {
    const o = ownerOf(group[0].step);
    for (const e of group) {
      e.status = 'running';
      e.attempts++;
      journal.write({ event: 'step-started', id: e.step.id, address: e.step.address, action: e.step.action });
    }
    let results: StepResult[];
    if (!o.owner.id && !kind.runtime.ownerKind) {
      results = group.map((e) => ({
        id: e.step.id,
        status: 'not-run',
        error: `${o.owner.name} does not exist`,
      }));
    } else {
      const before = progressed;
      let settledLive: { value: unknown } | undefined;
      try {
        results = await kind.runtime.apply(
          group.map((e) => e.step),
          {
            client: writer,
            owner: { ...o.owner, id: o.owner.id ?? '' },
            live: o.live.get(kind.name),
            settled: (value) => void (settledLive = { value }),
            progress,
            log: (line) => opts.log?.(redact(line)),
          },
        );
      } catch (err) {
        // a write refused as already true (another runner got there first) is re-read like an unknown one
        const e = err as { outcomeUnknown?: boolean; alreadyTrue?: boolean };
        const unknown = e.outcomeUnknown === true || e.alreadyTrue === true;
        results = group.map((e) => ({
          id: e.step.id,
          status: unknown ? 'unknown' : 'failed',
          error: oneLine(err),
        }));
      }
      const doneHere = results.filter((r) => r.status === 'done').length;
      if (progressed - before < doneHere) progress(doneHere - (progressed - before));
      // the live value the kind settled holds only when every step of the group is done
      if (settledLive && doneHere === group.length) {
        o.live.set(kind.name, settledLive.value);
        if (!unsettled.has(groupKey(group[0].step))) settled.add(groupKey(group[0].step));
      } else unsettled.add(groupKey(group[0].step));
    }
    const byId = new Map(results.map((r) => [r.id, r]));
    const unknown: Entry[] = [];
    // a kind stops its group at the first write whose outcome is unknown; the steps it did not
    // start then go back to pending, to be re-planned with the unknown ones (not given up on)
    const anyUnknown = results.some((r) => r.status === 'unknown');
    for (const e of group) {
      const r = byId.get(e.step.id) ?? {
        id: e.step.id,
        status: 'failed',
        error: 'the kind returned no result',
      };
      if (r.ownerId) {
        o.owner.id = r.ownerId;
        o.owner.info = r.ownerInfo;
      }
      if (r.status === 'unknown') {
        e.error = r.error ? redact(r.error) : undefined;
        unknown.push(e);
      } else if (anyUnknown && r.status === 'not-run') {
        e.status = 'pending';
        e.attempts--;
        journal.write({
          event: 'step-requeued',
          id: e.step.id,
          note: 'not started after an unknown outcome',
        });
      } else if (r.status === 'failed' && r.error?.includes(NOT_STARTED)) {
        finish(e, 'not-run', NOT_STARTED);
      } else finish(e, r.status, r.error ? redact(r.error) : undefined);
    }
    if (unknown.length > 0) await resolveUnknown(kind, o, unknown);
  }

  const launchReady = () => {
    if (stopping || interrupted()) return;
    const groups = new Map<string, Entry[]>();
    for (const e of entries.values()) {
      if (e.status !== 'pending') continue;
      const deps = e.step.dependsOn.map(depState);
      if (deps.includes('blocked')) {
        finish(e, 'not-run', 'a step it depends on did not complete');
        continue;
      }
      if (deps.includes('wait')) continue;
      const k = groupKey(e.step);
      if (inflight.has(k)) continue;
      let g = groups.get(k);
      if (!g) groups.set(k, (g = []));
      g.push(e);
    }
    for (const [k, g] of groups) {
      if (inflight.size >= parallelism) break;
      const kind = kindByName.get(g[0].step.kind)!;
      const p = runGroup(kind, g).finally(() => inflight.delete(k));
      inflight.set(k, p);
    }
  };

  for (;;) {
    launchReady();
    if (inflight.size === 0) break;
    await Promise.race(inflight.values());
  }
  for (const e of entries.values()) if (e.status === 'pending') finish(e, 'not-run');

  const list = (s: Status) => [...entries.values()].filter((e) => e.status === s);
  const expected = withPrerequisites(
    [...list('skipped'), ...list('not-run')].map((e) => e.step),
    (id) => entries.get(id)?.step,
  );
  const readBack =
    opts.readBack !== false && list('failed').length === 0
      ? await readBackPlan(
          list('done').map((e) => e.step),
          expected,
          opts,
          ownerOf,
          (k) => settled.has(k) && !unsettled.has(k),
        )
      : [];
  const report: ApplyReport = {
    done: list('done').map((e) => e.step),
    failed: list('failed').map((e) => ({ step: e.step, error: e.error ?? 'failed' })),
    notRun: list('not-run').map((e) => e.step),
    skipped: list('skipped').map((e) => e.step),
    resolved,
    readBack,
    ok: false,
    interrupted: interrupted(),
  };
  report.ok =
    !report.interrupted && report.failed.length === 0 && report.notRun.length === 0 && readBack.length === 0;
  journal.write({
    event: report.interrupted ? 'run-interrupted' : 'run-finished',
    done: report.done.length,
    failed: report.failed.length,
    notRun: report.notRun.length,
    skipped: report.skipped.length,
    readBackErrors: readBack.length,
  });
  return report;
}
