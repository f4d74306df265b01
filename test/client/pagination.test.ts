import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, ApiError, maxPerPage } from '../../src/client/index.js';
import { ok, startServer, type TestServer } from './server.js';

const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
const ACCOUNT = '01a7362d577a6c3019a474fd6f485823';
let server: TestServer | undefined;
let client: ApiClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = server = undefined;
});

/** Serves `items` page by page, honouring page and per_page like the real API. */
function pagedList(items: unknown[]) {
  return startServer((req, res) => {
    const page = Number(req.query.get('page') ?? 1);
    const perPage = Number(req.query.get('per_page') ?? 20);
    const slice = items.slice((page - 1) * perPage, page * perPage);
    const totalPages = Math.ceil(items.length / perPage);
    ok(res, slice, {
      result_info: {
        page,
        per_page: perPage,
        count: slice.length,
        total_count: items.length,
        total_pages: totalPages,
      },
    });
  });
}

describe('pagination', () => {
  it('walks 3 pages and stops on the last one', async () => {
    const items = Array.from({ length: 7 }, (_, i) => ({ id: i }));
    server = await pagedList(items);
    client = new ApiClient({ baseUrl: server.baseUrl });
    const all = await client.listAll<{ id: number }>('/zones', {
      perPage: 3,
      query: { name: 'example.com' },
    });
    expect(all.map((z) => z.id)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(server.seen.map((s) => s.url)).toEqual([
      '/client/v4/zones?name=example.com&page=1&per_page=3',
      '/client/v4/zones?name=example.com&page=2&per_page=3',
      '/client/v4/zones?name=example.com&page=3&per_page=3',
    ]);
  });

  it('asks for the endpoint maximum: 5,000,000 DNS records, 50 zones, 100 Page Shield scripts', async () => {
    server = await pagedList([{ id: 'a' }]);
    client = new ApiClient({ baseUrl: server.baseUrl });
    await client.listAll(`/zones/${ZONE}/dns_records`);
    await client.listAll('/zones');
    await client.listAll(`/zones/${ZONE}/page_shield/scripts`, { query: { status: 'active,infrequent' } });
    expect(server.seen.map((s) => s.query.get('per_page'))).toEqual(['5000000', '50', '100']);
    expect(server.seen[2]!.query.get('status')).toBe('active,infrequent');
  });

  it('stops on an empty list after one request', async () => {
    server = await pagedList([]);
    client = new ApiClient({ baseUrl: server.baseUrl });
    expect(await client.listAll(`/zones/${ZONE}/dns_records`)).toEqual([]);
    expect(server.seen).toHaveLength(1);
  });

  it('stops on an empty page even when total_pages claims more', async () => {
    server = await startServer((req, res) =>
      ok(res, req.query.get('page') === '1' ? [1, 2] : [], { result_info: { page: 1, total_pages: 9 } }),
    );
    client = new ApiClient({ baseUrl: server.baseUrl });
    expect(await client.listAll('/zones')).toEqual([1, 2]);
    expect(server.seen).toHaveLength(2);
  });

  it('requests single-page lists once, without paging parameters, and stops without result_info', async () => {
    server = await startServer((req, res) => ok(res, [{ id: 1 }, { id: 2 }]));
    client = new ApiClient({ baseUrl: server.baseUrl });
    expect(await client.listAll(`/zones/${ZONE}/logpush/jobs`)).toHaveLength(2);
    expect(await client.listAll(`/zones/${ZONE}/dns_records`)).toHaveLength(2);
    expect(server.seen.map((s) => s.url)).toEqual([
      `/client/v4/zones/${ZONE}/logpush/jobs`,
      `/client/v4/zones/${ZONE}/dns_records?page=1&per_page=5000000`,
    ]);
  });

  it('yields items lazily through the async iterator', async () => {
    server = await pagedList(Array.from({ length: 10 }, (_, i) => i));
    client = new ApiClient({ baseUrl: server.baseUrl });
    const taken: number[] = [];
    for await (const n of client.paginate<number>('/zones', { perPage: 2 })) {
      taken.push(n);
      if (taken.length === 3) break;
    }
    expect(taken).toEqual([0, 1, 2]);
    expect(server.seen).toHaveLength(2);
  });

  it('says so when a list endpoint returns something that is not a list', async () => {
    server = await startServer((req, res) => ok(res, { id: 1 }));
    client = new ApiClient({ baseUrl: server.baseUrl });
    const error = await client.listAll(`/zones/${ZONE}/dns_records`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(
      'GET /zones/:id/dns_records -> 200 expected a list in "result", got object',
    );
  });
});

describe('maxPerPage', () => {
  it('knows the limits of the lists zoneplan reads', () => {
    expect(maxPerPage(`/zones/${ZONE}/dns_records`)).toBe(5_000_000);
    expect(maxPerPage('/zones')).toBe(50);
    expect(maxPerPage('/accounts')).toBe(50);
    for (const list of ['scripts', 'connections', 'cookies']) {
      expect(maxPerPage(`/zones/${ZONE}/page_shield/${list}`)).toBe(100);
    }
    expect(maxPerPage(`/zones/${ZONE}/firewall/waf/overrides`)).toBe(100);
    expect(maxPerPage(`/zones/${ZONE}/logpush/jobs`)).toBeUndefined();
    expect(maxPerPage(`/accounts/${ACCOUNT}/alerting/v3/policies`)).toBeUndefined();
    expect(maxPerPage(`/accounts/${ACCOUNT}/load_balancers/pools`)).toBeUndefined();
    expect(maxPerPage(`/zones/${ZONE}/page_shield/policies`)).toBeUndefined();
    expect(maxPerPage('/something/else')).toBe(100);
  });
});
