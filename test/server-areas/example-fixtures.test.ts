import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../server/helpers.js';

const file = fileURLToPath(new URL('../../examples/fixtures-full.yaml', import.meta.url));
const TOKEN = 'example-full-token-0123456789';
let t: TestServer;
beforeAll(async () => {
  process.env.ZONEPLAN_LOCAL_TOKEN = TOKEN;
  t = await startTestServer({ fixtures: file });
  t.token = TOKEN;
});
afterAll(() => t.close());

describe('examples/fixtures-full.yaml', () => {
  it('loads every section and serves it', async () => {
    const zones = (await t.api('GET', '/zones?name=example.com')).body.result;
    const zone = zones[0].id;
    const account = zones[0].account.id;
    expect((await t.api('GET', `/zones/${zone}/dns_records?type=A`)).body.result).toHaveLength(1);
    expect((await t.api('GET', `/zones/${zone}/page_shield`)).body.result.enabled).toBe(true);
    const scripts = (await t.api('GET', `/zones/${zone}/page_shield/scripts?prioritize_malicious=true`)).body
      .result;
    expect(scripts.map((s: { url: string }) => s.url)).toEqual([
      'https://evil.example.org/skimmer.js',
      'https://cdn.example.net/analytics.js',
    ]);
    expect((await t.api('GET', `/zones/${zone}/page_shield/cookies`)).body.result).toHaveLength(1);
    expect((await t.api('GET', `/zones/${zone}/waf_migration/check?phase_two=1`)).body.result).toEqual({
      compatible: true,
      migration_state: 'start',
    });
    const cfg = (await t.api('GET', `/zones/${zone}/waf_migration/config?phase_two=1`)).body.result;
    expect(cfg.rules[0].action_parameters.overrides.rules).toContainEqual({
      id: '5de7edfa648c4d6891dc3e7f84534ffa',
      action: 'block',
      enabled: true,
    });
    const pools = (await t.api('GET', `/accounts/${account}/load_balancers/pools`)).body.result;
    expect(pools.map((p: { name: string }) => p.name)).toEqual(['apac-backup', 'eu-primary', 'us-primary']);
    const shop = (await t.api('GET', '/zones?name=shop.example.net')).body.result[0].id;
    expect(
      (await t.api('GET', `/zones/${shop}/waf_migration/check?phase_two=1`)).body.result.compatible,
    ).toBe(false);
    const reader = { authorization: 'Bearer page-shield-reader-token-0001' };
    expect((await t.api('GET', `/zones/${zone}/page_shield`, undefined, reader)).status).toBe(200);
    expect((await t.api('PUT', `/zones/${zone}/page_shield`, { enabled: false }, reader)).status).toBe(403);
    const key = { 'x-auth-email': 'ops@example.com', 'x-auth-key': 'example-global-key-0001' };
    expect((await t.api('GET', `/zones/${zone}/logpush/jobs`, undefined, key)).status).toBe(200);
  });

  it('migrates example.com to overrides of rules the catalogue has, each with its description', async () => {
    const zone = (await t.api('GET', '/zones?name=example.com')).body.result[0].id;
    const cfg = (await t.api('GET', `/zones/${zone}/waf_migration/config?phase_two=1`)).body.result;
    const execute = cfg.rules[0].action_parameters;
    const catalogue = (await t.api('GET', `/zones/${zone}/rulesets/${execute.id}`)).body.result;
    const known = new Set(catalogue.rules.map((r: { id: string }) => r.id));
    const overridden = execute.overrides.rules.map((o: { id: string }) => o.id);
    expect(overridden).toEqual(expect.arrayContaining(['8f0e924b22a183816f44a7649c033ff1']));
    expect(overridden.filter((id: string) => !known.has(id))).toEqual([]);
  });

  it('reports a bad fixture with its file, line and path', async () => {
    await expect(
      startTestServer({
        fixtures: { zones: [{ name: 'bad.example', plan: 'pro', waf: { firewall_rules: -1 } }] },
      }),
    ).rejects.toThrow(/zones\[0\]\.waf\.firewall_rules: must be a whole number/);
  });
});
