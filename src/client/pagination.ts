/**
 * Page-style lists (`page`, `per_page`, `result_info.total_pages`). Each list is asked for in the
 * largest pages its endpoint allows, because the request budget (1200 per 5 minutes) is counted
 * in requests, not in records: a 20,000-record zone is one request, not 200.
 */

import { ApiError } from './errors.js';
import type { ApiResponse, Query, RequestOptions } from './types.js';

/** The largest `per_page` of each paged list; `single` marks lists that come back whole in one page. */
const LIST_LIMITS: [RegExp, number | 'single'][] = [
  [/^\/zones\/[^/]+\/dns_records$/, 5_000_000],
  [/^\/zones$/, 50],
  [/^\/accounts$/, 50],
  [/^\/zones\/[^/]+\/page_shield\/(scripts|connections|cookies)$/, 100],
  [/^\/zones\/[^/]+\/page_shield\/policies$/, 'single'],
  [/^\/(zones|accounts)\/[^/]+\/logpush\/jobs$/, 'single'],
  [/^\/accounts\/[^/]+\/alerting\/v3\/policies$/, 'single'],
  [/^\/accounts\/[^/]+\/load_balancers\/pools$/, 'single'],
  [/^\/zones\/[^/]+\/firewall\/waf\/(packages|overrides)$/, 100],
  [/^\/zones\/[^/]+\/firewall\/waf\/packages\/[^/]+\/(groups|rules)$/, 100],
];

/** Far above any real list; a server that keeps announcing more pages cannot make us loop forever. */
export const MAX_PAGES = 100_000;

/** Used for any list not named above: the most common maximum of the v4 API. */
export const DEFAULT_PER_PAGE = 100;

/**
 * The `per_page` to ask for on `path` (DNS records 5,000,000; zones 50; Page Shield lists 100;
 * default 100), or undefined for lists that are a single page (Logpush jobs, alerting policies,
 * pools, Page Shield policies): those are requested without paging parameters.
 */
export function maxPerPage(path: string): number | undefined {
  const bare = (path.split('?', 1)[0] ?? '').replace(/\/+$/, '');
  for (const [pattern, limit] of LIST_LIMITS) {
    if (pattern.test(bare)) return limit === 'single' ? undefined : limit;
  }
  return DEFAULT_PER_PAGE;
}

export type GetPage = (path: string, opts: RequestOptions) => Promise<ApiResponse<unknown>>;

/**
 * Yields every item of a list, page after page. Stops after the page that reaches `total_pages`,
 * on an empty page, or when the server sends no `result_info` (a list that is not paged).
 * `page`/`per_page` in `query` are replaced; `perPage` overrides the endpoint's maximum.
 */
export async function* paginateList<T>(
  get: GetPage,
  path: string,
  opts: { query?: Query; perPage?: number } = {},
): AsyncGenerator<T> {
  const perPage = opts.perPage ?? maxPerPage(path);
  const base: Query = { ...opts.query };
  delete base.page;
  delete base.per_page;
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const query: Query = perPage === undefined ? base : { ...base, page, per_page: perPage };
    const response = await get(path, { query });
    if (response.result === null && page === 1) return;
    if (!Array.isArray(response.result)) {
      const got = response.result === null ? 'null' : typeof response.result;
      throw new ApiError({
        method: 'GET',
        path,
        status: response.status,
        detail: `expected a list in "result", got ${got}`,
      });
    }
    for (const item of response.result as T[]) yield item;
    const info = response.resultInfo;
    if (perPage === undefined || !info || response.result.length === 0) return;
    if (info.total_pages === undefined || page >= info.total_pages) return;
  }
  throw new ApiError({
    method: 'GET',
    path,
    status: 0,
    detail: `the list did not end after ${MAX_PAGES} pages`,
  });
}
