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
 */
import type { JsonSchema } from '../config/json-schema.js';
import type { KindRuntime } from './runtime.js';

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
  /** offline semantic checks of the value under `key`; runs only when the schema passed */
  validate?(value: unknown, ctx: ValidateContext): void;
  /**
   * `validate` also runs when the schema refused parts of the value, and skips those parts itself
   * (ctx.schemaFailed): the user then sees every problem of a long list at once, not the schema's
   * first and the rest after a fix. Kinds without it are checked only once their value is well-formed.
   */
  validatesPartly?: boolean;
  /** the reconciler's half (read live state, plan purely, apply); see src/core/runtime.ts and KINDS.md */
  runtime?: KindRuntime<any, any>;
}
