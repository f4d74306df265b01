/**
 * The runtime half of a kind: how the reconciler reads, plans and applies one kind of object.
 * The guide with a worked example is docs/adding-a-kind.md. The contract, in one paragraph:
 *
 * For every owner (a zone or an account of the desired-state file) whose entry sets the kind's key,
 * the engine calls `read` once (I/O through `ctx.client` only), then `plan` (pure, no I/O, no
 * clock, no randomness: same input, same drafts), then, at apply time, `apply` with groups of
 * ready steps of that kind and owner. There is no separate refresh call: a saved plan's staleness
 * check, the resolution of a write whose outcome is unknown, and the read-back after apply are all
 * done by the engine calling `read` and `plan` again and comparing steps by id and fingerprint. So
 * `plan` must give the same `key` to the same change every time it sees the same live state.
 *
 * Changes to this interface are additive only (other kinds are built on it).
 */
import type { ApiResponse, Auth, RequestOptions } from '../client/types.js';
import type { DesiredState } from '../config/model.js';
import type { Scope } from './kind.js';

/** The part of the API client that kinds use; src/client's ApiClient satisfies it. */
export interface Requester {
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
}

/** The zone or account that a kind's objects belong to. */
export interface OwnerRef {
  scope: Scope;
  /** zone name (lower case) or account id, as in the file */
  name: string;
  /** zone id or account id; absent at plan time for a zone that the plan creates */
  id?: string;
  /** the owner's live object (for zones: the zone as the API returns it, with `plan`), when it exists */
  info?: Record<string, unknown>;
}

export interface ReadContext {
  client: Requester;
  /** id is always set here: read is never called for an owner that does not exist yet */
  owner: OwnerRef & { id: string };
  auth?: Auth;
  /**
   * The kind's desired value for this owner (what `plan` will get), or undefined for a caller that
   * wants everything (export, fixtures). `read` may leave out the parts of the live state this value
   * does not manage, since the API's budget counts requests (Page Shield reads its policies only
   * when the file names `policies`; the waf kind reads the managed rulesets catalogue only for a
   * file that names `managed_rulesets`), as long as `plan` of this value gives the same steps as
   * with everything read; it may also prepare work while a response is on the wire (the dns kind
   * normalises the file's records then).
   */
  desired?: unknown;
}

export interface ReadManyContext {
  client: Requester;
  /** the owners of the kind's scope that the run reads, with their entries in the file */
  owners: { owner: OwnerRef; entry: Record<string, unknown> }[];
  auth?: Auth;
}

export interface PlanContext {
  owner: OwnerRef;
  /** the whole desired state, for kinds that look across entries */
  desired: DesiredState;
  /** the owner entry of the file (DesiredZone or DesiredAccount) */
  entry: Record<string, unknown>;
  /**
   * A note for the user that does not stop the plan (a `renamed_from` that matches nothing live):
   * printed on stderr as a warning. Absent in callers that do not show warnings.
   */
  warn?(message: string): void;
}

/** An update that gives the live object a new identity (`renamed_from`): the same id, a new name. */
export interface Rename {
  /** the identity the live object has now, as the file's `renamed_from` names it */
  from: string;
  /** the identity it will have */
  to: string;
}

export type Action = 'create' | 'update' | 'delete' | 'migrate' | 'report';

/** One field-level difference, on normalised values; `path` is dotted (`ttl`, `data.port`, `tags`). */
export interface FieldChange {
  path: string;
  before: unknown;
  after: unknown;
}

/** What a kind's `plan` returns; the engine turns drafts into Steps (ids, fingerprints, order). */
export interface StepDraft {
  /**
   * Identity of the change within (owner, kind); stable across re-plans of the same live state.
   * Use the live object's server id for updates and deletes, the object's identity for creates.
   */
  key: string;
  action: Action;
  /** human address, e.g. `www.example.com CNAME`; the engine prefixes the owner and kind */
  address: string;
  /** normalised live object (null for create); its sha256 is the step's fingerprint */
  before: unknown;
  /** normalised desired object (null for delete) */
  after: unknown;
  /** field-level changes; the engine computes them from before/after with deep-diff when absent */
  changes?: FieldChange[];
  irreversible?: boolean;
  /** keys of other drafts of the same kind and owner, or full step ids (`owner/kind/key`) */
  dependsOn?: string[];
  /**
   * The step runs last in its owner: the engine makes it depend on every other non-report step of
   * the same owner (of every kind), except other `runsLast` steps, the owner kind's own steps and
   * steps that depend on it. A `runsLast` step that depends on another `runsLast` step of its owner
   * gets no extra dependencies (it already runs after the first one). Used by the WAF migration.
   */
  runsLast?: boolean;
  /** server id of the live object the step changes */
  liveId?: string;
  /** set on an update that renames the live object in place; renderers show it as `rename` */
  rename?: Rename;
  /** one line for humans, e.g. `ttl 300 -> auto`; defaults to the action and address */
  summary?: string;
  /** for action `report`: why nothing is planned (e.g. a blocker); reports never apply */
  reason?: string;
  /** kind-private data for `apply` (request bodies, ...); never printed, never saved in a plan file */
  data?: unknown;
  /**
   * The dotted path of the desired entry the step comes from (`zones[0].dns.records[3]`, or the
   * kind's value, `zones[0].waf`, for a step made of it as a whole); with several files, the path
   * in the merged document. A plan masks a `${env:NAME}` value only in the steps of the entries
   * that held the reference. Without it (a purge delete), every env value is masked in the step.
   */
  source?: string;
}

/** How reports name a step to the user: `example.com dns www CNAME example.net` (apply, rehearsal, saved plans). */
export function stepName(s: { owner: { name: string }; kind: string; address: string }): string {
  // an address that starts with its kind (`zone example.com`) is not given the kind twice
  const kind = s.address.startsWith(`${s.kind} `) ? '' : `${s.kind} `;
  return `${s.owner.name} ${kind}${s.address}`;
}

/** A planned step, as the engine, the plan file and the renderers see it. */
export interface Step {
  /** `owner/kind/key`, e.g. `example.com/dns/7f3a...` */
  id: string;
  kind: string;
  owner: OwnerRef;
  key: string;
  action: Action;
  address: string;
  before: unknown;
  after: unknown;
  changes: FieldChange[];
  irreversible: boolean;
  dependsOn: string[];
  /** set when the draft had `runsLast: true` */
  runsLast?: boolean;
  /**
   * The part of `dependsOn` the engine added only for order (after the owner's creation, before
   * its deletion, `runsLast`), not declared by the kind: the read-back does not count these as
   * prerequisites of a skipped step. Not saved in a plan file.
   */
  orderOnly?: string[];
  liveId?: string;
  /** see StepDraft.rename */
  rename?: Rename;
  summary: string;
  reason?: string;
  /** sha256 of the canonical JSON of `before` (of null for creates) */
  fingerprint: string;
  data?: unknown;
  /** see StepDraft.source; not saved in a plan file */
  source?: string;
}

export type StepStatus = 'done' | 'failed' | 'unknown' | 'not-run';

export interface StepResult {
  id: string;
  status: StepStatus;
  /** one line, for the report and the journal (secrets are redacted by the engine) */
  error?: string;
  /** for a step that creates the owner (a zone): its new id and live object */
  ownerId?: string;
  ownerInfo?: Record<string, unknown>;
}

export interface ApplyContext {
  client: Requester;
  /** id is resolved at apply time (a zone created earlier in the same run has it by now) */
  owner: OwnerRef & { id: string };
  /**
   * The kind's live value of this owner as the run last knew it (read, or settled by an earlier
   * group of the same kind and owner); undefined when the engine has none (a saved plan's re-check
   * has one; a zone created in this run has none).
   */
  live?: unknown;
  /**
   * Reports the live value after this group's writes, when the API's answers tell it whole (the DNS
   * batch endpoint answers with every record it deleted, patched and created): the read-back after
   * apply then re-plans from this value instead of reading the owner again. Call it only after every
   * step of the group is done; a group that does not call it is read back with `read`.
   */
  settled?(live: unknown): void;
  /** report progress: n more steps finished */
  progress(n: number): void;
  /** a note for --verbose */
  log(line: string): void;
}

/** A reason that needs `--force`, found by a kind's safety check. */
export interface Guard {
  owner: string;
  kind: string;
  message: string;
}

export interface KindRuntime<Desired = unknown, Live = unknown> {
  /** Areas of the API that accept only a token (Page Shield, WAF, rulesets, load balancers). */
  requiresToken?: boolean;
  /**
   * Set on the one kind whose objects are the owners themselves (zones). The engine reads it first
   * (its ReadContext.owner.id is '' then), learns the owner's id from `ownerIdOf`, makes every other
   * kind's steps of that owner depend on its create steps, and its delete steps on everything else.
   */
  ownerKind?: {
    ownerIdOf(live: Live): string | undefined;
    ownerInfoOf?(live: Live): Record<string, unknown> | undefined;
    /**
     * Finds many owners at once (zones through the paged zone list) when that costs fewer requests
     * than one `read` each; the kind decides, and returns an empty map when it does not pay. Returns
     * the live value of each owner it found, by owner name. The engine calls `read` for every owner
     * not in the map, so an owner it did not find reads (and fails, and plans) as without it.
     */
    readMany?(ctx: ReadManyContext): Promise<Map<string, Live>>;
    /**
     * The requests `readMany` makes to find `owners` owners when the list holds just them (the
     * floor the bench and the run's estimate count; 0 when it would not use the list): the zone
     * list's pages of 50. Without it, one `read` per owner is counted.
     */
    readManyRequests?(owners: number): number;
  };
  /** Live state of this kind for one owner; all I/O through ctx.client. */
  read(ctx: ReadContext): Promise<Live>;
  /**
   * The requests `read` makes for this desired value when every list fits one page (default 1):
   * the floor of a run, computed from the files (the estimate a long run prints at its start, and
   * the bench's floor column).
   */
  readRequests?(desired: Desired | undefined): number;
  /**
   * Pure. `desired` is the owner entry's value under the kind's key (for the owner kind: the owner
   * entry itself); `live` is undefined when the owner does not exist yet.
   */
  plan(desired: Desired | undefined, live: Live | undefined, ctx: PlanContext): StepDraft[];
  /**
   * Applies a group of ready steps of this kind and owner (their dependencies are done) and returns
   * one result per step. Throwing marks the whole group failed (or unknown if the error has
   * `outcomeUnknown: true`); prefer per-step results. Never repeat a create whose outcome is unknown:
   * return `unknown` and the engine re-reads and re-plans.
   */
  apply(steps: Step[], ctx: ApplyContext): Promise<StepResult[]>;
  /** Reasons that need --force (e.g. mass deletes); the engine applies the generic share rule too. */
  guards?(desired: Desired | undefined, live: Live | undefined, steps: StepDraft[]): string[];
  /** What the live objects are called in messages, plural (default `objects`), e.g. `records`. */
  noun?: string;
  /** Number of live objects, for the generic share rule (>30% updated/deleted of 10+ needs --force). */
  liveCount?(live: Live | undefined): number;
  /** API calls `apply` will make for these steps (default: one per step). */
  estimateCalls?(steps: Step[], owner: OwnerRef): number;
}
