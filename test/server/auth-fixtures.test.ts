// The auth matrix and fixtures: tokens and e-mail/key pairs with scopes and permissions.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/index.js';
import { startTestServer, type TestServer } from './helpers.js';
import { fetchTestRoute } from '../support/test-routes.js';

const ACCOUNT = '0123456789abcdef0123456789abcdef';
const OTHER = 'fedcba9876543210fedcba9876543210';
const fixtures = {
  accounts: [
    { id: ACCOUNT, name: 'Example Corp' },
    { id: OTHER, name: 'Other' },
  ],
  zones: [
    {
      name: 'example.com',
      account: 'Example Corp',
      plan: 'enterprise',
      records: [
        { name: '@', type: 'A', content: '192.0.2.1' },
        { name: 'www', type: 'CNAME', content: 'example.com', proxied: true },
        { name: 'app', type: 'A', content: '192.0.2.9', locked: true, meta: { managed_by_apps: true } },
        // two SRVs and two MXs that differ only in priority are four records (docs/reference/design.md section 2)
        {
          name: '_sip._tcp',
          type: 'SRV',
          data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.com' },
        },
        {
          name: '_sip._tcp',
          type: 'SRV',
          data: { priority: 20, weight: 5, port: 5060, target: 'sip.example.com' },
        },
        { name: '@', type: 'MX', content: 'mx.example.net', priority: 10 },
        { name: '@', type: 'MX', content: 'mx.example.net', priority: 20 },
      ],
    },
    { name: 'other.org', id: '00000000000000000000000000000a11', account: OTHER },
  ],
  tokens: [
    { name: 'admin', value: 'admin-token-000001' },
    {
      name: 'reader',
      value: 'reader-token-000001',
      zones: ['example.com'],
      accounts: [ACCOUNT],
      permissions: 'read',
    },
    {
      name: 'dns-only',
      value: 'dns-token-00000001',
      zones: ['example.com'],
      accounts: [],
      permissions: { dns: 'edit' },
    },
  ],
  keys: [{ email: 'ops@example.com', key: 'global-key-000001', permissions: 'edit' }],
};

let t: TestServer;
let zoneId: string;
const bearer = (v: string) => ({ authorization: `Bearer ${v}` });

beforeAll(async () => {
  t = await startTestServer({ fixtures });
  t.token = 'admin-token-000001';
  zoneId = (await t.api('GET', '/zones?name=example.com')).body.result[0].id;
});
afterAll(() => t.close());

describe('auth matrix', () => {
  it('no credentials: 400 9106', async () => {
    const r = await t.api('GET', '/zones', undefined, {});
    expect(r.status).toBe(400);
    expect(r.body.errors[0].code).toBe(9106);
  });

  it('bad token and bad key: 401 10000', async () => {
    for (const h of [
      bearer('nope-nope-nope'),
      { 'x-auth-email': 'ops@example.com', 'x-auth-key': 'wrong-key-0000' },
    ]) {
      const r = await t.api('GET', '/zones', undefined, h);
      expect(r.status).toBe(401);
      expect(r.body.errors[0].code).toBe(10000);
    }
  });

  it('wrong zone: 403', async () => {
    const r = await t.api(
      'GET',
      '/zones/00000000000000000000000000000a11/dns_records',
      undefined,
      bearer('reader-token-000001'),
    );
    expect(r.status).toBe(403);
    expect(r.body.errors[0].code).toBe(10000);
    const list = await t.api('GET', '/zones', undefined, bearer('reader-token-000001'));
    expect(list.body.result.map((z: { name: string }) => z.name)).toEqual(['example.com']);
  });

  it('read-only token writing: 403; reading works', async () => {
    const h = bearer('reader-token-000001');
    expect((await t.api('GET', `/zones/${zoneId}/dns_records`, undefined, h)).status).toBe(200);
    const w = await t.api(
      'POST',
      `/zones/${zoneId}/dns_records`,
      { type: 'TXT', name: 'x', content: 'y' },
      h,
    );
    expect(w.status).toBe(403);
    expect(w.body.errors[0].code).toBe(10000);
  });

  it('a token without the zone area cannot read zones but can write DNS', async () => {
    const h = bearer('dns-token-00000001');
    expect((await t.api('GET', '/zones', undefined, h)).status).toBe(403);
    expect(
      (await t.api('POST', `/zones/${zoneId}/dns_records`, { type: 'TXT', name: 'x', content: 'y' }, h))
        .status,
    ).toBe(200);
  });

  it('e-mail/key pairs work on DNS', async () => {
    const h = { 'x-auth-email': 'OPS@example.com', 'x-auth-key': 'global-key-000001' };
    expect((await t.api('GET', `/zones/${zoneId}/dns_records`, undefined, h)).status).toBe(200);
  });

  it('/ips is public, accounts list what the credential reaches', async () => {
    const ips = await t.api('GET', '/ips', undefined, {});
    expect(ips.status).toBe(200);
    expect(ips.body.result.ipv4_cidrs).toContain('104.16.0.0/13');
    expect(ips.body.result.ipv6_cidrs).toContain('2606:4700::/32');
    const all = await t.api('GET', '/accounts');
    expect(all.body.result.map((a: { id: string }) => a.id).sort()).toEqual([ACCOUNT, OTHER].sort());
    const mine = await t.api('GET', '/accounts', undefined, bearer('reader-token-000001'));
    expect(mine.body.result.map((a: { id: string }) => a.id)).toEqual([ACCOUNT]);
    expect((await t.api('GET', `/accounts/${OTHER}`, undefined, bearer('reader-token-000001'))).status).toBe(
      403,
    );
    expect((await t.api('GET', `/accounts/${ACCOUNT}`)).body.result).toMatchObject({
      id: ACCOUNT,
      name: 'Example Corp',
    });
  });

  it('no dev token exists when fixtures define credentials', () => {
    expect(t.server.devToken).toBeUndefined();
  });
});

describe('fixtures', () => {
  it('sets plans, records, locked and meta', async () => {
    const z = (await t.api('GET', `/zones/${zoneId}`)).body.result;
    expect(z.plan).toMatchObject({ legacy_id: 'enterprise' });
    expect(z.account).toEqual({ id: ACCOUNT, name: 'Example Corp' });
    expect(z.name_servers).toHaveLength(2);
    const recs = (await t.api('GET', `/zones/${zoneId}/dns_records?name=app.example.com`)).body.result;
    expect(recs[0]).toMatchObject({ locked: true, meta: { managed_by_apps: true, auto_added: false } });
    // enterprise zones take TTL 30
    const r = await t.api('POST', `/zones/${zoneId}/dns_records`, {
      type: 'A',
      name: 'fast',
      content: '192.0.2.3',
      ttl: 30,
    });
    expect(r.status).toBe(200);
  });

  it('keeps records that differ only in priority apart', async () => {
    const srv = (await t.api('GET', `/zones/${zoneId}/dns_records?type=SRV`)).body.result;
    expect(srv.map((r: { priority: number }) => r.priority).sort()).toEqual([10, 20]);
    const mx = (await t.api('GET', `/zones/${zoneId}/dns_records?type=MX`)).body.result;
    expect(mx.map((r: { priority: number }) => r.priority).sort()).toEqual([10, 20]);
    expect(new Set([...srv, ...mx].map((r: { id: string }) => r.id)).size).toBe(4);
  });

  it('loading twice changes nothing, also after a restart', async () => {
    const before = (await t.api('GET', `/zones/${zoneId}/dns_records?per_page=1000`)).body.result;
    await t.restart();
    const again = await fetchTestRoute(t.server, '/fixtures', { method: 'POST', body: fixtures });
    expect(again.status).toBe(200);
    const after = (await t.api('GET', `/zones/${zoneId}/dns_records?per_page=1000`)).body.result;
    expect(after).toEqual(before);
    expect((await t.api('GET', '/zones')).body.result).toHaveLength(2);
  });

  it('bad fixtures name the file, line and path', async () => {
    const file = join(t.dir, 'bad.yaml');
    writeFileSync(file, 'zones:\n  - name: bad.test\n    plan: gold\n');
    await expect(startServer({ db: ':memory:', fixtures: file, quiet: true })).rejects.toThrow(
      /bad\.yaml:3:11: zones\[0\]\.plan: must be one of free, pro, business, enterprise/,
    );
    writeFileSync(
      file,
      'zones:\n  - name: bad.test\n    records:\n      - { name: x, type: A, content: 104.16.0.1 }\n',
    );
    await expect(startServer({ db: ':memory:', fixtures: file, quiet: true })).rejects.toThrow(
      /bad\.yaml:4:\d+: zones\[0\]\.records\[0\]: .*service's own network/,
    );
    writeFileSync(file, 'zones:\n  - name: under_score.test\n');
    await expect(startServer({ db: ':memory:', fixtures: file, quiet: true })).rejects.toThrow(
      /bad\.yaml:2:\d+: zones\[0\]\.name: "under_score\.test" is not a domain name/,
    );
    writeFileSync(file, 'zones:\n  - name: example.123\n');
    await expect(startServer({ db: ':memory:', fixtures: file, quiet: true })).rejects.toThrow(
      /zones\[0\]\.name: "example\.123" is not a domain name/,
    );
    writeFileSync(file, 'pools: []\n');
    await expect(startServer({ db: ':memory:', fixtures: file, quiet: true })).rejects.toThrow(
      /pools: unknown section/,
    );
    writeFileSync(file, 'tokens:\n  - value: sup3r-secret-value\n    permissions: { dns: write }\n');
    const err = await startServer({ db: ':memory:', fixtures: file, quiet: true }).catch((e: Error) => e);
    expect(String(err)).toMatch(/tokens\[0\]\.permissions\.dns: must be read or edit/);
    expect(String(err)).not.toMatch(/sup3r-secret-value/);
  });

  it('fixtures nested past the limit are refused where they get too deep, flow or block, 5,000 levels too', async () => {
    const file = join(t.dir, 'deep.yaml');
    const flow = (n: number) => '['.repeat(n) + ']'.repeat(n);
    writeFileSync(file, `zones:\n  - name: deep.test\n    x: ${flow(63)}\n`);
    await expect(startServer({ db: ':memory:', fixtures: file, quiet: true })).rejects.toThrow(
      /deep\.yaml:3:\d+: nesting deeper than the limit \(64 levels\) starts here/,
    );
    writeFileSync(file, `zones:\n  - name: deep.test\n    x: ${flow(5000)}\n`);
    await expect(startServer({ db: ':memory:', fixtures: file, quiet: true })).rejects.toThrow(
      /deep\.yaml:3:\d+: nesting deeper than the limit \(64 levels\) starts here/,
    );
    // 64 levels is still fine: the document, zones, the zone, and 61 lists
    writeFileSync(file, `zones:\n  - name: deep.test\n    x: ${flow(61)}\n`);
    await expect(startServer({ db: ':memory:', fixtures: file, quiet: true })).rejects.not.toThrow(/nesting/);
  });

  it('the example fixtures load', async () => {
    process.env.ZONEPLAN_LOCAL_TOKEN = 'example-local-token-1';
    const s = await startServer({ db: ':memory:', fixtures: 'examples/fixtures.yaml', quiet: true });
    const r = await fetch(`${s.url}/zones`, { headers: bearer('example-local-token-1') });
    const body = (await r.json()) as any;
    expect(body.result.map((z: { name: string }) => z.name)).toEqual(['example.com', 'example.org']);
    await s.close();
  });
});

describe('token-only areas', () => {
  it('refuse e-mail/key pairs with 403 and accept tokens', async () => {
    const s = await startServer({
      db: ':memory:',
      quiet: true,
      fixtures,
      areas: [
        {
          name: 'fake_page_shield',
          routes(router) {
            router.add({
              method: 'GET',
              path: '/zones/:zone_id/fake_page_shield',
              area: 'page_shield',
              handler: () => ({ result: { ok: 1 } }),
            });
          },
        },
      ],
    });
    const path = `${s.url}/zones/${zoneId}/fake_page_shield`;
    const key = await fetch(path, {
      headers: { 'x-auth-email': 'ops@example.com', 'x-auth-key': 'global-key-000001' },
    });
    expect(key.status).toBe(403);
    expect(((await key.json()) as any).errors[0].message).toMatch(/tokens only/);
    const token = await fetch(path, { headers: bearer('admin-token-000001') });
    expect(token.status).toBe(200);
    const dnsOnly = await fetch(path, { headers: bearer('dns-token-00000001') });
    expect(dnsOnly.status).toBe(403);
    await s.close();
  });
});

describe('token verification', () => {
  it('answers /user/tokens/verify for tokens and refuses keys', async () => {
    const ok = await t.api('GET', '/user/tokens/verify');
    expect(ok.body.result).toMatchObject({ status: 'active' });
    expect(ok.body.result.id).toMatch(/^[0-9a-f]{32}$/);
    const key = await t.api('GET', '/user/tokens/verify', undefined, {
      'x-auth-email': 'ops@example.com',
      'x-auth-key': 'global-key-000001',
    });
    expect(key.status).toBe(400);
    expect(key.body.errors[0].code).toBe(1000);
  });
});
