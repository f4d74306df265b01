// Bad input never gets a 500; restarts keep data; concurrent writers lose nothing; faults.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/index.js';
import { createZone, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
let zone: string;
let base: string;

beforeAll(async () => {
  t = await startTestServer();
  zone = await createZone(t, 'example.com');
  base = `/zones/${zone}/dns_records`;
});
afterAll(() => t.close());

describe('bad input gets an envelope', () => {
  it('malformed JSON: 400 6007', async () => {
    const r = await t.raw('POST', base, '{"type": "A",');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, result: null, messages: [] });
    expect(r.body.errors[0].code).toBe(6007);
  });

  it('wrong body shapes: 400 with a message', async () => {
    for (const body of ['[]', '"x"', '42', 'null']) {
      const r = await t.raw('POST', base, body);
      expect(r.status, body).toBe(400);
      expect(r.body.success).toBe(false);
    }
    const wrongTypes = await t.api('POST', base, { type: 5, name: [], content: {} });
    expect(wrongTypes.status).toBe(400);
    const batch = await t.api('POST', `${base}/batch`, { posts: 'nope' });
    expect(batch.status).toBe(400);
    expect(batch.body.errors[0].source).toEqual({ pointer: '/posts' });
  });

  it('oversized body: 413 envelope', async () => {
    const big = JSON.stringify({ type: 'TXT', name: 'big', content: 'x'.repeat(11 * 1024 * 1024) });
    const r = await t.raw('POST', base, big);
    expect(r.status).toBe(413);
    expect(r.body.errors[0].code).toBe(6008);
  });

  it('unknown route: 404 7000; bad zone id: 7003; unknown zone: 404', async () => {
    const r = await t.api('GET', '/nothing/here');
    expect(r.status).toBe(404);
    expect(r.body.errors[0]).toEqual({ code: 7000, message: 'No route for that URI' });
    expect((await t.api('GET', '/zones/xyz/dns_records')).body.errors[0].code).toBe(7003);
    const missing = await t.api('GET', `/zones/${'a'.repeat(32)}/dns_records`);
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].code).toBe(7003);
    const outside = await fetch(t.url.replace('/client/v4', '/elsewhere'));
    expect(outside.status).toBe(404);
  });

  it('serves /api/v4 as well', async () => {
    const r = await fetch(t.url.replace('/client/v4', '/api/v4') + base, {
      headers: { authorization: `Bearer ${t.token}` },
    });
    expect(r.status).toBe(200);
  });
});

describe('zones', () => {
  it('duplicates are 1061, filters hold, per_page is clamped to 5..50', async () => {
    const accounts = (await t.api('GET', '/accounts')).body.result;
    const dup = await t.api('POST', '/zones', { name: 'EXAMPLE.com', account: { id: accounts[0].id } });
    expect(dup.status).toBe(400);
    expect(dup.body.errors[0]).toMatchObject({ code: 1061, message: 'example.com already exists.' });
    for (let i = 0; i < 6; i++) await createZone(t, `z${i}.test`);
    const page = await t.api('GET', '/zones?per_page=5&page=2');
    expect(page.body.result_info).toMatchObject({
      page: 2,
      per_page: 5,
      count: 2,
      total_count: 7,
      total_pages: 2,
    });
    expect((await t.api('GET', '/zones?per_page=4')).body.result_info.per_page).toBe(5);
    expect((await t.api('GET', '/zones?per_page=51')).body.result_info.per_page).toBe(50);
    expect((await t.api('GET', '/zones')).body.result_info.per_page).toBe(20);
    // created through the API: pending until its name servers change, as on the real API
    const byName = await t.api('GET', '/zones?name=z3.test&status=pending');
    expect(byName.body.result.map((z: { name: string }) => z.name)).toEqual(['z3.test']);
    expect((await t.api('GET', `/zones?account.id=${accounts[0].id}`)).body.result_info.total_count).toBe(7);
    const created = byName.body.result[0];
    expect(created).toMatchObject({ status: 'pending', type: 'full', plan: { legacy_id: 'free' } });
    expect(created.id).toMatch(/^[0-9a-f]{32}$/);
    const del = await t.api('DELETE', `/zones/${created.id}`);
    expect(del.body.result).toEqual({ id: created.id });
    expect((await t.api('GET', `/zones/${created.id}`)).status).toBe(404);
    expect(
      (await t.api('POST', '/zones', { name: 'bad name!', account: { id: accounts[0].id } })).status,
    ).toBe(400);
  });

  it('zone names follow the shared rule (src/rules/zones.ts): 1099 with a pointer', async () => {
    const accounts = (await t.api('GET', '/accounts')).body.result;
    const create = (name: string) => t.api('POST', '/zones', { name, account: { id: accounts[0].id } });
    for (const bad of ['localhost', 'example.123', 'under_score.test', '-x.test', 'a..test', 'x.c']) {
      const r = await create(bad);
      expect(r.status, bad).toBe(400);
      expect(r.body.errors, bad).toEqual([
        { code: 1099, message: `"${bad}" is not a valid domain name.`, source: { pointer: '/name' } },
      ]);
    }
    const ok = await create(' Rule-Test.Example. ');
    expect(ok.status).toBe(200);
    expect(ok.body.result.name).toBe('rule-test.example');
    expect((await create('xn--bcher-kva.example')).status).toBe(200);
  });
});

describe('batch', () => {
  it('runs deletes, patches, puts, posts in that order and rolls back as a whole', async () => {
    const a = (await t.api('POST', base, { type: 'A', name: 'one', content: '192.0.2.1' })).body.result;
    const b = (await t.api('POST', base, { type: 'CNAME', name: 'two', content: 'x.example.net' })).body
      .result;
    // the delete of the CNAME runs before the post of an A at the same name
    const ok = await t.api('POST', `${base}/batch`, {
      posts: [{ type: 'A', name: 'two', content: '192.0.2.2' }],
      patches: [{ id: a.id, comment: 'patched' }],
      deletes: [{ id: b.id }],
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.result.patches[0].comment).toBe('patched');
    const bad = await t.api('POST', `${base}/batch`, {
      deletes: [{ id: a.id }],
      posts: [
        { type: 'A', name: 'three', content: '192.0.2.3' },
        { type: 'A', name: 'three', content: '192.0.2.3' },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ code: 81058, source: { pointer: '/posts/1' } });
    expect((await t.api('GET', `${base}/${a.id}`)).status).toBe(200);
    expect((await t.api('GET', `${base}?name=three.example.com`)).body.result).toEqual([]);
  });

  it('enforces the plan limit (200 on free)', async () => {
    // an empty zone: 200 posts also fill the Free plan's record quota exactly
    const empty = `/zones/${await createZone(t, 'batch-limit.test')}/dns_records`;
    const posts = Array.from({ length: 201 }, (_, i) => ({ type: 'TXT', name: `t${i}`, content: 'x' }));
    const r = await t.api('POST', `${empty}/batch`, { posts });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].message).toMatch(/at most 200 changes on the free plan/);
    const fine = await t.api('POST', `${empty}/batch`, { posts: posts.slice(0, 200) });
    expect(fine.status).toBe(200);
    expect(fine.body.result.posts).toHaveLength(200);
  });
});

describe('durability and concurrency', () => {
  it('200 concurrent writers lose nothing', async () => {
    const z = await createZone(t, 'busy.test');
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        t.api('POST', `/zones/${z}/dns_records`, { type: 'A', name: `h${i}`, content: `192.0.2.${i % 250}` }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const list = await t.api('GET', `/zones/${z}/dns_records?type=A&per_page=1000`);
    expect(list.body.result_info.total_count).toBe(200);
  });

  it('a restart keeps everything, including the dev token', async () => {
    const before = await t.api('GET', `${base}?per_page=5000`);
    const token = t.token;
    await t.restart();
    expect(t.server.devToken).toBe(token);
    const after = await t.api('GET', `${base}?per_page=5000`);
    expect(after.body.result).toEqual(before.body.result);
  });
});

describe('faults', () => {
  it('injects a deterministic share of 503s with a seed', async () => {
    const run = async () => {
      const s = await startServer({ db: ':memory:', faults: 'error5xx=0.5,seed=42', quiet: true });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) {
        const r = await fetch(`${s.url}/ips`);
        statuses.push(r.status);
        if (r.status === 503) expect(((await r.json()) as any).success).toBe(false);
        else await r.arrayBuffer();
      }
      const health = await fetch(s.url.replace('/client/v4', '/__zoneplan/health'));
      expect(health.status).toBe(200);
      await s.close();
      return statuses;
    };
    const first = await run();
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await run()).toEqual(first);
  });

  it('rate limits with 429 code 971 and retry-after', async () => {
    const s = await startServer({ db: ':memory:', faults: 'ratelimit=3/300s', quiet: true });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 5; i++) {
      last = await fetch(`${s.url}/ips`);
      statuses.push(last.status);
      if (i < 4) await last.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.headers.get('x-ratelimit-limit')).toBe('3');
    expect(((await last!.json()) as any).errors[0].code).toBe(971);
    await s.close();
  });

  it('reports x-ratelimit-remaining after counting the request: 3/window says 2, 1, 0, then 429', async () => {
    const s = await startServer({ db: ':memory:', faults: 'ratelimit=3/60s', quiet: true });
    const remaining: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${s.url}/ips`);
      remaining.push(`${res.status}:${res.headers.get('x-ratelimit-remaining')}`);
      await res.arrayBuffer();
    }
    expect(remaining).toEqual(['200:2', '200:1', '200:0', '429:0']);
    await s.close();
  });

  it('refuses a bad fault spec clearly', async () => {
    await expect(startServer({ db: ':memory:', faults: 'latency=fast', quiet: true })).rejects.toThrow(
      /latency must be a duration/,
    );
    await expect(startServer({ db: ':memory:', faults: 'chaos=1', quiet: true })).rejects.toThrow(
      /unknown fault "chaos"/,
    );
  });
});

describe('ensureAccounts', () => {
  it('creates missing accounts in the local store only once, and refuses bad ids', async () => {
    const id = 'abcdefabcdefabcdefabcdefabcdef01';
    const dbPath = `${t.dir}/accounts.db`;
    const s1 = await startServer({ db: dbPath, ensureAccounts: [id], quiet: true });
    expect(s1.createdAccounts).toEqual([id]);
    const r = await fetch(`${s1.url}/accounts/${id}`, {
      headers: { authorization: `Bearer ${s1.devToken}` },
    });
    expect(((await r.json()) as any).result.id).toBe(id);
    await s1.close();
    const s2 = await startServer({ db: dbPath, ensureAccounts: [id], quiet: true });
    expect(s2.createdAccounts).toEqual([]);
    await s2.close();
    await expect(startServer({ db: ':memory:', ensureAccounts: ['nope'], quiet: true })).rejects.toThrow(
      /32 hexadecimal/,
    );
  });
});

describe('read caches', () => {
  it('see writes made through another process on the same database file', async () => {
    const dbPath = `${t.dir}/shared.db`;
    const a = await startServer({ db: dbPath, quiet: true });
    const b = await startServer({ db: dbPath, quiet: true });
    const h = { authorization: `Bearer ${a.devToken}`, 'content-type': 'application/json' };
    const account = ((await (await fetch(`${a.url}/accounts`, { headers: h })).json()) as any).result[0]
      .id as string;
    const zoneRes = await fetch(`${a.url}/zones`, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ name: 'shared.test', account: { id: account } }),
    });
    const z = ((await zoneRes.json()) as any).result.id as string;
    const list = async () =>
      ((await (await fetch(`${a.url}/zones/${z}/dns_records`, { headers: h })).json()) as any).result.length;
    expect(await list()).toBe(0);
    expect(await list()).toBe(0); // served from the cache
    const post = await fetch(`${b.url}/zones/${z}/dns_records`, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ type: 'A', name: 'x', content: '192.0.2.1' }),
    });
    expect(post.status).toBe(200);
    expect(await list()).toBe(1);
    await a.close();
    await b.close();
  });
});
