// Every DNS rule of the spec over real HTTP, on each write path (POST, PUT, PATCH, batch).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createZone, startTestServer, type ApiResponse, type TestServer } from './helpers.js';

let t: TestServer;
let zone: string;
let base: string;

beforeAll(async () => {
  t = await startTestServer();
  // a paid plan: records here carry tags, which the Free plan refuses
  zone = await createZone(t, 'example.com', 'pro');
  base = `/zones/${zone}/dns_records`;
  await t.api('POST', base, { type: 'A', name: '@', content: '192.0.2.1' });
});
afterAll(() => t.close());

function codes(r: ApiResponse): number[] {
  return r.body.errors.flatMap((e) => [e.code, ...(e.error_chain ?? []).map((c) => c.code)]);
}

async function post(body: unknown) {
  return t.api('POST', base, body);
}

describe('record rules on POST', () => {
  const cases: [string, Record<string, unknown>, number[]][] = [
    ['bad IPv4', { type: 'A', name: 'a', content: '300.1.1.1' }, [1004, 9005]],
    ['bad IPv6', { type: 'AAAA', name: 'a', content: '2001:db8::g' }, [1004, 9006]],
    ['provider address', { type: 'A', name: 'a', content: '104.16.5.5' }, [1004, 9003]],
    ['provider IPv6', { type: 'AAAA', name: 'a', content: '2606:4700::1' }, [1004, 9003]],
    ['private proxied', { type: 'A', name: 'a', content: '10.1.1.1', proxied: true }, [1004, 9003]],
    ['TXT proxied', { type: 'TXT', name: 'a', content: 'x', proxied: true }, [1004, 9004]],
    ['TTL too low', { type: 'A', name: 'a', content: '192.0.2.5', ttl: 30 }, [1004, 9021]],
    ['TTL too high', { type: 'A', name: 'a', content: '192.0.2.5', ttl: 90000 }, [1004, 9021]],
    ['MX not a host', { type: 'MX', name: '@', content: 'not a host', priority: 1 }, [1004, 9009]],
    ['CNAME to itself', { type: 'CNAME', name: 'self', content: 'self.example.com' }, [1004, 9007]],
    // an address is not a host name (the last label of one is never all digits)
    ['CNAME to an address', { type: 'CNAME', name: 'c', content: '192.0.2.1' }, [1004, 9007]],
    ['MX to an address', { type: 'MX', name: '@', content: '192.0.2.1', priority: 1 }, [1004, 9009]],
    // IPv4-mapped IPv6 inside the provider's 104.16.0.0/13 reaches the same host as the A would
    ['IPv4-mapped provider', { type: 'AAAA', name: 'a', content: '::ffff:104.16.0.1' }, [1004, 9003]],
    ['bad label', { type: 'A', name: '-bad', content: '192.0.2.5' }, [1004, 9000]],
    ['long label', { type: 'A', name: 'a'.repeat(64), content: '192.0.2.5' }, [1004, 9000]],
    ['digit first', { type: 'CNAME', name: '9lives', content: 'x.example.net' }, [1004, 9000]],
    ['SOA', { type: 'SOA', name: '@', content: 'x' }, [1004, 9105]],
    ['unknown type', { type: 'XYZ', name: 'a', content: 'x' }, [1004, 9100]],
    ['SPF (retired: use TXT)', { type: 'spf', name: '@', content: 'v=spf1 -all' }, [1004, 9100]],
    [
      'SRV bad data',
      { type: 'SRV', name: '_s._tcp', data: { priority: 1, weight: 1, port: -1, target: 'x.com' } },
      [1004, 9101],
    ],
  ];
  for (const [what, body, expected] of cases) {
    it(`refuses ${what}`, async () => {
      const r = await post(body);
      expect(r.status).toBe(400);
      expect(r.body.success).toBe(false);
      expect(r.body.result).toBeNull();
      expect(codes(r)).toEqual(expected);
    });
  }

  it('accepts names other types allow and stores full lower-case names', async () => {
    const r = await post({ type: 'TXT', name: '_DMARC', content: 'v=DMARC1; p=none' });
    expect(r.body.result.name).toBe('_dmarc.example.com');
    const w = await post({ type: 'A', name: '*.Wild', content: '192.0.2.7', ttl: 120 });
    expect(w.body.result).toMatchObject({
      name: '*.wild.example.com',
      ttl: 120,
      proxied: false,
      comment: null,
      tags: [],
    });
    expect(w.body.result.id).toMatch(/^[0-9a-f]{32}$/);
    expect(w.body.result.created_on).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$/);
  });

  it('forces TTL Auto on proxied records and returns SRV content and priority', async () => {
    const p = await post({ type: 'A', name: 'prox', content: '192.0.2.8', proxied: true, ttl: 3600 });
    expect(p.body.result).toMatchObject({ ttl: 1, proxied: true, proxiable: true });
    const s = await post({
      type: 'SRV',
      name: '_sip._tcp',
      data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.com' },
    });
    expect(s.body.result).toMatchObject({
      content: '5 5060 sip.example.com',
      priority: 10,
      proxiable: false,
    });
    expect(s.body.result.data).toEqual({ priority: 10, weight: 5, port: 5060, target: 'sip.example.com' });
  });

  it('reports CNAME conflicts and identical records', async () => {
    await post({ type: 'A', name: 'host', content: '192.0.2.20' });
    expect(codes(await post({ type: 'CNAME', name: 'host', content: 'x.example.net' }))).toEqual([81053]);
    await post({ type: 'CNAME', name: 'alias', content: 'x.example.net' });
    expect(codes(await post({ type: 'A', name: 'alias', content: '192.0.2.21' }))).toEqual([81054]);
    expect(codes(await post({ type: 'TXT', name: 'alias', content: 'hi' }))).toEqual([81054]);
    expect(codes(await post({ type: 'A', name: 'host', content: '192.0.2.20' }))).toEqual([81058]);
  });

  it('tells SRV, MX and URI records apart by priority; an exact duplicate is 81058', async () => {
    const srv = (priority: number) => ({
      type: 'SRV',
      name: '_xmpp._tcp',
      data: { priority, weight: 5, port: 5222, target: 'xmpp.example.com' },
    });
    const first = await post(srv(10));
    expect(first.status).toBe(200);
    const second = await post(srv(20));
    expect(second.status).toBe(200);
    expect(second.body.result).toMatchObject({ content: '5 5222 xmpp.example.com', priority: 20 });
    expect(codes(await post(srv(10)))).toEqual([81058]);
    // the same identity when sent as content with priority apart
    expect(
      codes(
        await post({ type: 'SRV', name: '_xmpp._tcp', content: '5 5222 xmpp.example.com', priority: 20 }),
      ),
    ).toEqual([81058]);
    // a batch sees the same identity, for posts against stored records and against each other
    const batch = await t.api('POST', `${base}/batch`, { posts: [srv(30), srv(30)] });
    expect(codes(batch)).toEqual([81058]);
    expect((await t.api('POST', `${base}/batch`, { posts: [srv(30), srv(40)] })).status).toBe(200);
    // a PATCH that changes only the priority onto another record's is a duplicate too
    const moved = await t.api('PATCH', `${base}/${second.body.result.id}`, {
      data: { priority: 10, weight: 5, port: 5222, target: 'xmpp.example.com' },
    });
    expect(codes(moved)).toEqual([81058]);

    expect((await post({ type: 'MX', name: 'mail', content: 'mx.example.net', priority: 10 })).status).toBe(
      200,
    );
    expect((await post({ type: 'MX', name: 'mail', content: 'mx.example.net', priority: 20 })).status).toBe(
      200,
    );
    expect(codes(await post({ type: 'MX', name: 'mail', content: 'mx.example.net', priority: 10 }))).toEqual([
      81058,
    ]);

    const uri = (priority: number) => ({
      type: 'URI',
      name: '_ftp._tcp',
      priority,
      data: { weight: 1, target: 'ftp://ftp.example.com/' },
    });
    expect((await post(uri(1))).status).toBe(200);
    expect((await post(uri(2))).status).toBe(200);
    expect(codes(await post(uri(1)))).toEqual([81058]);
  });

  it('follows proxied CNAME chains', async () => {
    await post({ type: 'CNAME', name: 'c2', content: 'host.example.com' });
    expect((await post({ type: 'CNAME', name: 'c1', content: 'c2.example.com', proxied: true })).status).toBe(
      200,
    );
    expect(
      (await post({ type: 'CNAME', name: 'ext', content: 'elsewhere.example.net', proxied: true })).status,
    ).toBe(200);
    const missing = await post({ type: 'CNAME', name: 'm', content: 'nothing.example.com', proxied: true });
    expect(codes(missing)).toEqual([1004, 9103]);
    await post({ type: 'CNAME', name: 'l2', content: 'l1.example.com' });
    const loop = await post({ type: 'CNAME', name: 'l1', content: 'l2.example.com', proxied: true });
    expect(codes(loop)).toEqual([1004, 9103]);
    expect(loop.body.errors[0].error_chain![0].message).toMatch(/loops/);
  });

  it('ignores unknown and server-set fields', async () => {
    const r = await post({
      type: 'A',
      name: 'extra',
      content: '192.0.2.30',
      id: 'x',
      zone_id: 'y',
      proxiable: false,
      foo: 1,
    });
    expect(r.status).toBe(200);
    expect(r.body.result.proxiable).toBe(true);
    expect(r.body.result.zone_id).toBe(zone);
  });
});

describe('the same rules on PUT, PATCH and batch', () => {
  it('PATCH merges and re-checks', async () => {
    const r = await post({
      type: 'A',
      name: 'patchme',
      content: '192.0.2.40',
      comment: 'c',
      tags: ['team:dns'],
    });
    const id = r.body.result.id;
    const bad = await t.api('PATCH', `${base}/${id}`, { content: '104.16.0.9' });
    expect(codes(bad)).toEqual([1004, 9003]);
    const good = await t.api('PATCH', `${base}/${id}`, { proxied: true });
    expect(good.body.result).toMatchObject({
      content: '192.0.2.40',
      proxied: true,
      ttl: 1,
      comment: 'c',
      tags: ['team:dns'],
    });
    expect(good.body.result.created_on).toBe(r.body.result.created_on);
    expect(good.body.result.comment_modified_on).toBe(r.body.result.comment_modified_on);
    const txt = await t.api('PATCH', `${base}/${id}`, { type: 'TXT', content: 'hello' });
    expect(codes(txt)).toEqual([1004, 9004]);
  });

  it('PUT overwrites: missing fields reset', async () => {
    const r = await post({ type: 'A', name: 'putme', content: '192.0.2.41', comment: 'old', ttl: 300 });
    const id = r.body.result.id;
    const put = await t.api('PUT', `${base}/${id}`, { type: 'A', name: 'putme', content: '192.0.2.42' });
    expect(put.body.result).toMatchObject({ content: '192.0.2.42', comment: null, ttl: 1 });
    expect(codes(await t.api('PUT', `${base}/${id}`, { type: 'A', name: 'putme', content: 'nope' }))).toEqual(
      [1004, 9005],
    );
    expect(
      codes(
        await t.api('PUT', `${base}/${id}`, {
          type: 'CNAME',
          name: 'putme',
          content: 'host.example.com',
          ttl: 5,
        }),
      ),
    ).toEqual([1004, 9021]);
  });

  it('batch refuses a bad post with a pointer and applies nothing', async () => {
    const before = await t.api('GET', `${base}?per_page=1000`);
    const r = await t.api('POST', `${base}/batch`, {
      posts: [
        { type: 'A', name: 'b1', content: '192.0.2.50' },
        { type: 'A', name: 'b2', content: '104.16.0.1' },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].source).toEqual({ pointer: '/posts/1' });
    const after = await t.api('GET', `${base}?per_page=1000`);
    expect(after.body.result_info!.total_count).toBe(before.body.result_info!.total_count);
  });

  it('the list holds no SOA, and SPF is refused with a pointer to TXT', async () => {
    expect((await t.api('GET', `${base}?type=SOA`)).body.result).toEqual([]);
    const spf = await t.api('POST', base, { type: 'SPF', name: '@', content: 'v=spf1 -all' });
    expect(spf.status).toBe(400);
    expect(codes(spf)).toEqual([1004, 9100]);
    expect(spf.body.errors[0].error_chain![0].message).toMatch(/publish the SPF policy as a TXT record/);
  });

  it('a missing record is 81044 and a bad id 7003', async () => {
    const missing = await t.api('GET', `${base}/${'0'.repeat(32)}`);
    expect(missing.status).toBe(404);
    expect(codes(missing)).toEqual([81044]);
    expect(codes(await t.api('DELETE', `${base}/${'0'.repeat(32)}`))).toEqual([81044]);
    const bad = await t.api('GET', `${base}/not-an-id`);
    expect(codes(bad)).toEqual([7003]);
  });
});

describe('at least one A or AAAA', () => {
  it('refuses to delete the last address, allows a batch that replaces it', async () => {
    const z = await createZone(t, 'lonely.test');
    const b = `/zones/${z}/dns_records`;
    const a = (await t.api('POST', b, { type: 'A', name: '@', content: '192.0.2.1' })).body.result;
    const del = await t.api('DELETE', `${b}/${a.id}`);
    expect(del.status).toBe(400);
    expect(codes(del)).toEqual([1004, 9104]);
    const retype = await t.api('PUT', `${b}/${a.id}`, { type: 'TXT', name: '@', content: 'x' });
    expect(codes(retype)).toEqual([1004, 9104]);
    const swap = await t.api('POST', `${b}/batch`, {
      deletes: [{ id: a.id }],
      posts: [{ type: 'AAAA', name: '@', content: '2001:db8::1' }],
    });
    expect(swap.status).toBe(200);
    expect(swap.body.result.deletes[0].id).toBe(a.id);
    expect(swap.body.result.posts[0].content).toBe('2001:db8::1');
    const none = await t.api('POST', `${b}/batch`, { deletes: [{ id: swap.body.result.posts[0].id }] });
    expect(codes(none)).toEqual([1004, 9104]);
  });

  it('a zone without any address may add other records', async () => {
    const z = await createZone(t, 'empty.test');
    const r = await t.api('POST', `/zones/${z}/dns_records`, { type: 'TXT', name: '@', content: 'hello' });
    expect(r.status).toBe(200);
  });
});
