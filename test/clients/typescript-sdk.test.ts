/**
 * The official TypeScript SDK (npm `cloudflare`) against the local API, unchanged but for its
 * `baseURL`: its page iterator over zones (paging by result_info), a zone filter, and a DNS record
 * created, listed, read and deleted, with an API token and with an e-mail and global key; and the
 * managed rulesets listed and read (rulesets, versions) with the token. The assertions read the
 * server's stored state through our own plain HTTP calls.
 */
import Cloudflare from 'cloudflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server/helpers.js';

const TOKEN = 'sdk-token-0000000000000001';
const EMAIL = 'sdk@example.com';
const KEY = 'sdk-global-key-000000001';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({
    fixtures: {
      accounts: [{ id: '0123456789abcdef0123456789abcdef', name: 'SDK' }],
      // more zones than one page of the SDK's default request, so its iterator has to page
      zones: Array.from({ length: 23 }, (_, i) => ({
        name: `zone-${String(i).padStart(2, '0')}.example`,
        account: 'SDK',
        status: 'active',
      })),
      tokens: [{ name: 'sdk', value: TOKEN, zones: 'all', accounts: 'all', permissions: 'edit' }],
      keys: [{ email: EMAIL, key: KEY, zones: 'all', accounts: 'all', permissions: 'edit' }],
    },
  });
  t.token = TOKEN;
});
afterAll(() => t?.close());

describe.each([
  ['an API token', () => new Cloudflare({ baseURL: t.url, apiToken: TOKEN, maxRetries: 0 })],
  [
    'an e-mail and global key',
    () => new Cloudflare({ baseURL: t.url, apiEmail: EMAIL, apiKey: KEY, apiToken: null, maxRetries: 0 }),
  ],
] as const)('the official TypeScript SDK with %s', (_how, client) => {
  it('pages through every zone, and filters by name with any per_page', async () => {
    const cf = client();
    const names: string[] = [];
    for await (const zone of cf.zones.list()) names.push(zone.name);
    expect(names).toHaveLength(23);
    expect(new Set(names).size).toBe(23);
    // per_page 1 is below the zones list's minimum: served as 5, as the real API does
    const one = await cf.zones.list({ name: 'zone-07.example', per_page: 1 });
    expect(one.result.map((z) => z.name)).toEqual(['zone-07.example']);
  });

  it('creates, lists, reads and deletes a DNS record', async () => {
    const cf = client();
    const zone = (await cf.zones.list({ name: 'zone-03.example' })).result[0];
    const created = await cf.dns.records.create({
      zone_id: zone.id,
      type: 'TXT',
      name: '_acme-challenge.zone-03.example',
      content: 'sdk-validation',
      ttl: 120,
    });
    expect(created).toMatchObject({ type: 'TXT', name: '_acme-challenge.zone-03.example', ttl: 120 });
    const stored = await t.api('GET', `/zones/${zone.id}/dns_records?type=TXT`);
    expect(stored.body.result.map((r: { id: string }) => r.id)).toEqual([created.id]);

    const listed = [];
    for await (const r of cf.dns.records.list({ zone_id: zone.id, type: 'TXT', per_page: 1 })) listed.push(r);
    expect(listed.map((r) => r.id)).toEqual([created.id]);
    expect((await cf.dns.records.get(created.id, { zone_id: zone.id })).content).toBe('sdk-validation');

    expect(await cf.dns.records.delete(created.id, { zone_id: zone.id })).toEqual({ id: created.id });
    expect((await t.api('GET', `/zones/${zone.id}/dns_records?type=TXT`)).body.result).toEqual([]);
  });
});

describe('the official TypeScript SDK reading the managed rulesets (API token: rulesets take tokens only)', () => {
  const CLOUDFLARE = 'efb7b8c949ac4650a09736fc376e9aee';
  const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
  const CREDENTIALS = 'c2e184081120413c86c3ab7e14069605';
  const cf = () => new Cloudflare({ baseURL: t.url, apiToken: TOKEN, maxRetries: 0 });
  const zoneId = async () => (await cf().zones.list({ name: 'zone-05.example' })).result[0].id;

  it('lists them beside the zone own (rulesets.list), and reads one with its rules (rulesets.get)', async () => {
    const zone_id = await zoneId();
    const body = {
      rules: [{ action: 'execute', expression: 'true', action_parameters: { id: CLOUDFLARE } }],
    };
    const entry = await t.api(
      'PUT',
      `/zones/${zone_id}/rulesets/phases/http_request_firewall_managed/entrypoint`,
      body,
    );
    expect(entry.status).toBe(200);
    const listed = [];
    for await (const r of cf().rulesets.list({ zone_id })) listed.push(r);
    expect(listed.map((r) => [r.id, r.kind])).toEqual([
      [entry.body.result.id, 'zone'],
      [CLOUDFLARE, 'managed'],
      [OWASP, 'managed'],
      [CREDENTIALS, 'managed'],
    ]);
    const managed = await cf().rulesets.get(CLOUDFLARE, { zone_id });
    expect(managed).toMatchObject({ name: 'Cloudflare Managed Ruleset', kind: 'managed', version: '1' });
    expect(managed.rules).toHaveLength(400);
    expect(managed.rules.find((r) => r.id === '5de7edfa648c4d6891dc3e7f84534ffa')).toMatchObject({
      action: 'block',
      enabled: true,
      categories: ['bad-robots', 'user-agent'],
    });
    // what the SDK read is what the server stores
    expect(managed).toEqual((await t.api('GET', `/zones/${zone_id}/rulesets/${CLOUDFLARE}`)).body.result);
  });

  it('reads a version (rulesets.versions.get) and lists them (rulesets.versions.list)', async () => {
    const zone_id = await zoneId();
    const version = await cf().rulesets.versions.get('1', { ruleset_id: OWASP, zone_id });
    expect(version).toMatchObject({ id: OWASP, version: '1' });
    expect(version.rules.at(-1)).toMatchObject({ id: '6179ae15870a4bb7b2d480d4843b323c' });
    const versions = [];
    for await (const v of cf().rulesets.versions.list(OWASP, { zone_id })) versions.push(v.version);
    expect(versions).toEqual(['1']);
  });
});
