/**
 * Query helpers for list endpoints of the areas: comma lists, wildcard matching as Page
 * Shield filters do it (a `*` at either end), and page-style slicing with result_info.
 */
import { pageInfo, type ResultInfo } from '../../http/envelope.js';
import { checkFilterValues } from '../../http/query-limits.js';

/** `a,b, c` -> ['a','b','c']; absent or empty -> undefined; over MAX_FILTER_VALUES items, a 400. */
export function commaList(query: URLSearchParams, name: string): string[] | undefined {
  const raw = query.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  checkFilterValues(name, items.length);
  return items.length > 0 ? items : undefined;
}

/**
 * Case-insensitive match with wildcards at the ends only: `*.example.com` ends with,
 * `cdn.*` starts with, `*cdn*` contains, anything else equals.
 */
export function wildMatch(pattern: string, value: string | undefined | null): boolean {
  if (value === undefined || value === null) return false;
  const p = pattern.toLowerCase();
  const v = value.toLowerCase();
  const starts = p.startsWith('*');
  const ends = p.endsWith('*') && p.length > 1;
  const core = p.slice(starts ? 1 : 0, ends ? -1 : undefined);
  if (starts && ends) return v.includes(core);
  if (starts) return v.endsWith(core);
  if (ends) return v.startsWith(core);
  return v === core;
}

/** One page of `items` and its result_info; a page past the end is empty, not an error. */
export function paginate<T>(items: T[], page: number, perPage: number): { items: T[]; info: ResultInfo } {
  const start = (page - 1) * perPage;
  const slice = items.slice(start, start + perPage);
  return { items: slice, info: pageInfo(page, perPage, slice.length, items.length) };
}

/**
 * result_info for a list the API returns whole (it takes no page parameters): one page that holds
 * every item, so a client paging until page >= total_pages stops after it. per_page is never 0, so
 * a client dividing by it cannot fail on an empty list.
 */
export function wholeListInfo(count: number): ResultInfo {
  return pageInfo(1, Math.max(count, 1), count, count);
}
