/**
 * When the zones kind reads the zone list instead of looking zones up by name: the decision page by
 * page, on a list served from memory (the CLI tests count the same on the wire, against the local API).
 */
import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../../src/client/types.js';
import type { ReadManyContext, Requester } from '../../../src/core/runtime.js';
import { readZonesAtOnce } from '../../../src/kinds/zones/read-many.js';

const ACCOUNT = '0123456789abcdef0123456789abcdef';
const name = (i: number) => `z${String(i).padStart(4, '0')}.example`;

/** A zone list of `total` zones, paged as the API pages it; `requests` records each query. */
function zoneList(total: number, info: 'pages' | 'count' = 'pages') {
  const requests: Record<string, unknown>[] = [];
  const client: Requester = {
    request<T>(_method: string, _path: string, options?: { query?: Record<string, unknown> }) {
      const q = options?.query ?? {};
      requests.push(q);
      const page = Number(q.page);
      const perPage = Number(q.per_page);
      const items = Array.from({ length: total }, (_, i) => ({ id: `id${i}`, name: name(i) })).slice(
        (page - 1) * perPage,
        page * perPage,
      );
      const resultInfo =
        info === 'pages'
          ? {
              page,
              per_page: perPage,
              count: items.length,
              total_count: total,
              total_pages: Math.ceil(total / perPage),
            }
          : { page, per_page: perPage, count: items.length, total_count: total };
      return Promise.resolve({ status: 200, result: items as T, resultInfo } as ApiResponse<T>);
    },
  };
  return { client, requests };
}

function ctx(client: Requester, names: string[], account?: string): ReadManyContext {
  return {
    client,
    owners: names.map((n) => ({ owner: { scope: 'zone', name: n }, entry: account ? { account } : {} })),
  };
}

describe('readZonesAtOnce', () => {
  it('fewer than 3 zones: no list, every zone left to the lookup by name', async () => {
    const { client, requests } = zoneList(10);
    expect((await readZonesAtOnce(ctx(client, [name(1), name(2)]))).size).toBe(0);
    expect(requests).toHaveLength(0);
  });

  it('reads every page when the pages are fewer than the zones wanted', async () => {
    const { client, requests } = zoneList(200);
    const wanted = Array.from({ length: 200 }, (_, i) => name(i));
    const found = await readZonesAtOnce(ctx(client, wanted, ACCOUNT));
    expect(found.size).toBe(200);
    expect(requests).toHaveLength(4);
    expect(requests[0]).toEqual({ 'account.id': ACCOUNT, page: 1, per_page: 50 });
  });

  it('stops after the first page when a lookup each is cheaper than the rest of the list', async () => {
    const { client, requests } = zoneList(5000);
    const found = await readZonesAtOnce(ctx(client, [name(1), name(4000), name(4999)]));
    expect(requests).toHaveLength(1);
    expect([...found.keys()]).toEqual([name(1)]);
  });

  it('stops as soon as the zones still missing are no more than the pages left', async () => {
    // 10 pages; 12 wanted, 8 of them on page 1, 4 on the last page: after page 1, 9 pages left >= 4
    const { client, requests } = zoneList(500);
    const wanted = [...Array.from({ length: 8 }, (_, i) => name(i)), ...[496, 497, 498, 499].map(name)];
    const found = await readZonesAtOnce(ctx(client, wanted));
    expect(requests).toHaveLength(1);
    expect(found.size).toBe(8);
  });

  it('a list that announces no total_pages is one page; case is ignored; mixed accounts: no filter', async () => {
    const { client, requests } = zoneList(120, 'count');
    const wanted = Array.from({ length: 100 }, (_, i) => name(i).toUpperCase());
    const c = ctx(client, wanted);
    c.owners[0].entry = { account: ACCOUNT };
    const found = await readZonesAtOnce(c);
    expect(requests).toEqual([{ page: 1, per_page: 50 }]);
    expect(found.size).toBe(50);
  });
});
