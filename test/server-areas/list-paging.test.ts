/**
 * Leniency the real API has, over real HTTP: on every paged list, out-of-range or malformed
 * `page`/`per_page` are clamped into the list's range (LIST_PAGING, src/server/http/paging.ts), never
 * refused; and an unknown query parameter changes nothing on any route. certbot's zone lookup
 * (`GET /zones?name=<guess>&per_page=1`) is the case that started this.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../src/server/app.js';
import { AREA_MODULES } from '../../src/server/areas/index.js';
import { LIST_PAGING, type ListPaging } from '../../src/server/http/paging.js';
import { concretePath, routeName, routeTable, type RouteInfo } from '../security/routes.js';
import type { ApiResponse, TestServer } from '../server/helpers.js';
import { ACCOUNT, PREVIOUS_WAF, ZONES, startAreaServer } from './setup.js';

const PACKAGE = PREVIOUS_WAF.packages[0].id;
const CLOUDFLARE_MANAGED_RULESET = 'efb7b8c949ac4650a09736fc376e9aee';
const ZONE = ZONES.pro;

/** GET routes that answer one object, not a list: nothing to page. */
const NOT_LISTS = new Set([
  'GET /zones/:zone_id',
  'GET /accounts/:account_id',
  'GET /ips',
  'GET /user/tokens/verify',
  'GET /zones/:zone_id/page_shield',
  'GET /zones/:zone_id/waf_migration/check',
  'GET /zones/:zone_id/waf_migration/config',
  'GET /zones/:zone_id/waf_migration/status',
  'GET /zones/:zone_id/rulesets/phases/:ruleset_phase/entrypoint',
]);
/** Lists the API returns whole: they take no page parameters and ignore any given. */
const WHOLE_LISTS = new Set([
  'GET /zones/:zone_id/page_shield/policies',
  'GET /zones/:zone_id/logpush/jobs',
  'GET /accounts/:account_id/load_balancers/pools',
  'GET /accounts/:account_id/alerting/v3/policies',
  'GET /zones/:zone_id/rulesets',
  'GET /zones/:zone_id/rulesets/:ruleset_id/versions',
  'GET /zones/:zone_id/rulesets/phases/:ruleset_phase/entrypoint/versions',
]);

let t: TestServer;
let routes: RouteInfo[];

beforeAll(async () => {
  t = await startAreaServer();
  routes = routeTable(new App(t.server.db, AREA_MODULES));
});
afterAll(() => t?.close());

const key = (l: { method: string; path: string }) => `${l.method} ${l.path}`;
const paged = Object.entries(LIST_PAGING).filter(([, l]) => l.method === 'GET') as [string, ListPaging][];

function pathOf(list: ListPaging): string {
  return list.path.replace(':zone_id', ZONE).replace(':package_id', PACKAGE).replace(':account_id', ACCOUNT);
}

async function get(path: string): Promise<ApiResponse> {
  const r = await t.api('GET', path);
  expect(r.status, `${path}: ${r.text.slice(0, 300)}`).toBe(200);
  expect(r.body.result_info.count, path).toBe(r.body.result.length);
  return r;
}

describe('the table covers every list route', () => {
  it('each GET route is a paged list in LIST_PAGING, a whole list, or a single object', () => {
    const pagedKeys = new Set(Object.values(LIST_PAGING).map(key));
    const unclassified = routes
      .filter((r) => r.method === 'GET')
      .map(routeName)
      .filter((k) => !pagedKeys.has(k) && !WHOLE_LISTS.has(k) && !NOT_LISTS.has(k) && !/\/:[a-z_]+$/.test(k));
    expect(unclassified).toEqual([]);
    const registered = new Set(routes.map(routeName));
    for (const k of [...Object.values(LIST_PAGING).map(key), ...WHOLE_LISTS, ...NOT_LISTS])
      expect(registered.has(k), k).toBe(true);
  });
});

describe.each(paged)('%s: page and per_page are clamped, never refused', (_name, list) => {
  const { default: def, min, max } = list.perPage;
  const q = (query: string) => `${pathOf(list)}?${query}`;

  it(`serves per_page ${def} by default and clamps into ${min}..${max}`, async () => {
    expect((await get(pathOf(list))).body.result_info).toMatchObject({ page: 1, per_page: def });
    for (const [query, served] of [
      [`per_page=${min - 1}`, min],
      ['per_page=0', min],
      ['per_page=-5', min],
      [`per_page=${max + 1}`, max],
      ['per_page=999999999999999999999', max],
      ['per_page=1e400', max],
      ['per_page=1', min],
      ['per_page=abc', def],
      ['per_page=', def],
      [`per_page=${min}.9`, min],
    ] as const) {
      expect((await get(q(query))).body.result_info.per_page, query).toBe(served);
    }
  });

  it('clamps page to at least 1; a page past the end is empty', async () => {
    const first = await get(q(`per_page=${min}`));
    for (const query of ['page=0', 'page=-3', 'page=abc', 'page=', 'page=1.7']) {
      const r = await get(q(`per_page=${min}&${query}`));
      expect(r.body.result_info.page, query).toBe(1);
      expect(r.body.result, query).toEqual(first.body.result);
    }
    const far = await get(q('page=99999999999999999999'));
    expect(far.body.result).toEqual([]);
    expect(far.body.result_info.total_count).toBe(first.body.result_info.total_count);
  });

  it('pages consistently by the result_info it answers, even from an out-of-range per_page', async () => {
    const all = (await get(q(`per_page=${max}`))).body;
    const seen: unknown[] = [];
    for (let page = 1; page <= 50; page++) {
      const r = (await get(q(`per_page=1&page=${page}`))).body;
      seen.push(...r.result);
      if (page >= r.result_info.total_pages) break;
    }
    expect(seen).toEqual(all.result.slice(0, seen.length));
    expect(seen.length).toBe(Math.min(all.result_info.total_count, 50 * min));
  });

  it('ignores unknown query parameters', async () => {
    const plain = await get(q(`per_page=${min}`));
    const odd = await get(q(`per_page=${min}&zoneplan_unknown=1&limit=zz&offset=-1&x[]=a&=&cursor=abc`));
    expect(odd.body).toEqual(plain.body);
  });
});

describe('the cases that were refused before', () => {
  it("certbot's zone lookup finds the zone", async () => {
    const r = await get('/zones?name=pro.example&per_page=1');
    expect(r.body.result.map((z: { id: string }) => z.id)).toEqual([ZONE]);
    expect(r.body.result_info).toMatchObject({ page: 1, per_page: 5, count: 1, total_count: 1 });
    const records = await get(
      `/zones/${ZONE}/dns_records?type=TXT&name=_acme-challenge.pro.example&per_page=1`,
    );
    expect(records.body.result).toEqual([]);
    const accounts = await get('/accounts?page=0&per_page=1');
    expect(accounts.body.result_info).toMatchObject({ page: 1, per_page: 5, total_count: 1 });
  });

  it('page=all returns everything where the list supports it, and is page 1 elsewhere', async () => {
    const scripts = await get(`/zones/${ZONE}/page_shield/scripts?page=ALL&per_page=1`);
    expect(scripts.body.result.length).toBe(scripts.body.result_info.total_count);
    expect(scripts.body.result.length).toBeGreaterThan(1);
    const cookies = await get(`/zones/${ZONE}/page_shield/cookies?page=all&per_page=1`);
    expect(cookies.body.result_info).toMatchObject({ page: 1, per_page: 1, count: 1 });
  });
});

describe('whole lists ignore page parameters', () => {
  it.each([...WHOLE_LISTS])('%s', async (route) => {
    // the lists of a ruleset's versions are read from one that exists: a managed ruleset, and an
    // entry point made for the purpose in a phase any zone may use
    let path = concretePath({ path: route.slice(4) } as RouteInfo, { zone: ZONE, account: ACCOUNT }).replace(
      'fedcba9876543210fedcba9876543210',
      CLOUDFLARE_MANAGED_RULESET,
    );
    if (route.includes(':ruleset_phase')) {
      path = path.replace('http_request_firewall_managed', 'http_request_firewall_custom');
      const entry = `/zones/${ZONE}/rulesets/phases/http_request_firewall_custom/entrypoint`;
      expect((await t.api('PUT', entry, { rules: [] })).status).toBe(200);
    }
    const plain = await t.api('GET', path);
    expect(plain.status, plain.text.slice(0, 300)).toBe(200);
    const odd = await t.api('GET', `${path}?page=0&per_page=-1&limit=x&zoneplan_unknown=1`);
    expect(odd.status).toBe(200);
    expect(odd.body).toEqual(plain.body);
  });
});

describe('pool PATCH: either pagination pair, clamped', () => {
  const pools = `/accounts/${ACCOUNT}/load_balancers/pools`;
  const patch = (query: string) => t.api('PATCH', `${pools}?${query}`, { notification_email: '' });

  it('clamps per_page/page and limit/offset into 1..1000 and >= 0', async () => {
    const { min, max } = LIST_PAGING.poolsPatch.perPage;
    for (const [query, page, perPage] of [
      ['per_page=0&page=0', 1, min],
      ['per_page=abc', 1, LIST_PAGING.poolsPatch.perPage.default],
      [`per_page=${max + 1}`, 1, max],
      ['limit=-1&offset=-10', 1, min],
      ['limit=10&offset=abc', 1, 10],
      ['limit=10&offset=25', 3, 10],
    ] as const) {
      const r = await patch(query);
      expect(r.status, `${query}: ${r.text.slice(0, 200)}`).toBe(200);
      expect(r.body.result_info, query).toMatchObject({ page, per_page: perPage, total_count: 60 });
    }
  });

  it('still refuses both pairs at once (which one was meant is unclear)', async () => {
    expect((await patch('page=1&limit=5')).status).toBe(400);
  });
});

describe('unknown query parameters change nothing, on every route', () => {
  it('GET routes answer the same with and without them', async () => {
    const differ: string[] = [];
    for (const r of routes.filter((x) => x.method === 'GET')) {
      const path = concretePath(r, { zone: ZONE, account: ACCOUNT }).replace(
        'fedcba9876543210fedcba9876543210',
        r.path.includes(':package_id') ? PACKAGE : 'fedcba9876543210fedcba9876543210',
      );
      const plain = await t.api('GET', path);
      const odd = await t.api('GET', `${path}?zoneplan_unknown=1&nested.thing=2&arr[]=3`);
      if (odd.status !== plain.status || JSON.stringify(odd.body) !== JSON.stringify(plain.body))
        differ.push(`${routeName(r)}: ${plain.status} -> ${odd.status} ${odd.text.slice(0, 120)}`);
    }
    expect(differ).toEqual([]);
  });

  it('writes accept them too', async () => {
    const created = await t.api('POST', `/zones/${ZONE}/dns_records?zoneplan_unknown=1&per_page=abc`, {
      type: 'TXT',
      name: 'unknown-params.pro.example',
      content: 'ok',
    });
    expect(created.status, created.text).toBe(200);
    const removed = await t.api(
      'DELETE',
      `/zones/${ZONE}/dns_records/${created.body.result.id}?zoneplan_unknown=1&page=-1`,
    );
    expect(removed.status).toBe(200);
  });
});
