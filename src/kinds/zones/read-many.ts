/**
 * Finding many zones at once. The API's budget counts requests (1,200 per 5 minutes per user,
 * shared by every token and run), so a fleet of zones is looked up through the paged zone list
 * (50 a page) rather than one `GET /zones?name=` each, whenever the list costs fewer requests:
 * 200 zones among 200 cost 4 pages instead of 200 lookups.
 *
 * The list is read page by page and stops as soon as the pages still to read are at least as many
 * as the zones still not found: from there on, a lookup each is cheaper. So a token that sees
 * thousands of zones costs one page (then the lookups) to plan a few of them. A zone the list did
 * not show is left to the by-name lookup (`read`), which then finds it or not exactly as without
 * the list: a zone in another account, or one created while the pages were read, is still found,
 * and a missing zone gives the same plan and error.
 */
import { listPages } from '../../core/list.js';
import type { ReadManyContext } from '../../core/runtime.js';
import type { LiveZone } from './runtime.js';

/** The zone list's largest page (OpenAPI zones-get: per_page 5..50). */
export const ZONE_PAGE_SIZE = 50;

/**
 * Below this many zones the list is not tried: its first page may be all it costs, but with a
 * token that sees many zones it is one request more than the lookups, and for 1 or 2 zones that
 * extra request is a large share.
 */
export const MIN_ZONES_FOR_LIST = 3;

/** The pages of the zone list that find `owners` zones when it holds just them (0 below the list's minimum). */
export function zoneListPages(owners: number): number {
  return owners < MIN_ZONES_FOR_LIST ? 0 : Math.ceil(owners / ZONE_PAGE_SIZE);
}

export async function readZonesAtOnce(ctx: ReadManyContext): Promise<Map<string, LiveZone>> {
  const found = new Map<string, LiveZone>();
  const wanted = new Set(ctx.owners.map((o) => o.owner.name.toLowerCase()));
  if (wanted.size < MIN_ZONES_FOR_LIST) return found;
  const account = sharedAccount(ctx.owners.map((o) => o.entry));
  const pages = listPages<LiveZone>(ctx.client, '/zones', {
    query: account ? { 'account.id': account } : {},
    perPage: ZONE_PAGE_SIZE,
  });
  let page = 0;
  for await (const { items, resultInfo } of pages) {
    page++;
    for (const z of items) {
      const name = typeof z.name === 'string' ? z.name.toLowerCase() : '';
      // the first of a name wins, as in the lookup by name (which reads the same list, filtered)
      if (wanted.has(name) && !found.has(name)) found.set(name, z);
    }
    const missing = wanted.size - found.size;
    if (missing === 0) break;
    if (pagesLeft(resultInfo, page) >= missing) break;
  }
  return found;
}

/**
 * The pages after `page` that the list announces (docs/reference/api-facts.md: `total_pages`); none when it announces
 * none, as the paging helper then stops too.
 */
function pagesLeft(info: { total_pages?: number } | undefined, page: number): number {
  return Math.max(0, (info?.total_pages ?? page) - page);
}

/**
 * The account every zone entry names, when they all name the same one: the list is then filtered
 * to it (fewer pages when the token sees other accounts' zones too).
 */
function sharedAccount(entries: Record<string, unknown>[]): string | undefined {
  const accounts = new Set(entries.map((e) => e.account));
  if (accounts.size !== 1) return undefined;
  const [account] = accounts;
  return typeof account === 'string' && account !== '' ? account : undefined;
}
