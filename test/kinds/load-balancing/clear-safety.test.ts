/**
 * The clearing step never clears an address its plan did not check: a pool that gained a legacy
 * e-mail between plan and apply stops the step (nothing is cleared by it), and a re-plan covers it.
 * The kind's runtime runs against the real local API through the real client.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/client/index.js';
import { draftsToSteps } from '../../../src/core/plan.js';
import { loadBalancingRuntime } from '../../../src/kinds/load-balancing/runtime.js';
import { startTestServer, type TestServer } from '../../server/helpers.js';
import { ACCOUNT, TOKEN, fixtures, pools } from './harness.js';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('clearing legacy pool e-mails', () => {
  it('stops when a pool gained a legacy address after the plan, naming it', async () => {
    t = await startTestServer({ fixtures: fixtures({ pools: pools(2, () => 'ops@example.com') }) });
    const client = new ApiClient({ baseUrl: t.url, auth: { kind: 'token', token: TOKEN }, backoffBaseMs: 1 });
    const owner = { scope: 'account' as const, name: ACCOUNT, id: ACCOUNT };
    const desired = {
      legacy_pool_emails: 'remove',
      notifications: [
        { name: 'ops', alert_type: 'load_balancing_health_alert', pools: 'all', email: ['ops@example.com'] },
      ],
    };
    const ctx = { owner, desired: {} as never, entry: { path: 'accounts[0]' } };
    const plan = (live: Awaited<ReturnType<typeof loadBalancingRuntime.read>>) =>
      draftsToSteps(loadBalancingRuntime.plan(desired, live, ctx), owner, 'load_balancing');
    const steps = plan(await loadBalancingRuntime.read({ client, owner }));

    // between plan and apply someone adds a pool whose legacy recipient no policy covers
    const auth = { authorization: `Bearer ${TOKEN}` };
    const added = await t.api(
      'POST',
      `/accounts/${ACCOUNT}/load_balancers/pools`,
      {
        name: 'late',
        notification_email: 'boss@example.com',
        origins: [{ name: 'o', address: '192.0.2.7' }],
      },
      auth,
    );
    expect(added.body.success, added.text).toBe(true);

    const applyCtx = { client, owner, progress: () => {}, log: () => {} };
    const results = await loadBalancingRuntime.apply(steps, applyCtx);
    expect(results.map((r) => r.status)).toEqual(['done', 'failed']);
    expect(results[1].error).toMatch(
      /late \([0-9a-f]{32}\) gained a legacy notification_email after the plan/,
    );
    const live = (await t.api('GET', `/accounts/${ACCOUNT}/load_balancers/pools`, undefined, auth)).body
      .result as {
      notification_email: string;
    }[];
    expect(live.filter((p) => p.notification_email !== '')).toHaveLength(3);

    // the next plan sees the new pool and refuses, naming its address
    const fresh = await loadBalancingRuntime.read({ client, owner });
    expect(() => plan(fresh)).toThrow(/boss@example\.com: late/);
  });
});
