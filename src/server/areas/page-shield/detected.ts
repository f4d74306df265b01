/**
 * Detected scripts, connections and cookies: list (every filter of the real API, page-style
 * result_info) and get one. Items come from fixtures; filtering runs in memory over the zone's
 * items, which is plenty for the sizes a zone's fixtures hold.
 */
import { isMaliciousScript } from '../../../rules/page-shield/index.js';
import { ApiError, ok, type Reply } from '../../http/envelope.js';
import type { RequestContext } from '../../http/context.js';
import { LIST_PAGING, pageParamsOrAll, type ListPaging } from '../../http/paging.js';
import { boolParam, enumParam } from '../../http/request.js';
import type { Router } from '../../http/router.js';
import { commaList, paginate, wildMatch } from '../area-helpers/listing.js';
import { notFound, requireId } from '../area-helpers/replies.js';
import { PAGE_SHIELD_CODES } from './settings-policies.js';
import { getItem, listItems, type DetectedItem, type ItemKind } from './store.js';

export const ITEM_STATUSES = ['active', 'infrequent', 'inactive'] as const;
/** The page parameters of each list (LIST_PAGING: per_page 1..100, the maximum by default). */
const PAGING: Record<ItemKind, ListPaging> = {
  script: LIST_PAGING.pageShieldScripts,
  connection: LIST_PAGING.pageShieldConnections,
  cookie: LIST_PAGING.pageShieldCookies,
};

/**
 * Fields kept out of list entries: the API shows them only when one item is read (the spec says so
 * for scripts; the OpenAPI's page-shield_connection has page_urls, and the single-connection answer
 * is the one place a client can learn them).
 */
const SINGLE_ONLY: Record<ItemKind, string[]> = {
  script: ['page_urls', 'versions'],
  connection: ['page_urls'],
  cookie: [],
};

function shape(kind: ItemKind, item: DetectedItem, single: boolean): Record<string, unknown> {
  const hidden = single ? [] : SINGLE_ONLY[kind];
  const out: Record<string, unknown> = { id: item.id };
  for (const [k, v] of Object.entries(item)) if (!hidden.includes(k)) out[k] = v;
  return out;
}

function isMalicious(item: DetectedItem): boolean {
  return (
    isMaliciousScript(item as { js_integrity_score?: number }) ||
    item.url_reported_malicious === true ||
    item.domain_reported_malicious === true
  );
}

function pageUrlsOf(item: DetectedItem): string[] {
  const urls = Array.isArray(item.page_urls) ? (item.page_urls as string[]) : [];
  return typeof item.first_page_url === 'string' ? [item.first_page_url, ...urls] : urls;
}

/** Applies the query's filters and sort to a zone's items of one kind. */
export function filterItems(kind: ItemKind, items: DetectedItem[], q: URLSearchParams): DetectedItem[] {
  if (q.get('export'))
    throw ApiError.badRequest(
      'export=csv is not available on the local API; page through the JSON list instead.',
    );
  let out = items;
  const hosts = commaList(q, 'hosts');
  if (hosts) out = out.filter((i) => hosts.some((h) => wildMatch(h, i.host as string)));
  const pageUrls = commaList(q, 'page_url');
  if (pageUrls) out = out.filter((i) => pageUrlsOf(i).some((u) => pageUrls.some((p) => wildMatch(p, u))));
  if (kind !== 'cookie') {
    const urls = commaList(q, 'urls');
    if (urls)
      out = out.filter((i) => urls.some((u) => String(i.url).toLowerCase().includes(u.toLowerCase())));
    const excluded = commaList(q, 'exclude_urls');
    if (excluded)
      out = out.filter((i) => !excluded.some((u) => String(i.url).toLowerCase().includes(u.toLowerCase())));
    const statuses = commaList(q, 'status') ?? ['active'];
    for (const s of statuses) {
      if (!(ITEM_STATUSES as readonly string[]).includes(s)) {
        throw ApiError.badRequest(
          `The query parameter status must be a comma list of ${ITEM_STATUSES.join(', ')}, not "${s}".`,
        );
      }
    }
    out = out.filter((i) => statuses.includes(String(i.status ?? 'active')));
    if (boolParam(q, 'exclude_cdn_cgi') ?? true)
      out = out.filter((i) => i.url_contains_cdn_cgi_path !== true);
  } else {
    out = filterCookies(out, q);
  }
  if (kind === 'script' && (boolParam(q, 'exclude_duplicates') ?? true)) out = withoutDuplicates(out);
  return sortItems(out, q);
}

function filterCookies(items: DetectedItem[], q: URLSearchParams): DetectedItem[] {
  let out = items;
  for (const field of ['name', 'path', 'domain'] as const) {
    const v = q.get(field);
    if (v)
      out = out.filter((i) => wildMatch(v, i[field === 'name' ? 'name' : `${field}_attribute`] as string));
  }
  for (const field of ['secure', 'http_only'] as const) {
    const v = boolParam(q, field);
    if (v !== undefined) out = out.filter((i) => i[`${field}_attribute`] === v);
  }
  const sameSite = enumParam(q, 'same_site', ['lax', 'strict', 'none'] as const);
  if (sameSite) out = out.filter((i) => String(i.same_site_attribute ?? '').toLowerCase() === sameSite);
  const type = enumParam(q, 'type', ['first_party', 'unknown'] as const);
  if (type) out = out.filter((i) => i.type === type);
  return out;
}

/** Same content (hash) on the same host counts once: the most recently seen copy stays. */
function withoutDuplicates(items: DetectedItem[]): DetectedItem[] {
  const best = new Map<string, DetectedItem>();
  const out: DetectedItem[] = [];
  for (const item of items) {
    if (typeof item.hash !== 'string' || item.hash === '') {
      out.push(item);
      continue;
    }
    const key = `${item.hash}\0${String(item.host).toLowerCase()}`;
    const seen = best.get(key);
    if (!seen || String(item.last_seen_at) > String(seen.last_seen_at)) best.set(key, item);
  }
  return [...out, ...best.values()];
}

function sortItems(items: DetectedItem[], q: URLSearchParams): DetectedItem[] {
  const orderBy = enumParam(q, 'order_by', ['first_seen_at', 'last_seen_at'] as const, 'first_seen_at');
  const direction = enumParam(q, 'direction', ['asc', 'desc'] as const, 'desc');
  const malicious = boolParam(q, 'prioritize_malicious') ?? false;
  const sign = direction === 'asc' ? 1 : -1;
  return [...items].sort((a, b) => {
    if (malicious) {
      const m = Number(isMalicious(b)) - Number(isMalicious(a));
      if (m !== 0) return m;
    }
    const x = String(a[orderBy] ?? '');
    const y = String(b[orderBy] ?? '');
    if (x !== y) return x < y ? -sign : sign;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
}

function listHandler(kind: ItemKind) {
  return (ctx: RequestContext): Reply => {
    const q = ctx.query;
    const paging = pageParamsOrAll(q, PAGING[kind]);
    const items = filterItems(kind, listItems(ctx.app.db, ctx.zone!.id, kind), q);
    if (paging === 'all') {
      const perPage = Math.max(items.length, 1);
      return ok(
        items.map((i) => shape(kind, i, false)),
        paginate(items, 1, perPage).info,
      );
    }
    const { items: slice, info } = paginate(items, paging.page, paging.perPage);
    return ok(
      slice.map((i) => shape(kind, i, false)),
      info,
    );
  };
}

function getHandler(kind: ItemKind, param: string) {
  return (ctx: RequestContext): Reply => {
    requireId(ctx, param);
    const item = getItem(ctx.app.db, ctx.zone!.id, kind, ctx.params[param]);
    if (!item)
      throw notFound(
        PAGE_SHIELD_CODES.notFound,
        `${kind[0].toUpperCase()}${kind.slice(1)} ${ctx.params[param]} not found.`,
      );
    return ok(shape(kind, item, true));
  };
}

export function detectedItemRoutes(router: Router): void {
  const area = 'page_shield' as const;
  const kinds: [ItemKind, string, string][] = [
    ['script', 'scripts', 'script_id'],
    ['connection', 'connections', 'connection_id'],
    ['cookie', 'cookies', 'cookie_id'],
  ];
  for (const [kind, plural, param] of kinds) {
    router.add({
      method: 'GET',
      path: `/zones/:zone_id/page_shield/${plural}`,
      area,
      handler: listHandler(kind),
    });
    router.add({
      method: 'GET',
      path: `/zones/:zone_id/page_shield/${plural}/:${param}`,
      area,
      handler: getHandler(kind, param),
    });
  }
}
