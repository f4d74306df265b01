/**
 * Page parameters of every paged list, in one table, and the one parser every list route uses.
 *
 * The real API treats its published `page`/`per_page` ranges as what it serves, not as grounds for
 * refusal (docs/reference/api-facts.md, "Envelope"): certbot's Cloudflare plugin looks zones up with
 * `GET /zones?name=<guess>&per_page=1` on every dns-01 challenge and gets an answer. So a value out
 * of range is clamped into it, and a value that is not a number at all (`per_page=abc`, `page=`)
 * counts as absent: the default. result_info then reports the page and per_page actually served,
 * so a client that pages by it stays consistent.
 */

/** One list's `per_page` range and default, and where those numbers come from. */
export interface ListPaging {
  /** the route, as registered (tests check every list route has an entry) */
  readonly method: 'GET' | 'PATCH';
  readonly path: string;
  readonly perPage: { readonly default: number; readonly min: number; readonly max: number };
  /** whether `page=all` returns every item on one page */
  readonly pageAll: boolean;
  readonly source: string;
}

const WAF_PREVIOUS = { default: 50, min: 5, max: 100 } as const;
const PAGE_SHIELD = { default: 100, min: 1, max: 100 } as const;

/**
 * Every paged list of the local API. Lists the API returns whole (Page Shield policies, Logpush
 * jobs, pools, notification policies) take no page parameters and ignore them; they are not here.
 */
export const LIST_PAGING = {
  zones: {
    method: 'GET',
    path: '/zones',
    perPage: { default: 20, min: 5, max: 50 },
    pageAll: false,
    source:
      'OpenAPI zones-get (per_page default 20, minimum 5, maximum 50); docs/reference/api-facts.md "Zones"',
  },
  accounts: {
    method: 'GET',
    path: '/accounts',
    perPage: { default: 20, min: 5, max: 50 },
    pageAll: false,
    source:
      "in neither the OpenAPI subset nor docs/reference/api-facts.md: the zones list's range, which this server has always served for accounts (an assumption, kept here so it is easy to change)",
  },
  dnsRecords: {
    method: 'GET',
    path: '/zones/:zone_id/dns_records',
    perPage: { default: 100, min: 1, max: 5_000_000 },
    pageAll: false,
    source:
      'OpenAPI dns-records-for-a-zone-list-dns-records (per_page default 100, minimum 1, maximum 5,000,000); docs/reference/api-facts.md "DNS records"',
  },
  pageShieldScripts: {
    method: 'GET',
    path: '/zones/:zone_id/page_shield/scripts',
    perPage: PAGE_SHIELD,
    pageAll: true,
    source:
      'OpenAPI page-shield-list-scripts (per_page minimum 1, maximum 100, no default published: the maximum is served; page is a string that also takes "all"); docs/reference/api-facts.md "Page Shield"',
  },
  pageShieldConnections: {
    method: 'GET',
    path: '/zones/:zone_id/page_shield/connections',
    perPage: PAGE_SHIELD,
    pageAll: true,
    source:
      'OpenAPI page-shield-list-connections (per_page minimum 1, maximum 100, no default published: the maximum is served; page also takes "all")',
  },
  pageShieldCookies: {
    method: 'GET',
    path: '/zones/:zone_id/page_shield/cookies',
    perPage: PAGE_SHIELD,
    pageAll: false,
    source:
      'OpenAPI page-shield-list-cookies (per_page minimum 1, maximum 100, no default published: the maximum is served; page is a number only)',
  },
  wafPackages: {
    method: 'GET',
    path: '/zones/:zone_id/firewall/waf/packages',
    perPage: WAF_PREVIOUS,
    pageAll: false,
    source: 'OpenAPI waf-packages-list-waf-packages (per_page default 50, minimum 5, maximum 100)',
  },
  wafGroups: {
    method: 'GET',
    path: '/zones/:zone_id/firewall/waf/packages/:package_id/groups',
    perPage: WAF_PREVIOUS,
    pageAll: false,
    source: 'OpenAPI waf-rule-groups-list-waf-rule-groups (per_page default 50, minimum 5, maximum 100)',
  },
  wafRules: {
    method: 'GET',
    path: '/zones/:zone_id/firewall/waf/packages/:package_id/rules',
    perPage: WAF_PREVIOUS,
    pageAll: false,
    source: 'OpenAPI waf-rules-list-waf-rules (per_page default 50, minimum 5, maximum 100)',
  },
  wafOverrides: {
    method: 'GET',
    path: '/zones/:zone_id/firewall/waf/overrides',
    perPage: WAF_PREVIOUS,
    pageAll: false,
    source:
      'OpenAPI waf-overrides-list-waf-overrides (per_page default 50, minimum 5, maximum 100); docs/reference/api-facts.md "previous WAF"',
  },
  poolsPatch: {
    method: 'PATCH',
    path: '/accounts/:account_id/load_balancers/pools',
    perPage: { default: 25, min: 1, max: 1000 },
    pageAll: false,
    source:
      'docs/reference/service-api.md "Load balancer pools" (25 by default; limit/offset is the other pair, limit in the same range); the maximum is this implementation\'s (none is published)',
  },
} as const satisfies Record<string, ListPaging>;

export interface Page {
  /** 1-based */
  page: number;
  perPage: number;
}

/**
 * A finite number from a query value, or undefined when it is absent or not a number. Fractions are
 * cut to integers (`per_page=1.5` serves 1, then clamps).
 */
export function lenientInt(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name)?.trim();
  if (raw === undefined || raw === '' || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw))
    return undefined;
  // 1e400 is Infinity: out of range upward, which the callers' clamp turns into the maximum
  return Math.trunc(Number(raw));
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(Math.max(n, min), max);
}

/** `per_page` from the query, clamped into the list's range; absent or malformed gives the default. */
export function perPageParam(query: URLSearchParams, list: ListPaging, name = 'per_page'): number {
  const { default: def, min, max } = list.perPage;
  const n = lenientInt(query, name);
  return n === undefined ? def : clamp(n, min, max);
}

/**
 * `page` from the query: at least 1, and small enough that the offset `(page - 1) * perPage` stays
 * an exact integer (a page that far out is simply empty). Absent or malformed gives 1.
 */
export function pageNumberParam(query: URLSearchParams, perPage: number): number {
  const n = lenientInt(query, 'page');
  return n === undefined ? 1 : clamp(n, 1, Math.floor(Number.MAX_SAFE_INTEGER / perPage));
}

/** `page` and `per_page` of one list, both clamped (see the file comment). */
export function pageParams(query: URLSearchParams, list: ListPaging): Page {
  const perPage = perPageParam(query, list);
  return { page: pageNumberParam(query, perPage), perPage };
}

/** Like pageParams, but `page=all` (any case) answers 'all' on lists that support it. */
export function pageParamsOrAll(query: URLSearchParams, list: ListPaging): Page | 'all' {
  if (list.pageAll && query.get('page')?.trim().toLowerCase() === 'all') return 'all';
  return pageParams(query, list);
}
