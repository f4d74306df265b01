import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, ApiError } from '../../src/client/index.js';
import type { ApiResponse } from '../../src/client/types.js';
import { listAll, listPages, MAX_PAGES } from '../../src/core/list.js';
import type { Requester } from '../../src/core/runtime.js';
import { ok, startServer, type TestServer } from '../client/server.js';

const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
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

async function serve(handler: Parameters<typeof startServer>[0]): Promise<ApiClient> {
  server = await startServer(handler);
  client = new ApiClient({ baseUrl: server.baseUrl });
  return client;
}

describe('listAll / listPages', () => {
  it('walks 3 pages with the filters kept and stops on the last one', async () => {
    server = await pagedList(Array.from({ length: 7 }, (_, i) => ({ id: i })));
    client = new ApiClient({ baseUrl: server.baseUrl });
    const all = await listAll<{ id: number }>(client, '/zones', {
      perPage: 3,
      query: { name: 'example.com', page: 7, per_page: 9 },
    });
    expect(all.map((z) => z.id)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(server.seen.map((s) => s.url)).toEqual([
      '/client/v4/zones?name=example.com&page=1&per_page=3',
      '/client/v4/zones?name=example.com&page=2&per_page=3',
      '/client/v4/zones?name=example.com&page=3&per_page=3',
    ]);
  });

  it('stops on an empty list after one request, and reads a null result as empty', async () => {
    server = await pagedList([]);
    client = new ApiClient({ baseUrl: server.baseUrl });
    expect(await listAll(client, `/zones/${ZONE}/dns_records`, { perPage: 5_000_000 })).toEqual([]);
    expect(server.seen).toHaveLength(1);
    await server.close();
    await client.close();
    const nulls = await serve((req, res) => ok(res, null));
    expect(await listAll(nulls, '/zones', { perPage: 50 })).toEqual([]);
  });

  it('stops on an empty page even when total_pages claims more', async () => {
    const c = await serve((req, res) =>
      ok(res, req.query.get('page') === '1' ? [1, 2] : [], { result_info: { page: 1, total_pages: 9 } }),
    );
    expect(await listAll(c, '/zones', { perPage: 50 })).toEqual([1, 2]);
    expect(server!.seen).toHaveLength(2);
  });

  it('sends a single-page list without paging parameters and reads one page, whatever result_info says', async () => {
    const c = await serve((req, res) =>
      ok(res, [{ id: 1 }, { id: 2 }], { result_info: { page: 1, total_pages: 3 } }),
    );
    expect(
      await listAll(c, `/zones/${ZONE}/logpush/jobs`, { perPage: 'single', query: { a: 'b' } }),
    ).toHaveLength(2);
    expect(await listAll(c, `/zones/${ZONE}/dns_records`, { perPage: 5_000_000 })).toHaveLength(6);
    expect(server!.seen.map((s) => s.url)).toEqual([
      `/client/v4/zones/${ZONE}/logpush/jobs?a=b`,
      `/client/v4/zones/${ZONE}/dns_records?page=1&per_page=5000000`,
      `/client/v4/zones/${ZONE}/dns_records?page=2&per_page=5000000`,
      `/client/v4/zones/${ZONE}/dns_records?page=3&per_page=5000000`,
    ]);
  });

  it('stops when the server sends no result_info', async () => {
    const c = await serve((req, res) => ok(res, [1, 2, 3]));
    expect(await listAll(c, '/zones', { perPage: 50 })).toEqual([1, 2, 3]);
    expect(server!.seen).toHaveLength(1);
  });

  it('yields page by page, lazily, with each page’s result_info', async () => {
    server = await pagedList(Array.from({ length: 10 }, (_, i) => i));
    client = new ApiClient({ baseUrl: server.baseUrl });
    const seen: number[][] = [];
    for await (const page of listPages<number>(client, '/zones', { perPage: 4 })) {
      expect(page.resultInfo?.total_count).toBe(10);
      seen.push(page.items);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
    ]);
    expect(server.seen).toHaveLength(2);
  });

  it('runs whileWaiting once, after the first request has been sent and before its answer is read', async () => {
    const events: string[] = [];
    const c = await serve((req, res) => {
      events.push(`server ${req.query.get('page')}`);
      ok(res, [req.query.get('page')], { result_info: { total_pages: 2 } });
    });
    const all = await listAll(c, '/zones', { perPage: 1, whileWaiting: () => events.push('waiting') });
    expect(all).toEqual(['1', '2']);
    expect(events.filter((e) => e === 'waiting')).toHaveLength(1);
    expect(events.at(-1)).toBe('server 2');
  });

  it('says so when a list endpoint returns something that is not a list', async () => {
    const c = await serve((req, res) => ok(res, { id: 1 }));
    const error = await listAll(c, `/zones/${ZONE}/dns_records`, { perPage: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(
      'GET /zones/:id/dns_records -> 200 expected a list in "result", got object',
    );
  });

  it('ends a list that never ends after MAX_PAGES pages with one clear error', async () => {
    // In memory: MAX_PAGES real HTTP requests would take the test budget, and the loop is the subject.
    let requests = 0;
    const endless: Requester = {
      request<T>(): Promise<ApiResponse<T>> {
        requests++;
        return Promise.resolve({
          status: 200,
          result: [requests] as T,
          resultInfo: { total_pages: Number.MAX_SAFE_INTEGER },
          messages: [],
        });
      },
    };
    const error = await listAll(endless, `/zones/${ZONE}/firewall/rules`, { perPage: 100 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(
      `GET /zones/:id/firewall/rules -> the list did not end after ${MAX_PAGES} pages (the server keeps announcing more)`,
    );
    expect(requests).toBe(MAX_PAGES);
  });
});
