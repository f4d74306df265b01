/**
 * Field-level differences between two normalised objects, with deep-diff, as dotted paths.
 * Arrays are compared as whole values (a tag list is one field: `tags: [a] -> [a, b]`), which is
 * how operators read them and how the API writes them.
 */
import deepDiff from 'deep-diff';
import type { FieldChange } from './runtime.js';

function get(obj: unknown, path: (string | number)[]): unknown {
  let cur = obj;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[p];
  }
  return cur;
}

export function fieldChanges(before: unknown, after: unknown): FieldChange[] {
  if (before === null || after === null || typeof before !== 'object' || typeof after !== 'object') return [];
  const diffs = deepDiff.diff(before as object, after as object) ?? [];
  const seen = new Map<string, FieldChange>();
  for (const d of diffs) {
    const raw = (d.path ?? []) as (string | number)[];
    // cut the path at the first array index: the array is the field
    const cut = raw.findIndex((p) => typeof p === 'number');
    const path = cut >= 0 ? raw.slice(0, cut) : raw;
    const key = path.join('.');
    if (seen.has(key)) continue;
    seen.set(key, { path: key, before: get(before, path), after: get(after, path) });
  }
  return [...seen.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
