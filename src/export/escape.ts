/**
 * Live values written into a desired-state file must read back as the same text. The loader
 * (src/config/env.ts) resolves `${env:NAME}` in every string value and reads `$${env:...}` as the
 * literal `${env:...}`, so a live TXT record holding `${env:HOME}` would come back as the
 * exporting user's home directory, and `apply` would write that into DNS.
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
 * A glob (a `dns.ignore` pattern) that matches `text` and is spellable: `text` itself when it is,
 * else with `?` (any one character) for the `$` of each `${env:`, leaving nothing to refuse.
 */
export function spellableGlob(text: string): string {
  return spellable(text) ? text : text.replace(/\$\{env:/g, '?{env:');
}

/** The path of the first string inside `value` the file cannot spell, or undefined. */
export function firstUnspellable(value: unknown, path: ExportPath = []): ExportPath | undefined {
  if (typeof value === 'string') return spellable(value) ? undefined : path;
  if (!value || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    const found = firstUnspellable(v, [...path, Array.isArray(value) ? Number(k) : k]);
    if (found) return found;
  }
  return undefined;
}

const keyOf = (path: ExportPath) => JSON.stringify(path);

/**
 * `value` with every string escaped, except those at `verbatim` paths (already in file syntax:
 * an exporter's `${env:NAME}` references with their literal parts escaped by it). Map keys are
 * never resolved by the loader, so they stay. Copy on write: a 10,000-record zone with no `{env:`
 * in it is returned as it is.
 */
export function escapeStrings(value: unknown, verbatim: readonly ExportPath[]): unknown {
  const skip = new Set(verbatim.map(keyOf));
  const walk = (node: unknown, path: ExportPath): unknown => {
    if (typeof node === 'string') {
      if (!node.includes('{env:') || skip.has(keyOf(path))) return node;
      return escapeEnv(node);
    }
    if (!node || typeof node !== 'object') return node;
    if (Array.isArray(node)) {
      let list: unknown[] | undefined;
      node.forEach((item, i) => {
        const next = walk(item, [...path, i]);
        if (next !== item) (list ??= [...node])[i] = next;
      });
      return list ?? node;
    }
    let map: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(node)) {
      const next = walk(v, [...path, k]);
      if (next !== v) (map ??= { ...(node as Record<string, unknown>) })[k] = next;
    }
    return map ?? node;
  };
  return walk(value, []);
}
