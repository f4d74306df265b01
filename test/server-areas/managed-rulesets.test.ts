/**
 * The managed rulesets catalogue of the local API: the three managed rulesets with their fixed
 * ids listed beside the zone's own, their rules (generated, the same in every run), later
 * versions given by fixtures or published by the test route, and the entry point PUT that
 * replaces every rule and keeps the id of every rule sent with one.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createZone, startTestServer, type TestServer } from '../server/helpers.js';
import { testCall } from './setup.js';

const CLOUDFLARE = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
const CREDENTIALS = 'c2e184081120413c86c3ab7e14069605';
const BAD_ROBOTS = '5de7edfa648c4d6891dc3e7f84534ffa';
const WORDPRESS_XSS = 'e3a567afc347477d9702d9047e97d760';
const SCORE_RULE = '6179ae15870a4bb7b2d480d4843b323c';
const ADDED = 'abcdef0123456789abcdef0123456789';

type Rule = {
  id: string;
  version: string;
  action: string;
  categories: string[];
  description: string;
  enabled: boolean;
  last_updated: string;
  ref: string;
};

let t: TestServer;
let zone: string;
beforeAll(async () => {
  t = await startTestServer({
    fixtures: {
      managed_rulesets: [
        {
          id: CLOUDFLARE,
          versions: [
            {
              add: [
                { id: ADDED, description: 'Drupal - SQLi - CVE-2026-1001', categories: ['drupal', 'sqli'] },
              ],
              remove: [WORDPRESS_XSS],
              change: [{ id: BAD_ROBOTS, action: 'log' }],
            },
          ],
        },
      ],
    },
  });
  zone = await createZone(t, 'catalogue.example');
});
afterAll(() => t.close());

const rulesets = (path = '') => `/zones/${zone}/rulesets${path}`;
const entry = (path = '') => rulesets(`/phases/http_request_firewall_managed/entrypoint${path}`);
const rulesOf = async (path: string): Promise<Rule[]> =>
  (await t.api('GET', rulesets(path))).body.result.rules;

describe('the managed rulesets catalogue', () => {
  it('lists the three managed rulesets, without rules, beside the zone own', async () => {
    const listed = (await t.api('GET', rulesets())).body.result;
    expect(listed.map((r: { id: string }) => r.id)).toEqual([CLOUDFLARE, OWASP, CREDENTIALS]);
    for (const r of listed) {
      expect(Object.keys(r).sort()).toEqual([
        'description',
        'id',
        'kind',
        'last_updated',
        'name',
        'phase',
        'version',
      ]);
      expect(r).toMatchObject({ kind: 'managed', phase: 'http_request_firewall_managed' });
    }
    expect(listed[0]).toMatchObject({ name: 'Cloudflare Managed Ruleset', version: '2' });

    const put = await t.api('PUT', entry(), {
      rules: [{ action: 'execute', expression: 'true', action_parameters: { id: CLOUDFLARE } }],
    });
    expect(put.status).toBe(200);
    const after = (await t.api('GET', rulesets())).body.result;
    expect(after[0]).toMatchObject({
      id: put.body.result.id,
      kind: 'zone',
      phase: 'http_request_firewall_managed',
    });
    expect(after.slice(1).map((r: { id: string }) => r.id)).toEqual([CLOUDFLARE, OWASP, CREDENTIALS]);
  });

  it('serves version 1 of the Cloudflare Managed Ruleset: 400 rules, the same in every run', async () => {
    const rules = await rulesOf(`/${CLOUDFLARE}/versions/1`);
    expect(rules).toHaveLength(400);
    expect(new Set(rules.map((r) => r.id)).size).toBe(400);
    for (const r of rules) {
      expect(Object.keys(r).sort()).toEqual([
        'action',
        'categories',
        'description',
        'enabled',
        'id',
        'last_updated',
        'ref',
        'version',
      ]);
      expect(r.id).toMatch(/^[0-9a-f]{32}$/);
      expect(r.categories.length).toBeGreaterThan(0);
    }
    expect(rules.find((r) => r.id === BAD_ROBOTS)).toMatchObject({
      action: 'block',
      enabled: true,
      version: '1',
    });
    expect(rules.find((r) => r.id === WORDPRESS_XSS)).toMatchObject({ categories: ['wordpress', 'xss'] });
    expect(new Set(rules.map((r) => r.action))).toEqual(new Set(['block', 'log', 'managed_challenge']));
    expect(rules.filter((r) => !r.enabled).length).toBeGreaterThan(10);
    expect(rules.some((r) => /^Drupal - SQLi - CVE-\d{4}-\d+$/.test(r.description))).toBe(true);
    // the generator is seeded: a change to it changes every id a test may have copied
    const digest = createHash('sha256')
      .update(rules.map((r) => r.id).join(','))
      .digest('hex');
    expect(digest.slice(0, 16)).toBe('eb762a24cc604797');
  });

  it('serves the OWASP Core Ruleset with its paranoia levels and the 949110 score rule', async () => {
    const rules = await rulesOf(`/${OWASP}`);
    const categories = new Set(rules.flatMap((r) => r.categories));
    for (const level of [1, 2, 3, 4]) expect(categories).toContain(`paranoia-level-${level}`);
    expect(rules.at(-1)).toMatchObject({
      id: SCORE_RULE,
      description: '949110: Inbound Anomaly Score Exceeded',
    });
    expect(rules.length).toBeGreaterThan(80);
  });

  it('serves the Exposed Credentials Check with a few rules', async () => {
    const res = (await t.api('GET', rulesets(`/${CREDENTIALS}`))).body.result;
    expect(res).toMatchObject({ name: 'Cloudflare Exposed Credentials Check Ruleset', kind: 'managed' });
    expect(res.rules.length).toBeGreaterThanOrEqual(5);
  });

  it('replays a version given by fixtures: a rule added, one removed, a default action changed', async () => {
    const versions = (await t.api('GET', rulesets(`/${CLOUDFLARE}/versions`))).body.result;
    expect(versions.map((v: { version: string }) => v.version)).toEqual(['1', '2']);
    expect(versions[1].last_updated).toBe('2026-01-06T00:00:00.000000Z');
    const latest = await rulesOf(`/${CLOUDFLARE}`);
    expect(latest).toHaveLength(400);
    expect(latest.find((r) => r.id === WORDPRESS_XSS)).toBeUndefined();
    expect(latest.find((r) => r.id === BAD_ROBOTS)).toMatchObject({ action: 'log', version: '2' });
    expect(latest.at(-1)).toMatchObject({
      id: ADDED,
      action: 'block',
      enabled: true,
      version: '2',
      ref: ADDED,
    });
    // version 1 is unchanged
    const first = await rulesOf(`/${CLOUDFLARE}/versions/1`);
    expect(first.find((r) => r.id === BAD_ROBOTS)).toMatchObject({ action: 'block', version: '1' });
  });

  it('publishes a new version at runtime, which a reload of the fixtures keeps', async () => {
    const published = await testCall(t, 'POST', `/rulesets/${OWASP}/versions`, {
      change: [{ id: SCORE_RULE, enabled: false }],
    });
    expect(published.status).toBe(200);
    expect(published.body.result).toMatchObject({ id: OWASP, version: '2' });
    expect((await rulesOf(`/${OWASP}`)).at(-1)).toMatchObject({
      id: SCORE_RULE,
      enabled: false,
      version: '2',
    });
    await testCall(t, 'POST', '/fixtures', { managed_rulesets: [{ id: OWASP, versions: [] }] });
    expect((await t.api('GET', rulesets(`/${OWASP}`))).body.result.version).toBe('2');

    const bad = await testCall(t, 'POST', `/rulesets/${OWASP}/versions`, { remove: [WORDPRESS_XSS] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].message).toBe(`remove[0]: ${WORDPRESS_XSS} is not a rule of version 2`);
    expect((await t.api('GET', rulesets(`/${OWASP}`))).body.result.version).toBe('2');
  });

  it('refuses a bad managed_rulesets section, saying where, and a restart keeps every version', async () => {
    const start = (managed_rulesets: unknown) => t.restart({ fixtures: { managed_rulesets } });
    await expect(start([{ id: ADDED, versions: [] }])).rejects.toThrow(
      /managed_rulesets\[0\]\.id: must be the id of a managed ruleset/,
    );
    await expect(
      start([{ id: CLOUDFLARE, versions: [{ add: [{ id: ADDED, description: 'x' }] }] }]),
    ).rejects.toThrow(/managed_rulesets\[0\]\.versions\[0\]\.add\[0\]\.categories: must be a non-empty list/);
    await expect(start([{ id: CLOUDFLARE, versions: [{ remove: [ADDED] }] }])).rejects.toThrow(
      new RegExp(
        `managed_rulesets\\[0\\]\\.versions\\[0\\]\\.remove\\[0\\]: ${ADDED} is not a rule of version 1`,
      ),
    );
    await t.restart();
    expect((await t.api('GET', rulesets(`/${CLOUDFLARE}`))).body.result.version).toBe('2');
    expect((await t.api('GET', rulesets(`/${OWASP}`))).body.result.version).toBe('2');
  });

  it('answers a bad document posted to the test route with a 400 that names the place', async () => {
    const r = await testCall(t, 'POST', '/fixtures', {
      managed_rulesets: [{ id: CLOUDFLARE, versions: [{ change: [{ id: ADDED, action: 'deny' }] }] }],
    });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatchObject({
      code: 1000,
      message:
        'POST /__zoneplan/fixtures: managed_rulesets[0].versions[0].change[0].action: must be one of block, log, managed_challenge, js_challenge, challenge',
    });
    expect((await t.api('GET', rulesets(`/${CLOUDFLARE}`))).body.result.version).toBe('2');
  });

  it('answers 404 for an unknown ruleset or version, 400 for a malformed one', async () => {
    expect((await t.api('GET', rulesets(`/${ADDED}`))).status).toBe(404);
    expect((await t.api('GET', rulesets(`/${CLOUDFLARE}/versions/9`))).status).toBe(404);
    expect((await t.api('GET', rulesets(`/${CLOUDFLARE}/versions/latest`))).status).toBe(400);
    expect((await t.api('GET', rulesets('/not-an-id'))).status).toBe(400);
  });
});

describe('the entry point PUT', () => {
  const execute = (id: string, extra: Record<string, unknown> = {}) => ({
    action: 'execute',
    expression: 'true',
    action_parameters: { id },
    ...extra,
  });

  it('keeps the id of every rule sent with one, gives new ids to the others, and replaces all', async () => {
    const chosen = '0123456789abcdef0123456789abcdef';
    const first = await t.api('PUT', entry(), {
      rules: [execute(CLOUDFLARE, { id: chosen }), execute(OWASP), execute(CREDENTIALS)],
    });
    expect(first.status).toBe(200);
    const [a, b, c] = first.body.result.rules;
    expect(a.id).toBe(chosen);
    expect(b.id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set([a.id, b.id, c.id]).size).toBe(3);

    const second = await t.api('PUT', entry(), { rules: [execute(OWASP, { id: b.id, enabled: false })] });
    // a kept rule keeps its id and ref; its version moves because it changed
    expect(second.body.result.rules).toMatchObject([{ id: b.id, ref: b.ref, enabled: false, version: '2' }]);
    expect((await t.api('GET', entry())).body.result.rules.map((r: { id: string }) => r.id)).toEqual([b.id]);

    // every version stays readable, by id and by phase
    const id = second.body.result.id;
    const byId = (await t.api('GET', rulesets(`/${id}/versions`))).body.result;
    const byPhase = (await t.api('GET', entry('/versions'))).body.result;
    expect(byId.map((v: { version: string }) => v.version)).toEqual(['1', '2', '3']);
    expect(byPhase).toEqual(byId);
    expect((await t.api('GET', entry('/versions/2'))).body.result.rules).toHaveLength(3);
    expect((await t.api('GET', rulesets(`/${id}`))).body.result.version).toBe('3');
  });

  it('refuses two rules with one id, and a malformed id, changing nothing', async () => {
    const dup = '11111111111111111111111111111111';
    const twice = await t.api('PUT', entry(), {
      rules: [execute(CLOUDFLARE, { id: dup }), execute(OWASP, { id: dup })],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.errors[0].message).toBe(`rules[1].id: ${dup} is the id of another rule of this body`);
    const malformed = await t.api('PUT', entry(), { rules: [execute(CLOUDFLARE, { id: 'rule-1' })] });
    expect(malformed.status).toBe(400);
    expect((await t.api('GET', entry())).body.result.version).toBe('3');
  });

  it('takes the OWASP score threshold and sensitivity levels, as the published override shape has them', async () => {
    const owasp = (overrides: Record<string, unknown>) => ({
      rules: [execute(OWASP, { action_parameters: { id: OWASP, overrides } })],
    });
    const ok = await t.api(
      'PUT',
      entry(),
      owasp({
        categories: [
          { category: 'paranoia-level-3', enabled: false },
          { category: 'sqli', sensitivity_level: 'low' },
        ],
        rules: [{ id: SCORE_RULE, score_threshold: 40, action: 'managed_challenge' }],
      }),
    );
    expect(ok.status).toBe(200);
    expect(ok.body.result.rules[0].action_parameters.overrides.rules).toEqual([
      { id: SCORE_RULE, score_threshold: 40, action: 'managed_challenge' },
    ]);
    const bad = await t.api(
      'PUT',
      entry(),
      owasp({
        rules: [{ id: SCORE_RULE, score_threshold: 'medium' }],
        categories: [{ category: 'sqli', sensitivity_level: 'high' }],
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { message: string }) => e.message)).toEqual([
      'rules[0].action_parameters.overrides.rules[0].score_threshold: must be a whole number',
      'rules[0].action_parameters.overrides.categories[0].sensitivity_level: must be one of default, medium, low, eoff',
    ]);
    const empty = await t.api('PUT', entry(), owasp({ rules: [{ id: SCORE_RULE }] }));
    expect(empty.body.errors[0].message).toBe(
      'rules[0].action_parameters.overrides.rules[0]: an override sets action, enabled, score_threshold or sensitivity_level',
    );
  });

  it('round-trips 380 rule overrides of the Cloudflare Managed Ruleset, as sent', async () => {
    const catalogue = await rulesOf(`/${CLOUDFLARE}`);
    const overrides = catalogue
      .slice(0, 380)
      .map((r, i) =>
        i % 3 === 0
          ? { id: r.id, action: 'log' }
          : i % 3 === 1
            ? { id: r.id, enabled: false }
            : { id: r.id, action: 'managed_challenge', enabled: true },
      );
    const body = {
      rules: [
        execute(CLOUDFLARE, { action_parameters: { id: CLOUDFLARE, overrides: { rules: overrides } } }),
      ],
    };
    expect((await t.api('PUT', entry(), body)).status).toBe(200);
    const stored = (await t.api('GET', entry())).body.result.rules[0].action_parameters.overrides.rules;
    expect(stored).toEqual(overrides);
  });

  it('accepts overrides of rules and categories the ruleset does not have (a retired rule keeps its override)', async () => {
    const res = await t.api('PUT', entry(), {
      rules: [
        execute(CLOUDFLARE, {
          action_parameters: {
            id: CLOUDFLARE,
            overrides: {
              rules: [{ id: WORDPRESS_XSS, action: 'log' }],
              categories: [{ category: 'no-such-tag', enabled: false }],
            },
          },
        }),
      ],
    });
    expect(res.status).toBe(200);
    const unknownRuleset = await t.api('PUT', entry(), { rules: [execute(ADDED)] });
    expect(unknownRuleset.status).toBe(400);
    expect(unknownRuleset.body.errors[0].message).toMatch(/is not a managed ruleset/);
  });
});

describe('a copy of another target catalogue (managed_rulesets[].base)', () => {
  const R1 = '1111111111111111111111111111aaaa';
  const R2 = '2222222222222222222222222222bbbb';
  const copy = {
    version: '82',
    last_updated: '2025-06-01T00:00:00.123456Z',
    rules: [
      { id: R1, action: 'block', categories: ['wordpress'], description: 'WordPress - RCE' },
      { id: R2, action: 'score', categories: [], enabled: false, version: '80', ref: 'owasp-920100' },
    ],
  };
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      fixtures: { managed_rulesets: [{ id: CLOUDFLARE, base: copy, versions: [{ remove: [R1] }] }] },
    });
  });
  afterAll(() => s.close());
  const zoneOf = async () => createZone(s, `copy-${Math.random().toString(36).slice(2, 8)}.example`);

  it('serves the copy as the first version, and the later versions on top of it', async () => {
    const z = await zoneOf();
    const versions = (await s.api('GET', `/zones/${z}/rulesets/${CLOUDFLARE}/versions`)).body.result;
    expect(
      versions.map((v: { version: string; last_updated: string }) => [v.version, v.last_updated]),
    ).toEqual([
      ['82', '2025-06-01T00:00:00.123456Z'],
      ['83', '2025-06-02T00:00:00.123000Z'],
    ]);
    const first = (await s.api('GET', `/zones/${z}/rulesets/${CLOUDFLARE}/versions/82`)).body.result;
    expect(first).toMatchObject({ name: 'Cloudflare Managed Ruleset', kind: 'managed', version: '82' });
    expect(first.rules).toEqual([
      { ...copy.rules[0], version: '82', last_updated: copy.last_updated, ref: R1, enabled: true },
      { ...copy.rules[1], description: '', last_updated: copy.last_updated },
    ]);
    expect(
      (await s.api('GET', `/zones/${z}/rulesets/${CLOUDFLARE}`)).body.result.rules.map((r: Rule) => r.id),
    ).toEqual([R2]);
    expect((await s.api('GET', `/zones/${z}/rulesets/${CLOUDFLARE}/versions/1`)).status).toBe(404);
  });

  it('follows the file: the same file changes nothing, an entry without base brings back the generated one', async () => {
    await s.restart();
    const z = await zoneOf();
    expect((await s.api('GET', `/zones/${z}/rulesets/${CLOUDFLARE}`)).body.result.version).toBe('83');
    await s.restart({ fixtures: { managed_rulesets: [{ id: CLOUDFLARE }] } });
    const latest = (await s.api('GET', `/zones/${z}/rulesets/${CLOUDFLARE}`)).body.result;
    expect(latest).toMatchObject({ version: '1' });
    expect(latest.rules).toHaveLength(400);
  });

  it('refuses a bad copy, saying where', async () => {
    const bad = { ...copy, rules: [{ ...copy.rules[0], id: 'R1' }] };
    await expect(
      s.restart({ fixtures: { managed_rulesets: [{ id: CLOUDFLARE, base: bad }] } }),
    ).rejects.toThrow(
      /managed_rulesets\[0\]\.base\.rules\[0\]\.id: must be 32 lowercase hexadecimal characters/,
    );
    await expect(
      s.restart({
        fixtures: { managed_rulesets: [{ id: CLOUDFLARE, base: { ...copy, version: 'latest' } }] },
      }),
    ).rejects.toThrow(/managed_rulesets\[0\]\.base\.version: must be a version number/);
    await s.restart({ fixtures: {} });
  });
});
