// Every list filter, ordering and the pagination edges of GET /zones/{id}/dns_records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createZone, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
let base: string;

async function names(query: string): Promise<string[]> {
  const r = await t.api('GET', `${base}?per_page=1000&${query}`);
  expect(r.status, r.text).toBe(200);
  return r.body.result.map(
    (x: { name: string; type: string }) => `${x.type} ${x.name.replace('.example.com', '')}`,
  );
}

beforeAll(async () => {
  t = await startTestServer();
  // a paid plan: records here carry tags, which the Free plan refuses
  const zone = await createZone(t, 'example.com', 'pro');
  base = `/zones/${zone}/dns_records`;
  const posts = [
    {
      type: 'A',
      name: 'www',
      content: '192.0.2.1',
      proxied: true,
      comment: 'Front door',
      tags: ['team:web', 'prod'],
    },
    { type: 'A', name: 'api', content: '192.0.2.2', ttl: 300, tags: ['team:API'] },
    { type: 'AAAA', name: 'www', content: '2001:db8::1', comment: 'v6 front' },
    { type: 'TXT', name: 'info', content: 'Hello World' },
    { type: 'CNAME', name: 'docs', content: 'docs.example.net', tags: ['team:web'] },
    { type: 'MX', name: '@', content: 'mx.example.net', priority: 10 },
  ];
  const r = await t.api('POST', `${base}/batch`, { posts });
  expect(r.status, r.text).toBe(200);
});
afterAll(() => t.close());

describe('filters', () => {
  it('type, name forms, content forms', async () => {
    expect(await names('type=A&order=name')).toEqual(['A api', 'A www']);
    expect(await names('name=WWW.example.com&order=type')).toEqual(['A www', 'AAAA www']);
    expect(await names('name.exact=www.example.com&type=AAAA')).toEqual(['AAAA www']);
    expect(await names('name.contains=OC&type=CNAME')).toEqual(['CNAME docs']);
    expect(await names('name.startswith=ap')).toEqual(['A api']);
    expect(await names('name.endswith=fo.example.com')).toEqual(['TXT info']);
    expect(await names('content=192.0.2.2')).toEqual(['A api']);
    expect(await names('content=2001:DB8:0::1')).toEqual(['AAAA www']);
    expect(await names('content.contains=hello')).toEqual(['TXT info']);
    expect(await names('content.startswith=docs.')).toEqual(['CNAME docs']);
    expect(await names('content.endswith=.example.net&type=MX')).toEqual(['MX example.com']);
  });

  it('proxied, comment and its forms', async () => {
    expect(await names('proxied=true')).toEqual(['A www']);
    expect(await names('comment=front door')).toEqual(['A www']);
    expect(await names('comment.contains=FRONT&order=type')).toEqual(['A www', 'AAAA www']);
    expect(await names('comment.startswith=v6')).toEqual(['AAAA www']);
    expect(await names('comment.endswith=door')).toEqual(['A www']);
    expect(await names('comment.present&order=type')).toEqual(['A www', 'AAAA www']);
    expect((await names('comment.absent')).length).toBe(4);
  });

  it('tags and tag_match', async () => {
    expect(await names('tag=team&order=name')).toEqual(['A api', 'CNAME docs', 'A www']);
    expect(await names('tag=team:web&order=name')).toEqual(['CNAME docs', 'A www']);
    expect(await names('tag.exact=TEAM:api')).toEqual(['A api']);
    expect(await names('tag.present=prod')).toEqual(['A www']);
    expect((await names('tag.absent=team')).length).toBe(3);
    expect(await names('tag.contains=team:e')).toEqual(['CNAME docs', 'A www'].sort());
    expect(await names('tag.startswith=team:a')).toEqual(['A api']);
    expect(await names('tag.endswith=team:eb&order=name')).toEqual(['CNAME docs', 'A www']);
    expect(await names('tag=prod&tag=team:api&tag_match=any&order=name')).toEqual(['A api', 'A www']);
    expect(await names('tag=prod&tag=team:api')).toEqual([]);
  });

  it('match any combines the plain filters with OR', async () => {
    expect(await names('type=MX&proxied=true')).toEqual([]);
    expect(await names('type=MX&proxied=true&match=any')).toEqual(['A www', 'MX example.com']);
  });

  it('orders and directions', async () => {
    expect(await names('type=A&order=ttl&direction=desc')).toEqual(['A api', 'A www']);
    expect(await names('type=A&order=content&direction=desc')).toEqual(['A api', 'A www']);
    expect(await names('type=A,AAAA&order=proxied&direction=desc')).toEqual(['A www', 'AAAA www', 'A api']);
  });

  it('refuses bad parameters with a clear 400', async () => {
    for (const q of ['order=color', 'direction=up', 'proxied=yes', 'match=some', 'tag.exact=noval']) {
      const r = await t.api('GET', `${base}?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.errors[0].message).toMatch(/must/);
    }
  });
});

describe('pagination', () => {
  it('pages through and reports result_info', async () => {
    const all = await t.api('GET', `${base}?per_page=100`);
    const total = all.body.result_info!.total_count;
    expect(total).toBe(6); // the six records (no SOA: the real list has none)
    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const r = await t.api('GET', `${base}?per_page=3&page=${page}`);
      expect(r.body.result_info).toMatchObject({ page, per_page: 3, total_count: 6, total_pages: 2 });
      expect(r.body.result_info!.count).toBe(r.body.result.length);
      seen.push(...r.body.result.map((x: { id: string }) => x.id));
      if (page >= r.body.result_info!.total_pages) break;
    }
    expect(new Set(seen).size).toBe(6);
    const past = await t.api('GET', `${base}?per_page=3&page=9`);
    expect(past.body.result).toEqual([]);
    expect(past.body.result_info).toMatchObject({ page: 9, count: 0, total_count: 6 });
    const big = await t.api('GET', `${base}?per_page=5000000`);
    expect(big.body.result).toHaveLength(6);
    const one = await t.api('GET', `${base}?per_page=1&page=6`);
    expect(one.body.result).toHaveLength(1);
  });

  it('an empty filter has total_pages 0', async () => {
    const r = await t.api('GET', `${base}?type=NAPTR`);
    expect(r.body.result_info).toEqual({ page: 1, per_page: 100, count: 0, total_count: 0, total_pages: 0 });
  });
});
