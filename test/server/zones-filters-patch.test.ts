// GET /zones filters as the OpenAPI's zones-get lists them, and PATCH /zones/{id} (zones-0-patch).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

const DEV = 'dddddddddddddddddddddddddddddddd';
const OPS = 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const Z = {
  shop: '10000000000000000000000000000001',
  devApi: '10000000000000000000000000000002',
  blog: '10000000000000000000000000000003',
  ent: '10000000000000000000000000000004',
};
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({
    fixtures: {
      accounts: [
        { id: DEV, name: 'Dev Account' },
        { id: OPS, name: 'Ops: Team' },
      ],
      zones: [
        { id: Z.shop, name: 'shop.example.org', account: DEV, plan: 'free' },
        { id: Z.devApi, name: 'dev-api.example.com', account: DEV, plan: 'business' },
        { id: Z.blog, name: 'blog.example.com', account: OPS, plan: 'pro', status: 'pending' },
        { id: Z.ent, name: 'Ent.Example.net', account: OPS, plan: 'enterprise' },
      ],
      tokens: [
        { name: 'all', value: 'zones-test-token-0001', zones: 'all', accounts: 'all', permissions: 'edit' },
      ],
    },
  });
  t.token = 'zones-test-token-0001';
});
afterAll(() => t.close());

const names = async (query: string): Promise<string[]> => {
  const r = await t.api('GET', `/zones?${query}`);
  expect(r.status, r.text).toBe(200);
  return (r.body.result as { name: string }[]).map((z) => z.name);
};

describe('GET /zones filters', () => {
  it('name: equal by default (any case, trailing dot), and every operator of the OpenAPI', async () => {
    expect(await names('name=SHOP.example.org.')).toEqual(['shop.example.org']);
    expect(await names('name=equal:blog.example.com')).toEqual(['blog.example.com']);
    expect(await names('name=not_equal:blog.example.com')).toEqual([
      'dev-api.example.com',
      'ent.example.net',
      'shop.example.org',
    ]);
    expect(await names('name=contains:.ORG')).toEqual(['shop.example.org']);
    expect(await names('name=starts_with:dev')).toEqual(['dev-api.example.com']);
    expect(await names('name=ends_with:example.com')).toEqual(['blog.example.com', 'dev-api.example.com']);
    expect(await names('name=contains_case_sensitive:.ORG')).toEqual([]);
    expect(await names('name=starts_with_case_sensitive:blog')).toEqual(['blog.example.com']);
    expect(await names('name=ends_with_case_sensitive:.net')).toEqual(['ent.example.net']);
  });

  it('account.name takes the same operators; a colon inside a name is not an operator', async () => {
    expect(await names('account.name=dev%20account')).toEqual(['dev-api.example.com', 'shop.example.org']);
    expect(await names('account.name=contains:Team')).toEqual(['blog.example.com', 'ent.example.net']);
    expect(await names('account.name=Ops:%20Team')).toEqual(['blog.example.com', 'ent.example.net']);
    expect(await names('account.name=not_equal:Dev%20Account')).toEqual([
      'blog.example.com',
      'ent.example.net',
    ]);
  });

  it('match=all (default) needs every requirement, match=any one of them', async () => {
    const q = 'name=starts_with:shop&status=pending';
    expect(await names(q)).toEqual([]);
    expect(await names(`${q}&match=all`)).toEqual([]);
    expect(await names(`${q}&match=any`)).toEqual(['blog.example.com', 'shop.example.org']);
    expect(await names(`account.id=${OPS}&name=contains:shop&match=any`)).toEqual([
      'blog.example.com',
      'ent.example.net',
      'shop.example.org',
    ]);
    const bad = await t.api('GET', '/zones?match=some');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].message).toMatch(/match must be one of all, any/);
  });
});

describe('PATCH /zones/{id}', () => {
  it('pauses and unpauses a zone, moving modified_on', async () => {
    const before = (await t.api('GET', `/zones/${Z.shop}`)).body.result;
    const r = await t.api('PATCH', `/zones/${Z.shop}`, { paused: true });
    expect(r.status, r.text).toBe(200);
    expect(r.body.result).toMatchObject({ id: Z.shop, paused: true, type: 'full' });
    expect(r.body.result.modified_on > before.modified_on).toBe(true);
    expect((await t.api('GET', `/zones/${Z.shop}`)).body.result.paused).toBe(true);
    expect(await names('name=shop.example.org')).toEqual(['shop.example.org']);
    expect((await t.api('PATCH', `/zones/${Z.shop}`, { paused: false })).body.result.paused).toBe(false);
  });

  it('changes type on Enterprise zones only', async () => {
    const ent = await t.api('PATCH', `/zones/${Z.ent}`, { type: 'partial' });
    expect(ent.status, ent.text).toBe(200);
    expect(ent.body.result.type).toBe('partial');
    const pro = await t.api('PATCH', `/zones/${Z.blog}`, { type: 'partial' });
    expect(pro.status).toBe(400);
    expect(pro.body.errors[0]).toMatchObject({ code: 1000, source: { pointer: '/type' } });
    expect(pro.body.errors[0].message).toMatch(/only on Enterprise/);
    expect((await t.api('PATCH', `/zones/${Z.blog}`, { type: 'full' })).status).toBe(200); // unchanged
    const weird = await t.api('PATCH', `/zones/${Z.ent}`, { type: 'weird' });
    expect(weird.status).toBe(400);
    expect(weird.body.errors[0].message).toMatch(/full, partial, secondary/);
  });

  it('sets vanity name servers on Business/Enterprise zones, and the plan by its id', async () => {
    const ns = ['NS1.example.com.', 'ns2.example.com'];
    const r = await t.api('PATCH', `/zones/${Z.devApi}`, { vanity_name_servers: ns });
    expect(r.status, r.text).toBe(200);
    expect(r.body.result.vanity_name_servers).toEqual(['ns1.example.com', 'ns2.example.com']);
    const free = await t.api('PATCH', `/zones/${Z.shop}`, { vanity_name_servers: ns });
    expect(free.status).toBe(400);
    expect(free.body.errors[0].message).toMatch(/Business and Enterprise/);
    expect((await t.api('GET', `/zones/${Z.shop}`)).body.result).not.toHaveProperty('vanity_name_servers');

    const proPlanId = (await t.api('GET', `/zones/${Z.blog}`)).body.result.plan.id;
    const up = await t.api('PATCH', `/zones/${Z.shop}`, { plan: { id: proPlanId } });
    expect(up.status, up.text).toBe(200);
    expect(up.body.result.plan).toMatchObject({ id: proPlanId, name: 'Pro Website' });
    const bad = await t.api('PATCH', `/zones/${Z.shop}`, { plan: { id: 'nope' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].source.pointer).toBe('/plan/id');
  });

  it('changes one property at a time and refuses anything else', async () => {
    const two = await t.api('PATCH', `/zones/${Z.shop}`, { paused: true, type: 'full' });
    expect(two.status).toBe(400);
    expect(two.body.errors[0].message).toMatch(/Only one zone property can be changed at a time/);
    const other = await t.api('PATCH', `/zones/${Z.shop}`, { name: 'renamed.example.org' });
    expect(other.status).toBe(400);
    expect(other.body.errors[0]).toMatchObject({ code: 1000, source: { pointer: '/name' } });
    expect((await t.api('PATCH', `/zones/${Z.shop}`, { paused: 'yes' })).status).toBe(400);
    expect((await t.api('PATCH', `/zones/${Z.shop}`, [])).status).toBe(400);
    expect((await t.api('PATCH', '/zones/not-an-id', { paused: true })).body.errors[0].code).toBe(7003);
    expect((await t.api('GET', `/zones/${Z.shop}`)).body.result.paused).toBe(false);
  });
});
