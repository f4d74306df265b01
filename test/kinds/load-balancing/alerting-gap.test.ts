/**
 * The alerting gap test: while an account moves from legacy pool e-mails to a notification policy,
 * a pool health change at every moment reaches every legacy recipient, by an alert or by a legacy
 * e-mail, never by nothing. The kind's own read/plan/apply run against the real local API through
 * the real client; after every write the kind makes (the policy create, each page of the e-mail
 * clearing), the test fires every kind of health change on every pool through the local API's
 * test-only hook and checks who got told.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/client/index.js';
import type { RequestOptions } from '../../../src/client/types.js';
import { draftsToSteps } from '../../../src/core/plan.js';
import type { ApplyContext, Requester } from '../../../src/core/runtime.js';
import { loadBalancingRuntime } from '../../../src/kinds/load-balancing/runtime.js';
import { startTestServer, type TestServer } from '../../server/helpers.js';
import { fetchTestRoute } from '../../support/test-routes.js';
import { ACCOUNT, TOKEN, fixtures, pools } from './harness.js';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

interface Delivery {
  alerts: { mechanisms: { email?: { id: string }[] } }[];
  legacy_emails: { to: string[] }[];
}

/** Fires every (health, source) change on every pool; returns the recipients nobody told, by moment. */
async function probe(server: TestServer, legacy: Map<string, string[]>, moment: string): Promise<string[]> {
  const missed: string[] = [];
  for (const [poolId, recipients] of legacy) {
    for (const new_health of ['Unhealthy', 'Healthy']) {
      for (const event_source of ['pool', 'origin']) {
        const res = await fetchTestRoute(
          server.server,
          `/accounts/${ACCOUNT}/load_balancers/pools/${poolId}/health`,
          { method: 'POST', body: { new_health, event_source } },
        );
        const d = ((await res.json()) as { result: Delivery }).result;
        const told = new Set([
          ...d.alerts.flatMap((a) => (a.mechanisms.email ?? []).map((m) => m.id.toLowerCase())),
          ...d.legacy_emails.flatMap((e) => e.to.map((a) => a.toLowerCase())),
        ]);
        for (const r of recipients) {
          if (!told.has(r))
            missed.push(`${moment}: ${r} not told of ${event_source} ${new_health} on ${poolId}`);
        }
      }
    }
  }
  return missed;
}

// several CLI runs or hundreds of requests per test: generous on a loaded 2-core runner
describe('the notification migration leaves no alerting gap', { timeout: 120_000 }, () => {
  it('tells every legacy recipient of every health change before, during and after the migration', async () => {
    const seeded = pools(30, (i) => (i % 3 === 0 ? 'ops@example.com, noc@example.com' : 'ops@example.com'));
    t = await startTestServer({ fixtures: fixtures({ pools: seeded }) });
    const client = new ApiClient({ baseUrl: t.url, auth: { kind: 'token', token: TOKEN }, backoffBaseMs: 1 });
    const server = t;
    const owner = { scope: 'account' as const, name: ACCOUNT, id: ACCOUNT };

    const livePools = (
      await t.api('GET', `/accounts/${ACCOUNT}/load_balancers/pools`, undefined, {
        authorization: `Bearer ${TOKEN}`,
      })
    ).body.result as { id: string; notification_email: string }[];
    const legacy = new Map(
      livePools.map((p) => [p.id, p.notification_email.split(',').map((a) => a.trim().toLowerCase())]),
    );
    const missed: string[] = await probe(server, legacy, 'before');

    // every write the kind makes is followed by a probe of the state it left
    const writes: string[] = [];
    const probing: Requester = {
      async request<T>(method: string, path: string, options?: RequestOptions) {
        const res = await client.request<T>(method, path, options);
        if (method !== 'GET') {
          const moment = `after ${method} ${path}${options?.query?.page ? ` page ${options.query.page}` : ''}`;
          writes.push(moment);
          missed.push(...(await probe(server, legacy, moment)));
        }
        return res;
      },
    };

    const desired = {
      legacy_pool_emails: 'remove',
      notifications: [
        {
          name: 'pool health',
          alert_type: 'load_balancing_health_alert',
          pools: 'all',
          email: ['ops@example.com', 'noc@example.com'],
        },
      ],
    };
    const live = await loadBalancingRuntime.read({ client, owner });
    const ctx = { owner, desired: {} as never, entry: { path: 'accounts[0]' } };
    const steps = draftsToSteps(loadBalancingRuntime.plan(desired, live, ctx), owner, 'load_balancing');
    expect(steps.map((s) => s.action)).toEqual(['create', 'migrate']);
    expect(steps[1].dependsOn).toEqual([steps[0].id]);
    const applyCtx: ApplyContext = { client: probing, owner, progress: () => {}, log: () => {} };
    for (const step of steps) {
      // one step at a time, in the plan's order: the probe runs between and inside them
      const [result] = await loadBalancingRuntime.apply([step], applyCtx);
      expect(result.status, result.error).toBe('done');
    }

    expect(writes).toEqual([
      `after POST /accounts/${ACCOUNT}/alerting/v3/policies`,
      `after PATCH /accounts/${ACCOUNT}/load_balancers/pools page 1`,
      `after PATCH /accounts/${ACCOUNT}/load_balancers/pools page 2`,
    ]);
    expect(missed).toEqual([]);
    // and afterwards the alerts alone carry it: no pool has a legacy address left
    const after = (
      await server.api('GET', `/accounts/${ACCOUNT}/load_balancers/pools`, undefined, {
        authorization: `Bearer ${TOKEN}`,
      })
    ).body.result as { notification_email: string }[];
    expect(after.every((p) => p.notification_email === '')).toBe(true);
  });

  it('would catch a gap: clearing before the policy exists leaves recipients untold', async () => {
    t = await startTestServer({ fixtures: fixtures({ pools: pools(2, () => 'ops@example.com') }) });
    const auth = { authorization: `Bearer ${TOKEN}` };
    const live = (await t.api('GET', `/accounts/${ACCOUNT}/load_balancers/pools`, undefined, auth)).body
      .result as { id: string }[];
    await t.api('PATCH', `/accounts/${ACCOUNT}/load_balancers/pools`, { notification_email: '' }, auth);
    const missed = await probe(t, new Map(live.map((p) => [p.id, ['ops@example.com']])), 'wrong order');
    expect(missed).toHaveLength(2 * 4);
  });
});
