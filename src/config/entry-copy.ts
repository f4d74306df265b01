/**
 * Copies of checked entries for the typed desired state (./build.ts and the kinds' `build`): every
 * listed entry learns its dotted path, so a kind can say where in the file a problem is.
 */
import { setOwn } from './own-key.js';
import { childPath } from './paths.js';

import type { Entry } from '../rules/shared/values.js';

/**
 * A shallow copy of a checked entry. Not `{ ...entry }`: V8 gives each object spread from one with
 * out-of-object properties (a YAML mapping of 5 keys or more) a hidden class of its own, and a
 * file of 10,000 records in 10,000 shapes makes every later read of a record field megamorphic:
 * planning such a zone took twice as long as planning the same records copied key by key.
 */
export function copyOf<T>(entry: Entry): T {
  const out: Entry = {};
  for (const key of Object.keys(entry)) setOwn(out, key, entry[key]);
  return out as T;
}

/** A copy of a listed entry with its dotted path (`zones[0].dns.records[3]`) added last. */
export function withPath<T>(entry: Entry, path: string): T {
  const out = copyOf<Entry>(entry);
  out.path = path;
  return out as T;
}

/** Copies of a list's entries, each with its dotted path (`<path>[i]`). */
export function withPaths<T extends object>(list: T[], path: string): (T & { path: string })[] {
  return list.map((item, i) => withPath<T & { path: string }>(item as Entry, childPath(path, i)));
}
