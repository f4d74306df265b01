/**
 * The extension point of the reconciler: a kind of managed object (DNS records, Page Shield, ...).
 * The core never names a kind; each kind lives in its own folder under src/kinds/ and is registered
 * by one line in src/kinds/index.ts.
 *
 * A kind has two halves:
 * - the file half (key, scope, schema, validate): what the kind looks like in the desired-state
 *   file and its offline semantic checks. src/config/ composes the JSON Schema from every kind's
 *   fragment and runs every kind's `validate` before any request is made.
 * - the runtime half (runtime): reading live state, pure planning, and applying steps. Its shape is
 *   owned by src/core/ (see KindRuntime below).
 * - the export half (export): what `zoneplan export` writes for the live state `runtime.read`
 *   returned, and optionally a faster check of that value (see KindExport below).
 */
import type { JsonSchema } from '../config/json-schema.js';
import type { ExportContext, ExportProblem, ExportResult, VariableNamer } from './export/types.js';
import type { KindRuntime, OwnerRef, ReadContext, Step } from './runtime.js';

export type { KindRuntime } from './runtime.js';

export type Scope = 'zone' | 'account';

/** Offline checks report problems by dotted path; src/config/ maps paths to file:line:col. */
export interface ValidateContext {
  /** dotted path of the kind's value in the file, e.g. `zones[0].dns` */
  path: string;
  /** the zone or account entry that holds the value, as written in the file */
  owner: Record<string, unknown>;
  /** the whole document, for rules that look across entries */
  document: Record<string, unknown>;
  error(path: string, message: string): void;
  warn(path: string, message: string): void;
  /**
   * Whether the schema reported a problem at or under `path` (full, or relative to the kind's value
   * like the paths of `error`). Only kinds with `validatesPartly` are run on such values, and they
   * must skip the parts for which this is true.
   */
  schemaFailed(path: string): boolean;
}

export interface KindDefinition {
  /** key of the kind's value under a zone or an account entry, e.g. `dns`, `page_shield`, `load_balancing` */
  key: string;
  scope: Scope;
  /** JSON Schema 2020-12 fragment for the value under `key` (absent for kinds with no key of their own) */
  schema?: JsonSchema;
  /**
   * The fragment editors get in the shipped schema file, when it should say more than `schema`:
   * shapes that `validate` checks itself with better messages (the Logpush filter grammar) can be
   * spelt out here for completion and as-you-type errors without changing what zoneplan reports.
   */
  editorSchema?: JsonSchema;
  /**
   * The value as the JSON Schema check is to see it: entries that the kind's own tests certainly
   * find valid under `schema` may be replaced by a small stand-in the schema accepts, so a list of
   * 10,000 plain entries is not checked key by key by the schema and again by `validate`. The
   * schema's problems must be exactly those it finds in the value itself (the places of the others
   * stay as they are). Returns the value itself when it has nothing to replace; never changes it.
   */
  schemaView?(value: unknown, owner: Record<string, unknown>): unknown;
  /** offline semantic checks of the value under `key`; runs only when the schema passed */
  validate?(value: unknown, ctx: ValidateContext): void;
  /**
   * `validate` also runs when the schema refused parts of the value, and skips those parts itself
   * (ctx.schemaFailed): the user then sees every problem of a long list at once, not the schema's
   * first and the rest after a fix. Kinds without it are checked only once their value is well-formed.
   */
  validatesPartly?: boolean;
  /** the reconciler's half (read live state, plan purely, apply); see src/core/runtime.ts and docs/adding-a-kind.md */
  runtime?: KindRuntime<any, any>;
  /**
   * Turns the kind's checked file value into the typed value its runtime plans with (e.g. the dns
   * kind gives each record its dotted path and loads `ttl: auto` as 1). `path` is the value's dotted
   * path (`zones[0].dns`). Without it the value is passed on as written.
   */
  build?(value: Record<string, unknown>, path: string): unknown;
  /**
   * How the kind's values of one zone (or account) declared in several files become one
   * (docs/file-format.md, "Many files"). Without it the whole value is a setting: declared in one
   * file only.
   */
  merge?: KindMerge;
  /** what `zoneplan validate` counts in its summary line (`N zones, M records`); 0 when absent */
  countRecords?(value: unknown): number;
  /** the export half; a kind without it is not exported (needs a runtime and a key of its own) */
  export?: KindExport;
  /**
   * `zoneplan export --as fixtures`: the kind's share of a fixtures file for `zoneplan serve`, from
   * what `runtime.read` returned for one owner. A kind without it is left out of such an export.
   */
  fixtures?: KindFixtures;
}

/**
 * The lists of a kind's value that several files unite. Every other key of the value is a setting,
 * declared in one file only. Two items of one list with the same identity are one item: accepted
 * once when they are equal (their `path` aside), an error naming both places when not.
 *
 * The kind's `validate` then judges the merged value once (not each file's part): it gets the
 * built value (`build`) with the `path` of each listed item removed, so `build` must keep the
 * value one that `validate` accepts as written (as giving paths and loading `ttl: auto` as 1 do).
 */
export interface KindMerge {
  /**
   * list key -> the identity of an item, as the kind's runtime pairs items with live objects (so
   * two items the planner would see as one object are one here). `item` is built (`build`); `owner`
   * is the merged zone or account entry (its `name` or `id`).
   */
  lists: Record<string, (item: Record<string, unknown>, owner: Record<string, unknown>) => string>;
}

/**
 * How a kind's live state becomes fixtures (docs/fixtures.md). Pure: no I/O, no clock. `owner` is
 * the owner as read (for zones, `info` is the zone object the API returned).
 */
export interface KindFixtures {
  /**
   * Fields merged into the owner's fixtures entry (`zones[]` or `accounts[]`), e.g. `records`,
   * and accounts the owner belongs to (merged by id into the top `accounts` list), and entries of
   * other top-level sections of the document (`sections`, e.g. the waf kind's `managed_rulesets`:
   * what the target serves every owner alike), merged by `id` (the first owner's entry wins).
   */
  entry(
    live: unknown,
    owner: { scope: Scope; name: string; id: string; info?: Record<string, unknown> },
    ctx?: FixturesContext,
  ): {
    fields?: Record<string, unknown>;
    accounts?: Record<string, unknown>[];
    sections?: Record<string, Record<string, unknown>[]>;
  };
  /**
   * Reads what `entry` needs beyond what `runtime.read` returned (Page Shield's detected
   * connections and cookies), and returns the value `entry` gets in place of `live`. GET requests
   * only. Called by `export --as fixtures` (`for: 'file'`) and `plan --rehearse` (`for: 'sandbox'`:
   * only what planning and applying in the sandbox need; a kind may return `live` as it is), never
   * by a plain plan, so planning pays nothing for it.
   */
  read?(live: unknown, ctx: ReadContext & { for: 'file' | 'sandbox' }): Promise<unknown>;
  /**
   * `plan --rehearse` only, after `read`: asks the real target what the sandbox needs to judge the
   * plan's `steps` (this kind's, this owner's) as the target would, when that is something the
   * target holds but never lists (Logpush: whether an ownership challenge it issued is valid).
   * Returns the value `entry` gets in place of `live` (in memory only: a file never holds it). May
   * send only requests that change nothing: GETs and POSTs to a `.../validate` endpoint (the
   * client refuses any other); called only when the owner has steps of the kind.
   */
  prove?(live: unknown, steps: Step[], ctx: ReadContext): Promise<unknown>;
}

export interface FixturesContext {
  /**
   * Set when the document is written to a file (`export --as fixtures`): every secret is written
   * as a `${env:NAME}` reference named through it. Absent when the document stays in memory
   * (`plan --rehearse`): secrets are written as they are, since they never reach disk or output.
   */
  variables?: VariableNamer;
}

/**
 * How a kind is exported (`zoneplan export`). Pure: no I/O, no clock, no process.env.
 */
export interface KindExport {
  /**
   * The value the file holds under the kind's key, from exactly what `runtime.read` returned for
   * one owner, normalised so that `plan` of the exported file against that live state is empty.
   */
  value(live: unknown, ctx: ExportContext): ExportResult;
  /**
   * `export --unmanaged-by FILES`: the part of `live` (what `runtime.read` returned for one owner)
   * that `desired` (the kind's built value of that owner in those files) does not manage, where
   * "manages" is what the kind's planner does: a live object is managed when the planner pairs it
   * with a desired object, a setting when the file sets it. `live` is undefined when nothing is
   * left; `managed` counts the live objects left out, for the summary. `value` then gets that part
   * with `ctx.part` set. A kind without it is left out whole when the files set its key.
   */
  unmanaged?(live: unknown, desired: unknown, owner: OwnerRef): { live?: unknown; managed: number };
  /**
   * An optional faster check of an exported value with the verdict of `zoneplan validate` (same
   * problems, same paths and messages, order aside; paths relative to the value). `owner` is the
   * owner entry without the kind's key, already known to be valid; `full` is the complete check
   * (composed schema and every semantic rule). Returns undefined when it cannot be sure: the full
   * check then decides. Used for large values (a zone's 10,000 records).
   */
  check?(
    owner: Record<string, unknown>,
    value: unknown,
    full: (value: unknown) => ExportProblem[],
  ): ExportProblem[] | undefined;
}
