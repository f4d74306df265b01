/**
 * Field-level differences between two normalised objects, with deep-diff, as dotted paths.
 * Arrays are compared as whole values (a tag list is one field: `tags: [a] -> [a, b]`), which is
 * how operators read them and how the API writes them.
 */
import { createRequire } from 'node:module';
import type * as DeepDiff from 'deep-diff';
import type { FieldChange } from './runtime.js';

/**
 * `deep-diff` is loaded on the first update that needs it (synchronously: planning is synchronous):
 * a plan with nothing to change, the most common plan of all, never compiles it.
 */
let deepDiffModule: typeof DeepDiff | undefined;
const deepDiff = (): typeof DeepDiff =>
  (deepDiffModule ??= createRequire(import.meta.url)('deep-diff') as typeof DeepDiff);

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
  const diffs = deepDiff().diff(before as object, after as object) ?? [];
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

/**
 * Every field a create will send, as dotted paths with no `before`: a reviewer sees the whole new
 * object, not only its name. Nested objects are walked; arrays are whole values, as above. Fields
 * that are unset (undefined) are not shown.
 */
export function createdFields(after: unknown): FieldChange[] {
  const out: FieldChange[] = [];
  const walk = (value: unknown, path: string) => {
    if (
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      Object.keys(value).length > 0
    ) {
      for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k);
    } else if (value !== undefined && path) out.push({ path, before: undefined, after: value });
  };
  walk(after, '');
  return out;
}
