/**
 * The fixtures sections a copy of live state needs (`zoneplan export --as fixtures`):
 * `zones[].waf.entrypoint` (the managed phase entry point with its ids and versions) and
 * `accounts[].notification_policies` (policies with their ids and order). Both are seeded once,
 * and bad input names its path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../server/helpers.js';
import { startServer } from '../../src/server/index.js';
import { ACCOUNT, startAreaServer, testCall } from './setup.js';

const ZONE = '88888888888888888888888888888888';
const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const POLICY = '0da2b59e-f118-439d-8097-bdfb215203c9';
const entry = `/zones/${ZONE}/rulesets/phases/http_request_firewall_managed/entrypoint`;
const policies = `/accounts/${ACCOUNT}/alerting/v3/policies`;

const copy = {
  accounts: [
    {
      id: ACCOUNT,
      name: 'Part Two',
      notification_policies: [
        {
          id: POLICY,
          name: 'second',
          alert_type: 'load_balancing_health_alert',
          mechanisms: { email: [{ id: 'ops@example.com' }] },
          filters: { pool_id: ['99999999999999999999999999999999'] }, // a pool since deleted
          created: '2026-01-01T00:00:00.000002Z',
        },
        {
          name: 'first',
          alert_type: 'some_future_alert', // kept: a copy holds every policy
          enabled: false,
          mechanisms: {},
          created: '2026-01-01T00:00:00.000001Z',
        },
      ],
    },
  ],
  zones: [
    {
      id: ZONE,
      name: 'copied.example',
      account: ACCOUNT,
      plan: 'business',
      waf: {
        migration_state: 'complete',
        entrypoint: {
          id: 'abababababababababababababababab',
          version: '7',
          last_updated: '2026-01-02T03:04:05.123456Z',
          rules: [
            {
              id: 'cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd',
              version: '4',
              ref: 'efefefefefefefefefefefefefefefef',
              action: 'execute',
              expression: 'true',
              action_parameters: { id: MANAGED },
            },
          ],
        },
      },
    },
  ],
};

let t: TestServer;
beforeAll(async () => {
  t = await startAreaServer();
  const seeded = await testCall(t, 'POST', '/fixtures', copy);
  expect(seeded.status, seeded.text).toBe(200);
});
afterAll(() => t.close());

describe('fixtures sections of a copy of live state', () => {
  it('serve the entry point and the policies as given, and keep API changes on a reload', async () => {
    const rs = (await t.api('GET', entry)).body.result;
    expect(rs).toMatchObject({
      id: 'abababababababababababababababab',
      version: '7',
      phase: 'http_request_firewall_managed',
    });
    expect(rs.rules[0]).toMatchObject({
      id: 'cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd',
      version: '4',
      ref: 'efefefefefefefefefefefefefefefef',
    });
    const list = (await t.api('GET', policies)).body.result as { id: string; name: string }[];
    const ours = list.filter((p) => ['first', 'second'].includes(p.name));
    expect(ours.map((p) => p.name)).toEqual(['first', 'second']); // in `created` order
    expect(ours[1].id).toBe(POLICY);

    const put = await t.api('PUT', entry, {
      rules: [{ action: 'execute', expression: 'true', action_parameters: { id: MANAGED }, enabled: false }],
    });
    expect(put.status).toBe(200);
    expect((await t.api('DELETE', `${policies}/${POLICY}`)).status).toBe(200);
    expect((await testCall(t, 'POST', '/fixtures', copy)).status).toBe(200);
    expect((await t.api('GET', entry)).body.result.rules[0].enabled).toBe(false);
    const after = (await t.api('GET', policies)).body.result as { id: string }[];
    expect(after.map((p) => p.id)).not.toContain(POLICY);
  });

  it('names the path of bad input', async () => {
    const bad = (waf: unknown, accountExtra: Record<string, unknown> = {}) =>
      startServer({
        db: ':memory:',
        quiet: true,
        fixtures: {
          accounts: [{ id: ACCOUNT, name: 'Part Two', ...accountExtra }],
          zones: [{ id: ZONE, name: 'copied.example', account: ACCOUNT, plan: 'business', waf }],
        },
      });
    await expect(bad({ entrypoint: { rules: [{ action: 'nope', expression: 'true' }] } })).rejects.toThrow(
      /zones\[0\]\.waf\.entrypoint\.rules\[0\]\.action: /,
    );
    await expect(
      bad(
        {},
        {
          notification_policies: [
            { id: 'x', name: 'n', alert_type: 'load_balancing_health_alert', mechanisms: {} },
          ],
        },
      ),
    ).rejects.toThrow(/accounts\[0\]\.notification_policies\[0\]\.id: must be a UUID/);
  });
});
