/**
 * Export values are checked with paths relative to the value (`records[3].ttl`); kinds' exporters
 * use this to find which list item a problem is about, and write that item as a comment instead.
 */

/** The index of the list item a relative path is about: `records[3].ttl` -> 3 for list `records`. */
export function itemIndex(path: string, list: string): number | undefined {
  const m = new RegExp(`^${list.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\[(\\d+)\\]`).exec(path);
  return m ? Number(m[1]) : undefined;
}
