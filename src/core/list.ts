/**
 * The one way the reconciler reads a list from the API, on the Requester the kinds get. Each caller
 * names its endpoint's page size: the largest `per_page` it accepts (asked for because the request
 * budget counts requests, not records: a 20,000-record zone is one DNS request, not 200), or
 * `'single'` for lists the API documents as one page (Logpush jobs, pools, alerting and Page Shield
 * policies), which are sent without `page`/`per_page`.
 */
import { ApiError } from '../client/errors.js';
import type { Query, ResultInfo } from '../client/types.js';
import type { Requester } from './runtime.js';

/** A hard stop far above any real list, against a server that keeps announcing more pages. */
export const MAX_PAGES = 10_000;

export interface ListOptions {
  /** the list's filters; `page`/`per_page` here are replaced */
  query?: Query;
  /** the largest `per_page` the endpoint accepts, or `'single'` for a list that is one page */
  perPage: number | 'single';
  /**
   * Runs once, after the first request is on its way and before its answer is read, so that work
   * of the caller's (the DNS planner indexing the file's records) overlaps the server's.
   */
  whileWaiting?: () => void;
}

export interface ListPage<T> {
  items: T[];
  resultInfo?: ResultInfo;
}

/**
 * Yields the list page by page. Stops after the page that reaches `total_pages`, on an empty page,
 * or when the server sends no `total_pages` (a list that is not paged). A null result is an empty
 * list; any other result that is not a list is an ApiError, as is a list still announcing more
 * pages after MAX_PAGES.
 */
export async function* listPages<T = Record<string, unknown>>(
  client: Requester,
  path: string,
  opts: ListOptions,
): AsyncGenerator<ListPage<T>> {
  const base: Query = { ...opts.query };
  delete base.page;
  delete base.per_page;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const query = opts.perPage === 'single' ? base : { ...base, page, per_page: opts.perPage };
    const pending = client.request<unknown>('GET', path, { query });
    if (page === 1 && opts.whileWaiting) {
      pending.catch(() => {}); // awaited below; this only keeps an early failure from being unhandled
      await new Promise((resolve) => setImmediate(resolve)); // let the request go out first
      opts.whileWaiting();
    }
    const res = await pending;
    if (res.result !== null && !Array.isArray(res.result)) {
      throw new ApiError({
        method: 'GET',
        path,
        status: res.status,
        detail: `expected a list in "result", got ${typeof res.result}`,
      });
    }
    const items = (res.result ?? []) as T[];
    yield { items, resultInfo: res.resultInfo };
    const totalPages = res.resultInfo?.total_pages;
    if (opts.perPage === 'single' || items.length === 0) return;
    if (totalPages === undefined || page >= totalPages) return;
  }
  throw new ApiError({
    method: 'GET',
    path,
    status: 0,
    detail: `the list did not end after ${MAX_PAGES} pages (the server keeps announcing more)`,
  });
}

/** Every item of a list, all pages (see listPages). */
export async function listAll<T = Record<string, unknown>>(
  client: Requester,
  path: string,
  opts: ListOptions,
): Promise<T[]> {
  const all: T[] = [];
  for await (const page of listPages<T>(client, path, opts)) {
    for (const item of page.items) all.push(item);
  }
  return all;
}
