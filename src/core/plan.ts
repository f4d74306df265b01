/**
 * The pure middle of the reconciler: `buildPlan(desired, live, kinds)` asks every registered kind
 * for its drafts, turns them into steps (ids, fingerprints, field changes, cross-kind dependencies),
 * orders them, and applies the safety rules. No I/O: reading is src/core/read.ts, applying is
 * src/core/apply.ts; this is what the unit tests drive with in-memory tables.
 */
import type { DesiredState } from '../config/model.js';
import { UserError } from '../errors.js';
import type { KindDefinition } from './kind.js';
import { fingerprint } from './canonical.js';
import { createdFields, fieldChanges } from './diff.js';
import { orderSteps } from './order.js';
import { PlanProblemsError, planProblem, type PlanProblem } from './plan-problems.js';
import type { Guard, KindRuntime, OwnerRef, Step, StepDraft } from './runtime.js';
import { safetyGuards } from './safety.js';

/** A kind with its runtime, and the name it has in step ids and output (`dns`, `zone`, ...). */
export interface RuntimeKind {
  name: string;
  def: KindDefinition;
  runtime: KindRuntime;
}

export function runtimeKinds(defs: KindDefinition[]): RuntimeKind[] {
  return defs
    .filter((d) => d.runtime)
    .map((def) => ({ name: def.key || def.scope, def, runtime: def.runtime as KindRuntime }));
}

/** Live state of one owner: its entry in the file and what each kind read. */
export interface OwnerLive {
  owner: OwnerRef;
  entry: Record<string, unknown>;
  /** kind name -> live value; absent when the kind was not read (owner missing or key not set) */
  live: Map<string, unknown>;
}

export interface LiveState {
  owners: OwnerLive[];
  /** the API requests reading this state took, when counted (readLive counts them) */
  requests?: number;
}

export interface Plan {
  steps: Step[];
  guards: Guard[];
  /** estimated API calls for apply */
  calls: number;
  /** API requests made to read the live state the plan comes from (absent when not counted) */
  reads?: number;
  owners: OwnerRef[];
  /** notes that do not stop the plan (PlanContext.warn), each naming its owner; absent when none */
  warnings?: string[];
}

/** The value a kind plans from: the owner entry itself for the owner kind, else entry[key]. */
export function desiredValueOf(kind: RuntimeKind, entry: Record<string, unknown>): unknown {
  return kind.runtime.ownerKind ? entry : entry[kind.def.key];
}

/** Whether a kind takes part for this owner (its key is set in the entry, or it is the owner kind). */
export function kindApplies(kind: RuntimeKind, o: OwnerLive): boolean {
  if (kind.def.scope !== o.owner.scope) return false;
  if (kind.runtime.ownerKind) return true;
  if (o.entry.delete === true) return false;
  return o.entry[kind.def.key] !== undefined;
}

export const stepId = (owner: OwnerRef, kind: string, key: string) => `${owner.name}/${kind}/${key}`;

/** Drafts of one (owner, kind) to steps; dependsOn keys of the same group become full ids. */
export function draftsToSteps(drafts: StepDraft[], owner: OwnerRef, kind: string): Step[] {
  const keys = new Set(drafts.map((d) => d.key));
  return drafts.map((d) => ({
    id: stepId(owner, kind, d.key),
    kind,
    owner,
    key: d.key,
    action: d.action,
    address: d.address,
    before: d.before ?? null,
    after: d.after ?? null,
    changes:
      d.changes ??
      (d.action === 'update'
        ? fieldChanges(d.before, d.after)
        : d.action === 'create'
          ? createdFields(d.after)
          : []),
    irreversible: d.irreversible === true,
    dependsOn: (d.dependsOn ?? []).map((k) => (keys.has(k) ? stepId(owner, kind, k) : k)),
    ...(d.runsLast === true ? { runsLast: true } : {}),
    liveId: d.liveId,
    ...(d.rename !== undefined ? { rename: d.rename } : {}),
    summary: d.summary ?? `${d.action} ${d.address}`,
    reason: d.reason,
    fingerprint: fingerprint(d.before),
    data: d.data,
    ...(d.source !== undefined ? { source: d.source } : {}),
  }));
}

/** Plans one (owner, kind): used by buildPlan and by apply's re-plan after an unknown outcome. */
export function planOne(
  kind: RuntimeKind,
  o: OwnerLive,
  desired: DesiredState,
  warn?: (message: string) => void,
): StepDraft[] {
  return kind.runtime.plan(desiredValueOf(kind, o.entry), o.live.get(kind.name), {
    owner: o.owner,
    desired,
    entry: o.entry,
    ...(warn ? { warn } : {}),
  });
}

const ACTION_RANK: Record<string, number> = { create: 0, update: 1, migrate: 2, delete: 3, report: 4 };

/**
 * Steps of one kind and owner in the waves apply runs them in: a step that depends on another of
 * the list waits for it, so a kind that writes many steps in one call (a DNS batch) makes one call
 * per wave at least (a CNAME created with its in-zone target: two batches).
 */
function waves(steps: Step[]): Step[][] {
  if (steps.every((s) => s.dependsOn.length === 0)) return steps.length ? [steps] : [];
  const byId = new Map(steps.map((s) => [s.id, s]));
  const depth = new Map<string, number>();
  const depthOf = (s: Step, seen: Set<string>): number => {
    const known = depth.get(s.id);
    if (known !== undefined) return known;
    seen.add(s.id); // a cycle (never planned) ends at the step met twice
    let d = 0;
    for (const id of s.dependsOn) {
      const dep = byId.get(id);
      if (dep && !seen.has(id)) d = Math.max(d, depthOf(dep, seen) + 1);
    }
    depth.set(s.id, d);
    return d;
  };
  const out: Step[][] = [];
  for (const s of steps) (out[depthOf(s, new Set())] ??= []).push(s);
  return out.filter(Boolean);
}

export function buildPlan(desired: DesiredState, live: LiveState, kinds: RuntimeKind[]): Plan {
  const steps: Step[] = [];
  const guards: Guard[] = [];
  const problems: PlanProblem[] = [];
  const warnings: string[] = [];
  let calls = 0;
  const kindIndex = new Map(kinds.map((k, i) => [k.name, i]));
  const ownerIndex = new Map(live.owners.map((o, i) => [o.owner.name + '\u0000' + o.owner.scope, i]));
  for (const o of live.owners) {
    const ownerSteps: { kind: RuntimeKind; steps: Step[] }[] = [];
    for (const kind of kinds) {
      if (!kindApplies(kind, o)) continue;
      let drafts: StepDraft[];
      try {
        drafts = planOne(kind, o, desired, (m) => warnings.push(ownedWarning(o.owner, kind.name, m)));
      } catch (err) {
        // a refusal: keep planning the others, so every refusal of the file is reported at once
        if (!(err instanceof UserError)) throw err;
        const path = typeof o.entry.path === 'string' ? o.entry.path : undefined;
        problems.push(planProblem(o.owner, kind.name, path, kind.def.key, desired, err));
        continue;
      }
      const ks = draftsToSteps(drafts, o.owner, kind.name);
      ownerSteps.push({ kind, steps: ks });
      const liveValue = o.live.get(kind.name);
      for (const message of safetyGuards(kind.runtime, desiredValueOf(kind, o.entry), liveValue, drafts)) {
        guards.push({ owner: o.owner.name, kind: kind.name, message });
      }
      const applied = ks.filter((s) => s.action !== 'report');
      for (const wave of waves(applied)) {
        calls += kind.runtime.estimateCalls ? kind.runtime.estimateCalls(wave, o.owner) : wave.length;
      }
    }
    // the owner kind's creates come before, and its deletes after, everything else of the owner
    const ownerKindSteps = ownerSteps.filter((g) => g.kind.runtime.ownerKind).flatMap((g) => g.steps);
    const otherSteps = ownerSteps.filter((g) => !g.kind.runtime.ownerKind).flatMap((g) => g.steps);
    for (const os of ownerKindSteps) {
      if (os.action === 'create') for (const s of otherSteps) addOrderEdges(s, [os.id]);
      if (os.action === 'delete')
        addOrderEdges(
          os,
          otherSteps.map((s) => s.id),
        );
    }
    addRunsLastEdges(otherSteps);
    steps.push(...ownerKindSteps, ...otherSteps);
  }
  if (problems.length > 0) throw new PlanProblemsError(problems);
  const rankOf = (s: Step) => [
    ownerIndex.get(s.owner.name + '\u0000' + s.owner.scope) ?? 0,
    kindIndex.get(s.kind) ?? 0,
  ];
  const ordered = orderSteps(steps, (a, b) => {
    const [ao, ak] = rankOf(a);
    const [bo, bk] = rankOf(b);
    if (ao !== bo) return ao - bo;
    if (ak !== bk) return ak - bk;
    if (a.address !== b.address) return a.address < b.address ? -1 : 1;
    const ar = ACTION_RANK[a.action] - ACTION_RANK[b.action];
    return ar !== 0 ? ar : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
  return {
    steps: ordered,
    guards,
    calls,
    ...(live.requests !== undefined ? { reads: live.requests } : {}),
    owners: live.owners.map((o) => o.owner),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** a `file:line:col: ` at the start of a message */
const LOCATED_START = /^\S+:\d+:\d+: /;

/**
 * A kind's warning as the user reads it: where in the file first (as validation's warnings), then
 * the owner and the kind, unless the kind named the owner itself.
 */
function ownedWarning(owner: OwnerRef, kind: string, message: string): string {
  const named = `${owner.scope} ${owner.name}`;
  if (message.includes(named)) return message;
  const at = LOCATED_START.exec(message)?.[0] ?? '';
  return `${at}${named}: ${kind}: ${message.slice(at.length)}`;
}

/**
 * Adds dependencies the engine needs for order only (not declared by the kind) to `dependsOn`, and
 * records them in `orderOnly` so that the read-back can tell them from a kind's prerequisites.
 */
function addOrderEdges(s: Step, ids: string[]): void {
  if (ids.length === 0) return;
  const declared = new Set(s.dependsOn);
  const added = ids.filter((id) => id !== s.id && !declared.has(id));
  if (added.length === 0) return;
  s.dependsOn.push(...added);
  (s.orderOnly ??= []).push(...added);
}

/**
 * `runsLast` (StepDraft): within one owner's steps (the owner kind's own steps excluded), a
 * `runsLast` step depends on every other non-report step, except other `runsLast` steps and the
 * steps that depend (directly or not) on one of them, which would make a cycle. A `runsLast` step
 * that already depends on another `runsLast` step of the owner runs after that one and gets nothing.
 */
function addRunsLastEdges(steps: Step[]): void {
  const last = steps.filter((s) => s.runsLast === true && s.action !== 'report');
  if (last.length === 0) return;
  const lastIds = new Set(last.map((s) => s.id));
  const dependants = new Map<string, string[]>();
  for (const s of steps) {
    for (const d of s.dependsOn) {
      const list = dependants.get(d);
      if (list) list.push(s.id);
      else dependants.set(d, [s.id]);
    }
  }
  // the runsLast steps and everything after them
  const after = new Set(lastIds);
  const queue = [...lastIds];
  while (queue.length > 0) {
    for (const id of dependants.get(queue.pop()!) ?? []) {
      if (!after.has(id)) {
        after.add(id);
        queue.push(id);
      }
    }
  }
  const before = steps.filter((s) => s.action !== 'report' && !after.has(s.id)).map((s) => s.id);
  for (const s of last) {
    if (s.dependsOn.some((d) => lastIds.has(d))) continue;
    addOrderEdges(s, before);
  }
}

/** Counts by action, for summaries. */
export function countActions(
  steps: Step[],
): Record<'create' | 'update' | 'delete' | 'migrate' | 'report', number> {
  const c = { create: 0, update: 0, delete: 0, migrate: 0, report: 0 };
  for (const s of steps) c[s.action]++;
  return c;
}
