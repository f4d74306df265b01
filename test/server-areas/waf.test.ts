import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../server/helpers.js';
import { ACCOUNT, KEY_HEADERS, PREVIOUS_WAF, ZONES, startAreaServer, testCall } from './setup.js';

let t: TestServer;
const OVER_RULES = '55555555555555555555555555555555';
const OVER_EXPR = '66666666666666666666666666666666';
const ENT_FRESH = '77777777777777777777777777777777';
beforeAll(async () => {
  t = await startAreaServer();
  const seeded = await testCall(t, 'POST', '/fixtures', {
    zones: [
      {
        id: OVER_RULES,
        name: 'many-rules.example',
        account: ACCOUNT,
        plan: 'business',
        waf: { ...PREVIOUS_WAF, firewall_rules: 201 },
      },
      { id: ENT_FRESH, name: 'fresh-ent.example', account: ACCOUNT, plan: 'enterprise', waf: PREVIOUS_WAF },
      {
        id: OVER_EXPR,
        name: 'long-expr.example',
        account: ACCOUNT,
        plan: 'enterprise',
        waf: { ...PREVIOUS_WAF, longest_firewall_expression: 4097 },
      },
    ],
  });
  expect(seeded.status).toBe(200);
});
afterAll(() => t.close());

const mig = (zone: string) => `/zones/${zone}/waf_migration`;
const entry = (zone: string, q = '') =>
  `/zones/${zone}/rulesets/phases/http_request_firewall_managed/entrypoint${q}`;
const config = async (zone: string) => (await t.api('GET', `${mig(zone)}/config?phase_two=1`)).body.result;
const state = async (zone: string) => (await t.api('GET', `${mig(zone)}/status`)).body.result;
const put = async (zone: string, mode: string, body?: unknown) =>
  t.api('PUT', entry(zone, `?waf_migration=${mode}&phase_two=1`), body ?? (await config(zone)));
const codes = (r: { body: { errors: { code: number }[] } }) => r.body.errors.map((e) => e.code);
const messages = (r: { body: { errors: { message: string }[] } }) =>
  r.body.errors.map((e) => e.message).join(' | ');

describe('WAF migration state machine', () => {
  it('check moves default to start and reports compatibility', async () => {
    expect(await state(ZONES.pro)).toEqual({
      created: false,
      migration_state: 'default',
      old_waf_status: 'enabled',
      new_waf_status: 'disabled',
      source: 'defaults',
    });
    const check = await t.api('GET', `${mig(ZONES.pro)}/check?phase_two=1`);
    expect(check.body.result).toEqual({ compatible: true, migration_state: 'start' });
    expect((await state(ZONES.pro)).migration_state).toBe('start');
  });

  it('gives the equivalent configuration: one execute rule with the previous overrides', async () => {
    const cfg = await config(ZONES.pro);
    expect(cfg.rules).toHaveLength(1);
    expect(cfg.rules[0]).toMatchObject({
      action: 'execute',
      expression: 'true',
      action_parameters: {
        id: 'efb7b8c949ac4650a09736fc376e9aee',
        overrides: { rules: [{ id: '5de7edfa648c4d6891dc3e7f84534ffa', enabled: false }] },
      },
    });
  });

  it('refuses validation mode below Enterprise', async () => {
    const r = await put(ZONES.pro, 'validation');
    expect(r.status).toBe(400);
    expect(messages(r)).toMatch(/only available to Enterprise/);
    expect((await state(ZONES.pro)).migration_state).toBe('start');
  });

  it('has no managed entry point before the migration, and refuses a plain update', async () => {
    expect((await t.api('GET', entry(ZONES.pro))).status).toBe(404);
    const plain = await t.api('PUT', entry(ZONES.pro), await config(ZONES.pro));
    expect(plain.status).toBe(400);
    expect(messages(plain)).toMatch(/still uses the previous WAF/);
  });

  it('needs phase_two=1 and a known waf_migration value', async () => {
    expect((await t.api('GET', `${mig(ZONES.pro)}/check`)).status).toBe(400);
    expect(
      (await t.api('PUT', entry(ZONES.pro, '?waf_migration=pending'), await config(ZONES.pro))).status,
    ).toBe(400);
    expect(messages(await put(ZONES.pro, '3'))).toMatch(/waf_migration must be pending/);
  });

  it('checks the body: bad override ids and actions are refused with their path', async () => {
    const cfg = await config(ZONES.pro);
    cfg.rules[0].action_parameters.overrides.rules[0] = { id: 'nope', action: 'explode' };
    const r = await put(ZONES.pro, 'pending', cfg);
    expect(r.status).toBe(400);
    expect(messages(r)).toMatch(/rules\[0\]\.action_parameters\.overrides\.rules\[0\]\.id/);
  });

  it('start -> complete with pending (Pro), then it is irreversible', async () => {
    const cfg = await config(ZONES.pro);
    delete cfg.rules[0].id; // the body may omit id, version and ref
    delete cfg.rules[0].version;
    const r = await put(ZONES.pro, '1', cfg);
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({
      kind: 'zone',
      phase: 'http_request_firewall_managed',
      version: '1',
    });
    expect(r.body.result.id).toMatch(/^[0-9a-f]{32}$/);
    expect(r.body.result.rules[0]).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      version: '1',
      action: 'execute',
    });
    expect(r.body.result.last_updated).toBeTruthy();
    expect(await state(ZONES.pro)).toEqual({
      created: true,
      migration_state: 'complete',
      old_waf_status: 'disabled',
      new_waf_status: 'enabled',
      source: 'zone',
    });
    for (const mode of ['pending', 'validation', '2']) {
      const again = await put(ZONES.pro, mode, cfg);
      expect(again.status).toBe(400);
      expect(messages(again)).toMatch(/cannot be reversed/);
    }
    const check = await t.api('GET', `${mig(ZONES.pro)}/check?phase_two=1`);
    expect(check.body.result).toEqual({ compatible: false, migration_state: 'complete' });
  });

  it('after the migration, the entry point reads and updates like any ruleset', async () => {
    const got = (await t.api('GET', entry(ZONES.pro))).body.result;
    const rule = {
      ...got.rules[0],
      action_parameters: {
        ...got.rules[0].action_parameters,
        overrides: { rules: [{ id: '5de7edfa648c4d6891dc3e7f84534ffa', action: 'log' }] },
      },
    };
    const upd = await t.api('PUT', entry(ZONES.pro), { rules: [rule] });
    expect(upd.status).toBe(200);
    expect(upd.body.result).toMatchObject({ id: got.id, version: '2' });
    expect(upd.body.result.rules[0]).toMatchObject({ id: got.rules[0].id, version: '2' });
    expect((await t.api('GET', entry(ZONES.pro))).body.result.version).toBe('2');
  });

  it('the previous WAF APIs stop working after the migration', async () => {
    for (const path of ['firewall/waf/packages', 'firewall/waf/overrides']) {
      const r = await t.api('GET', `/zones/${ZONES.pro}/${path}`);
      expect(r.status).toBe(400);
      expect(messages(r)).toMatch(/no longer work for this zone/);
    }
  });

  it('Enterprise: start -> validation -> validation -> complete; previous APIs work in validation', async () => {
    const z = ZONES.enterprise;
    await t.api('GET', `${mig(z)}/check?phase_two=1`);
    const v = await put(z, 'validation');
    expect(v.status).toBe(200);
    expect(await state(z)).toMatchObject({
      migration_state: 'validation',
      old_waf_status: 'enabled',
      new_waf_status: 'enabled',
    });
    expect((await t.api('GET', `/zones/${z}/firewall/waf/packages`)).status).toBe(200);
    expect((await t.api('GET', entry(z))).status).toBe(200);
    expect((await t.api('PUT', entry(z), await config(z))).status).toBe(400); // plain update only after migration
    expect((await put(z, '2')).status).toBe(200);
    expect((await state(z)).migration_state).toBe('validation');
    const empty = await put(z, 'pending', { name: 'default', rules: [] });
    expect(empty.status).toBe(400);
    expect(messages(empty)).toMatch(/needs the new configuration/);
    expect((await put(z, 'pending')).status).toBe(200);
    expect(await state(z)).toMatchObject({ migration_state: 'complete', old_waf_status: 'disabled' });
  });

  it('Enterprise: default -> validation without a check first', async () => {
    expect((await state(ENT_FRESH)).migration_state).toBe('default');
    expect((await put(ENT_FRESH, 'validation')).status).toBe(200);
    expect((await state(ENT_FRESH)).migration_state).toBe('validation');
  });

  it('refuses free zones, URI-based overrides, over 200 firewall rules and expressions over 4 KB', async () => {
    const cases: [string, RegExp][] = [
      [ZONES.free, /Free plan/],
      [ZONES.blocked, /URI-based WAF override/],
      [OVER_RULES, /201 firewall rules/],
      [OVER_EXPR, /4097 bytes/],
    ];
    for (const [zone, why] of cases) {
      const check = await t.api('GET', `${mig(zone)}/check?phase_two=1`);
      expect(check.body.result, zone).toEqual({ compatible: false, migration_state: 'start' });
      const r = await put(zone, 'pending');
      expect(r.status).toBe(400);
      expect(codes(r)).toEqual([1011]);
      expect(messages(r)).toMatch(why);
      expect((await state(zone)).migration_state).toBe('start');
    }
    expect((await put(OVER_EXPR, 'validation')).status).toBe(400);
  });

  it('deleting the URI-based override unblocks the migration (default -> complete)', async () => {
    const z = ZONES.blocked;
    const list = await t.api('GET', `/zones/${z}/firewall/waf/overrides`);
    expect(list.body.result).toHaveLength(1);
    expect(list.body.result_info).toMatchObject({ per_page: 50, total_count: 1 });
    const id = list.body.result[0].id;
    expect((await t.api('DELETE', `/zones/${z}/firewall/waf/overrides/${id}`)).body.result).toEqual({ id });
    expect((await t.api('GET', `${mig(z)}/check?phase_two=1`)).body.result.compatible).toBe(true);
    expect((await put(z, 'pending')).status).toBe(200);
  });
});

describe('previous WAF APIs before the migration', () => {
  const base = `/zones/${ZONES.free}/firewall/waf`;
  it('reads and changes packages, groups and rules', async () => {
    const pkg = (await t.api('GET', `${base}/packages`)).body.result[0];
    expect(pkg).toMatchObject({ detection_mode: 'anomaly', sensitivity: 'high' });
    expect(
      (await t.api('PATCH', `${base}/packages/${pkg.id}`, { sensitivity: 'low' })).body.result.sensitivity,
    ).toBe('low');
    expect((await t.api('PATCH', `${base}/packages/${pkg.id}`, { sensitivity: 'extreme' })).status).toBe(400);
    const groups = (await t.api('GET', `${base}/packages/${pkg.id}/groups`)).body.result;
    expect(
      (await t.api('PATCH', `${base}/packages/${pkg.id}/groups/${groups[0].id}`, { mode: 'off' })).body.result
        .mode,
    ).toBe('off');
    const rules = (await t.api('GET', `${base}/packages/${pkg.id}/rules`)).body.result;
    expect(rules).toHaveLength(2);
    expect(
      (await t.api('PATCH', `${base}/packages/${pkg.id}/rules/${rules[1].id}`, { mode: 'off' })).body.result
        .mode,
    ).toBe('off');
    expect(
      (await t.api('PATCH', `${base}/packages/${pkg.id}/rules/${rules[1].id}`, { mode: 'block' })).status,
    ).toBe(400);
    expect(
      (await t.api('GET', `${base}/packages/${pkg.id}/rules/ffffffffffffffffffffffffffffffff`)).status,
    ).toBe(404);
  });

  it('creates, updates and deletes overrides; a created one blocks the migration', async () => {
    const created = await t.api('POST', `${base}/overrides`, {
      urls: ['free.example/shop/*'],
      rules: { f939de3be84e66e757adcdcb87908023: 'block' },
    });
    expect(created.status).toBe(200);
    const id = created.body.result.id;
    expect((await t.api('PUT', `${base}/overrides/${id}`, { paused: true })).body.result).toMatchObject({
      id,
      paused: true,
      urls: ['free.example/shop/*'],
    });
    expect((await t.api('POST', `${base}/overrides`, { rules: {} })).status).toBe(400);
    const check = await t.api('GET', `/zones/${ZONES.free}/waf_migration/check?phase_two=1`);
    expect(check.body.result.compatible).toBe(false);
    expect((await t.api('DELETE', `${base}/overrides/${id}`)).status).toBe(200);
  });

  it('accept tokens only: an e-mail/key pair is refused on WAF and rulesets', async () => {
    expect((await t.api('GET', `${base}/packages`, undefined, KEY_HEADERS)).status).toBe(403);
    expect(
      (await t.api('GET', `/zones/${ZONES.free}/waf_migration/status`, undefined, KEY_HEADERS)).status,
    ).toBe(403);
    expect((await t.api('GET', entry(ZONES.free), undefined, KEY_HEADERS)).status).toBe(403);
  });
});

// Needs part 1's envelope to carry a handler's `messages` (Reply.messages); enable once it does.
it('check lists each reason in the envelope messages', async () => {
  const check = await t.api('GET', `${mig(ZONES.free)}/check?phase_two=1`);
  expect(check.body.messages).toEqual([
    expect.objectContaining({ message: expect.stringMatching(/Free plan/) }),
  ]);
});
