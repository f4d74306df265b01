/**
 * Live values written into a desired-state file must read back as the same text. The loader
 * (src/config/env.ts) resolves `${env:NAME}` in every string value and reads `$${env:...}` as the
 * literal `${env:...}`, so a live value holding `${env:HOME}` would come back as the exporting
 * user's home directory, and `apply` would write that back live.
 *
 * The loader scans with `\$(\$?)\{env:([^}]*)\}`: a reference runs from `${env:` to the first `}`
 * after it, whatever lies between. The escape therefore adds one `$` before each such run (found the
 * same way), not before each `${env:`: `${env:a ${env:b}` is one run, and the loader reads
 * `$${env:a ${env:b}` back as exactly that text.
 *
 * One spelling has no escape: a `${env:` with no `}` after it (and no `$` before it) is refused by
 * the loader as an unclosed reference. Such a value is "unspellable"; the writer leaves it as it is
 * (so loading the file fails loudly instead of quietly changing the value) and callers say so.
 */
import type { ExportPath } from './types.js';

const RUN = /\$\{env:[^}]*\}/g;
/** the loader's own test for an unclosed reference (src/config/env.ts) */
const UNCLOSED = /(^|[^$])\$\{env:[^}]*$/;

/** The file spelling of a literal live text. */
export function escapeEnv(text: string): string {
  return text.includes('{env:') ? text.replace(RUN, '$$$&') : text;
}

/** Whether the file can spell `text` at all (see above). */
export function spellable(text: string): boolean {
  return !text.includes('{env:') || !UNCLOSED.test(escapeEnv(text));
}

/**
 * A glob (an ignore pattern of a kind) that matches `text` and is spellable: `text` itself when it is,
 * else with `?` (any one character) for the `$` of each `${env:`, leaving nothing to refuse.
 */
export function spellableGlob(text: string): string {
  return spellable(text) ? text : text.replace(/\$\{env:/g, '?{env:');
}

/**
 * The path of the first string inside `value` the file cannot spell, or undefined; the objects in
 * `skip` are known to hold none and are not looked through. The walk builds no paths on the way (a
 * 10,000-record zone has some 60,000 strings); the path is made on the way back from a find.
 */
export function firstUnspellable(value: unknown, skip?: ReadonlySet<object>): ExportPath | undefined {
  const found = unspellableIn(value, skip);
  return found && found.reverse();
}

/** The path to the first unspellable string, last step first; undefined when there is none. */
function unspellableIn(value: unknown, skip: ReadonlySet<object> | undefined): ExportPath | undefined {
  if (typeof value === 'string') return spellable(value) ? undefined : [];
  if (!value || typeof value !== 'object' || skip?.has(value)) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unspellableIn(value[i], skip);
      if (found) return (found.push(i), found);
    }
    return undefined;
  }
  // for...in allocates no key list; the values are plain data (JSON, or built by the exporters)
  for (const k in value) {
    const found = unspellableIn((value as Record<string, unknown>)[k], skip);
    if (found) return (found.push(k), found);
  }
  return undefined;
}

/** The verbatim paths as a tree of steps: the walks follow it and allocate nothing else. */
export interface Steps {
  here: boolean;
  next: Map<string | number, Steps>;
}

export function stepsOf(paths: readonly ExportPath[]): Steps {
  const root: Steps = { here: false, next: new Map() };
  for (const path of paths) {
    let node = root;
    for (const step of path) {
      let child = node.next.get(step);
      if (!child) node.next.set(step, (child = { here: false, next: new Map() }));
      node = child;
    }
    node.here = true;
  }
  return root;
}

/**
 * `value` with every string escaped, except those at `verbatim` paths (already in file syntax:
 * an exporter's `${env:NAME}` references with their literal parts escaped by it). Map keys are
 * never resolved by the loader, so they stay. Copy on write: a 10,000-record zone with no `{env:`
 * in it is returned as it is.
 */
export function escapeStrings(value: unknown, verbatim: readonly ExportPath[]): unknown {
  const walk = (node: unknown, steps: Steps | undefined): unknown => {
    if (typeof node === 'string') {
      if (steps?.here || !node.includes('{env:')) return node;
      return escapeEnv(node);
    }
    if (!node || typeof node !== 'object') return node;
    if (Array.isArray(node)) {
      let list: unknown[] | undefined;
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        const next = walk(item, steps?.next.get(i));
        if (next !== item) (list ??= [...node])[i] = next;
      }
      return list ?? node;
    }
    let map: Record<string, unknown> | undefined;
    for (const k in node) {
      const v = (node as Record<string, unknown>)[k];
      const next = walk(v, steps?.next.get(k));
      if (next !== v) (map ??= { ...(node as Record<string, unknown>) })[k] = next;
    }
    return map ?? node;
  };
  return walk(value, verbatim.length > 0 ? stepsOf(verbatim) : undefined);
}
