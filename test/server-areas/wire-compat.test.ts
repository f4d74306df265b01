// Wire compatibility of the part-2 areas, over real HTTP: deep Logpush filters, result_info on
// whole lists, ruleset phase/action enums, the final WAF migration step, malformed ids, and
// page_urls of a single connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../server/helpers.js';
import { ACCOUNT, PREVIOUS_WAF, ZONES, startAreaServer } from './setup.js';

let t: TestServer;
beforeAll(async () => {
  t = await startAreaServer();
});
afterAll(() => t.close());

const ps = `/zones/${ZONES.pro}/page_shield`;
const alerting = `/accounts/${ACCOUNT}/alerting/v3/policies`;
const pools = `/accounts/${ACCOUNT}/load_balancers/pools`;
const WAF_PACKAGE = PREVIOUS_WAF.packages[0].id;
const messages = (r: { body: { errors: { message: string }[] } }) => r.body.errors.map((e) => e.message);

describe('Logpush: a deeply nested filter', () => {
  it('is a 400 envelope naming the size and the nesting, not a 500', async () => {
    let s = '{"key":"ClientIP","operator":"eq","value":"x"}';
    for (let i = 0; i < 3000; i++) s = `{"and":[${s}]}`;
    const filter = `{"where":${s}}`;
    const r = await t.api('POST', `/zones/${ZONES.pro}/logpush/jobs`, {
      name: 'deep',
      dataset: 'http_requests',
      destination_conf: 'https://logs.example.com/ingest',
      filter,
    });
    expect(r.status, r.text).toBe(400);
    expect(r.body).toMatchObject({ success: false, result: null });
    expect(r.body.errors.map((e) => e.code)).toEqual([1002, 1002]);
    expect(messages(r)).toEqual([
      `filter: is ${Buffer.byteLength(filter)} bytes; a filter may be at most 1000 bytes`,
      'filter.where: nests "and"/"or" groups more than 100 levels deep',
    ]);
    expect(r.body.errors[1].source).toEqual({ pointer: '/filter/where' });
  });
});

/** result_info of an empty list returned whole (per_page is at least 1) */
const EMPTY_LIST_INFO = { page: 1, per_page: 1, count: 0, total_count: 0, total_pages: 0 };

describe('result_info on lists returned whole', () => {
  it('GET page_shield/policies carries page, per_page, count, total_count, total_pages', async () => {
    const empty = await t.api('GET', `${ps}/policies`);
    expect(empty.body.result_info).toEqual(EMPTY_LIST_INFO);
    const policy = {
      description: 'd',
      action: 'log',
      expression: 'http.host eq "pro.example"',
      enabled: true,
      value: "script-src 'self'",
    };
    for (let i = 0; i < 2; i++) expect((await t.api('POST', `${ps}/policies`, policy)).status).toBe(200);
    const two = await t.api('GET', `${ps}/policies`);
    expect(two.body.result).toHaveLength(2);
    expect(two.body.result_info).toEqual({ page: 1, per_page: 2, count: 2, total_count: 2, total_pages: 1 });
  });

  it('GET alerting/v3/policies carries it too', async () => {
    const empty = await t.api('GET', alerting);
    expect(empty.body.result_info).toEqual(EMPTY_LIST_INFO);
    const created = await t.api('POST', alerting, {
      name: 'pool health',
      alert_type: 'load_balancing_health_alert',
      enabled: true,
      mechanisms: { email: [{ id: 'ops@example.com' }] },
    });
    expect(created.status, created.text).toBe(200);
    const one = await t.api('GET', alerting);
    expect(one.body.result_info).toEqual({ page: 1, per_page: 1, count: 1, total_count: 1, total_pages: 1 });
  });
});

describe('rulesets entry point: OpenAPI enums', () => {
  const entry = (phase: string) => `/zones/${ZONES.pro}/rulesets/phases/${phase}/entrypoint`;
  const rule = (extra: Record<string, unknown> = {}) => ({ action: 'block', expression: 'true', ...extra });

  it('refuses a phase outside rulesets_RulesetPhase on PUT and GET', async () => {
    for (const method of ['PUT', 'GET']) {
      const body = method === 'PUT' ? { rules: [rule()] } : undefined;
      const r = await t.api(method, entry('http_request_everything'), body);
      expect(r.status).toBe(400);
      expect(r.body.errors[0].code).toBe(1002);
      expect(messages(r)[0]).toMatch(
        /^"http_request_everything" is not a ruleset phase; use one of ddos_l4,/,
      );
    }
  });

  it('refuses unknown actions, non-object action_parameters and non-array overrides.rules', async () => {
    const r = await t.api('PUT', entry('http_request_firewall_custom'), {
      rules: [
        rule({ action: 'explode' }),
        rule({ action: 'log', action_parameters: 'loud' }),
        rule({ action: 'execute', action_parameters: { id: 'a'.repeat(32), overrides: { rules: {} } } }),
        rule({
          action: 'execute',
          action_parameters: { id: 'a'.repeat(32), overrides: { rules: [{ id: 'x' }] } },
        }),
      ],
    });
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e) => [e.code, e.source.pointer])).toEqual([
      [1002, '/rules/0/action'],
      [1002, '/rules/1/action_parameters'],
      [1002, '/rules/2/action_parameters/overrides/rules'],
      [1002, '/rules/3/action_parameters/overrides/rules/0/id'],
    ]);
    expect(messages(r)[0]).toMatch(/"explode" is not a rule action; use one of block, challenge/);
  });

  it('refuses non-object action_parameters in the managed phase as well', async () => {
    const r = await t.api('PUT', entry('http_request_firewall_managed'), {
      rules: [rule({ action: 'log', action_parameters: [1] })],
    });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].source.pointer).toBe('/rules/0/action_parameters');
  });

  it('accepts a valid body in another phase', async () => {
    const r = await t.api('PUT', entry('http_request_firewall_custom'), {
      rules: [rule(), rule({ action: 'skip', action_parameters: { ruleset: 'current' } })],
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.result).toMatchObject({ phase: 'http_request_firewall_custom', kind: 'zone' });
  });
});

describe('WAF migration: the final step re-checks URI-based overrides', () => {
  const z = ZONES.enterprise;
  const mig = `/zones/${z}/waf_migration`;
  const put = (mode: string, body: unknown) =>
    t.api(
      'PUT',
      `/zones/${z}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=${mode}&phase_two=1`,
      body,
    );

  it('refuses validation -> pending while an override created during validation exists', async () => {
    const config = (await t.api('GET', `${mig}/config?phase_two=1`)).body.result;
    expect((await put('validation', config)).status).toBe(200);
    const o = await t.api('POST', `/zones/${z}/firewall/waf/overrides`, {
      urls: ['ent.example/admin/*'],
      rules: { f939de3be84e66e757adcdcb87908023: 'block' },
    });
    expect(o.status, o.text).toBe(200);
    const check = await t.api('GET', `${mig}/check?phase_two=1`);
    expect(check.body.result).toEqual({ compatible: false, migration_state: 'validation' });

    const refused = await put('pending', config);
    expect(refused.status).toBe(400);
    // the same code and message as the check's reason
    expect(refused.body.errors).toEqual(check.body.messages);
    expect(refused.body.errors).toEqual([
      { code: 1011, message: 'the zone has 1 URI-based WAF override(s); delete them before migrating' },
    ]);
    expect((await t.api('GET', `${mig}/status`)).body.result.migration_state).toBe('validation');

    await t.api('DELETE', `/zones/${z}/firewall/waf/overrides/${o.body.result.id}`);
    expect((await put('pending', config)).status).toBe(200);
    expect((await t.api('GET', `${mig}/status`)).body.result.migration_state).toBe('complete');
  });
});

describe('malformed ids: 400 code 7003; well-formed but missing: the area 404', () => {
  const missing32 = 'ffffffffffffffffffffffffffffffff';
  const cases: [string, string, string, number][] = [
    ['script', `${ps}/scripts/`, missing32, 1003],
    ['connection', `${ps}/connections/`, missing32, 1003],
    ['cookie', `${ps}/cookies/`, missing32, 1003],
    ['policy', `${ps}/policies/`, missing32, 1003],
    ['pool', `${pools}/`, missing32, 1003],
    ['alerting policy', `${alerting}/`, '0da2b59e-f118-439d-8097-bdfb215203c9', 17002],
    // the previous WAF's ids follow the same rule
    ['WAF override', `/zones/${ZONES.pro}/firewall/waf/overrides/`, missing32, 1003],
    ['WAF package', `/zones/${ZONES.pro}/firewall/waf/packages/`, missing32, 1003],
    ['WAF group', `/zones/${ZONES.pro}/firewall/waf/packages/${WAF_PACKAGE}/groups/`, missing32, 1003],
  ];
  for (const [what, base, wellFormed, code] of cases) {
    it(what, async () => {
      for (const bad of ['not-an-id', 'FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF', `${wellFormed}0`]) {
        const r = await t.api('GET', base + bad);
        expect(r.status, `${what} ${bad}`).toBe(400);
        expect(r.body.errors).toEqual([
          {
            code: 7003,
            message: `Could not route to ${base + bad}, perhaps your object identifier is invalid?`,
          },
        ]);
      }
      const r = await t.api('GET', base + wellFormed);
      expect(r.status).toBe(404);
      expect(r.body.errors[0].code).toBe(code);
    });
  }

  it('routes before reading the body on writes', async () => {
    const put = await t.api('PUT', `${ps}/policies/nope`, { action: 'not-an-action' });
    expect([put.status, put.body.errors[0].code]).toEqual([400, 7003]);
    const patch = await t.api('PATCH', `${pools}/nope`, { minimum_origins: 'x' });
    expect([patch.status, patch.body.errors[0].code]).toEqual([400, 7003]);
    const del = await t.api('DELETE', `${alerting}/nope`);
    expect([del.status, del.body.errors[0].code]).toEqual([400, 7003]);
  });
});

describe('Page Shield: one connection', () => {
  it('includes page_urls (the list leaves them out)', async () => {
    const list = await t.api('GET', `${ps}/connections`);
    expect(list.body.result[0]).not.toHaveProperty('page_urls');
    const one = await t.api('GET', `${ps}/connections/${list.body.result[0].id}`);
    expect(one.body.result.page_urls).toEqual(['https://pro.example/checkout']);
    expect(one.body.result.first_page_url).toBe('https://pro.example/checkout');
  });
});
