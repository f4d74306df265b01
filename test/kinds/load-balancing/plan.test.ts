import { describe, expect, it } from 'vitest';
import { coverageGaps, requiredEvents } from '../../../src/kinds/load-balancing/coverage.js';
import type { LivePolicy, LivePool, LoadBalancingLive } from '../../../src/kinds/load-balancing/model.js';
import { toLivePolicy } from '../../../src/kinds/load-balancing/model.js';
import { CLEAR_KEY, planLoadBalancing } from '../../../src/kinds/load-balancing/plan.js';
import type { LbStepData } from '../../../src/kinds/load-balancing/plan.js';

const pool = (id: string, name: string, email = ''): LivePool => ({ id, name, notification_email: email });
const live = (pools: LivePool[], policies: LivePolicy[] = []): LoadBalancingLive => ({
  accountId: 'acc',
  pools,
  policies,
});
const healthPolicy = {
  name: 'pool health',
  alert_type: 'load_balancing_health_alert',
  pools: 'all',
  email: ['ops@example.com'],
};

describe('load_balancing plan', () => {
  it('creates a policy with `pools: all` expanded to every pool id, shown by name', () => {
    const drafts = planLoadBalancing(
      { notifications: [healthPolicy] },
      live([pool('p2', 'beta'), pool('p1', 'alpha')]),
      'accounts[0].load_balancing',
    );
    expect(drafts).toHaveLength(1);
    expect(drafts[0].action).toBe('create');
    expect(drafts[0].key).toBe('create:pool health');
    const data = drafts[0].data as Extract<LbStepData, { op: 'create' }>;
    expect(data.body.filters.pool_id).toEqual(['p1', 'p2']);
    expect(data.body.mechanisms).toEqual({ email: [{ id: 'ops@example.com' }] });
    expect((drafts[0].after as { filters: { pool_id: string[] } }).filters.pool_id).toEqual([
      'alpha (p1)',
      'beta (p2)',
    ]);
  });

  it('resolves pool names and refuses an unknown pool, naming it', () => {
    const pools = [pool('p1', 'alpha')];
    const ok = planLoadBalancing(
      { notifications: [{ ...healthPolicy, pools: ['ALPHA'] }] },
      live(pools),
      'x',
    );
    expect((ok[0].data as { body: { filters: { pool_id: string[] } } }).body.filters.pool_id).toEqual(['p1']);
    expect(() =>
      planLoadBalancing({ notifications: [{ ...healthPolicy, pools: ['gamma'] }] }, live(pools), 'x'),
    ).toThrow(/x\.notifications\[0\]\.pools\[0\]: no pool named or with id "gamma"/);
  });

  it('lists the pools of `pools: all` by name in the plan, whatever their ids', () => {
    const drafts = planLoadBalancing(
      { notifications: [healthPolicy] },
      live([pool('f1', 'alpha'), pool('0a', 'gamma'), pool('7c', 'beta')]),
      'x',
    );
    expect((drafts[0].after as { filters: { pool_id: string[] } }).filters.pool_id).toEqual([
      'alpha (f1)',
      'beta (7c)',
      'gamma (0a)',
    ]);
    expect(drafts[0].changes?.find((c) => c.path === 'filters.pool_id')?.after).toEqual([
      'alpha (f1)',
      'beta (7c)',
      'gamma (0a)',
    ]);
  });

  it('puts the file:line:col of the path first in plan-time errors', () => {
    const where = (path: string) => (path.endsWith('pools[0]') ? 'lb.yaml:9:19' : 'lb.yaml:4:5');
    expect(() =>
      planLoadBalancing(
        { notifications: [{ ...healthPolicy, pools: ['gamma'] }] },
        live([pool('p1', 'alpha')]),
        'accounts[0].load_balancing',
        where,
      ),
    ).toThrow(/^lb\.yaml:9:19: accounts\[0\]\.load_balancing\.notifications\[0\]\.pools\[0\]: no pool named/);
    expect(() =>
      planLoadBalancing(
        { legacy_pool_emails: 'remove', notifications: [] },
        live([pool('p1', 'alpha', 'ops@example.com')]),
        'accounts[0].load_balancing',
        where,
      ),
    ).toThrow(
      /^lb\.yaml:4:5: accounts\[0\]\.load_balancing: legacy_pool_emails: remove would lose recipients/,
    );
  });

  it('plans nothing when the live policy is what the API returns after the create (order-insensitive)', () => {
    const pools = [pool('p1', 'alpha'), pool('p2', 'beta')];
    const first = planLoadBalancing({ notifications: [healthPolicy] }, live(pools), 'x');
    const body = (first[0].data as { body: object }).body as Record<string, unknown>;
    const stored = toLivePolicy({
      ...body,
      id: 'pol1',
      created: '2026-01-01T00:00:00Z',
      filters: { pool_id: ['p2', 'p1'] },
      mechanisms: { email: [{ id: 'OPS@example.com' }] },
    });
    expect(planLoadBalancing({ notifications: [healthPolicy] }, live(pools, [stored]), 'x')).toEqual([]);
  });

  it('updates in place by name and deletes unnamed load-balancing policies only with purge', () => {
    const pools = [pool('p1', 'alpha')];
    const existing = toLivePolicy({
      id: 'pol1',
      name: 'pool health',
      alert_type: 'load_balancing_health_alert',
      enabled: true,
      filters: { pool_id: ['p1'] },
      mechanisms: { email: [{ id: 'old@example.com' }] },
    });
    const other = toLivePolicy({
      id: 'pol2',
      name: 'stray',
      alert_type: 'load_balancing_health_alert',
      enabled: true,
    });
    const foreign = toLivePolicy({
      id: 'pol3',
      name: 'ssl',
      alert_type: 'universal_ssl_event_type',
      enabled: true,
    });
    const drafts = planLoadBalancing(
      { purge: true, notifications: [healthPolicy] },
      live(pools, [existing, other, foreign]),
      'x',
    );
    expect(drafts.map((d) => [d.action, d.key])).toEqual([
      ['update', 'pol1'],
      ['delete', 'pol2'],
    ]);
    const kept = planLoadBalancing({ notifications: [healthPolicy] }, live(pools, [existing, other]), 'x');
    expect(kept.map((d) => d.action)).toEqual(['update']);
  });

  it('clears legacy e-mails after every policy write, listing the pools', () => {
    const pools = [pool('p1', 'alpha', 'ops@example.com'), pool('p2', 'beta', '')];
    const drafts = planLoadBalancing(
      { legacy_pool_emails: 'remove', notifications: [healthPolicy] },
      live(pools),
      'x',
    );
    const clear = drafts.find((d) => d.key === CLEAR_KEY)!;
    expect(clear.action).toBe('migrate');
    expect(clear.dependsOn).toEqual(['create:pool health']);
    expect(clear.before).toEqual({ 'alpha (p1)': 'ops@example.com' });
    expect(clear.data).toEqual({ op: 'clear-emails', poolIds: ['p1'], totalPools: 2 });
  });

  it('keeps legacy e-mails by default and plans nothing once they are cleared', () => {
    const withEmail = [pool('p1', 'alpha', 'ops@example.com')];
    expect(planLoadBalancing({ notifications: [] }, live(withEmail), 'x')).toEqual([]);
    expect(planLoadBalancing({ legacy_pool_emails: 'remove' }, live([pool('p1', 'alpha')]), 'x')).toEqual([]);
  });

  it('refuses to clear when a legacy recipient would be lost, naming addresses and pools', () => {
    const pools = [
      pool('p1', 'alpha', 'ops@example.com, noc@example.com'),
      pool('p2', 'beta', 'ops@example.com'),
    ];
    const narrow = { ...healthPolicy, pools: ['alpha'], new_health: ['Unhealthy'] };
    let message = '';
    try {
      planLoadBalancing(
        { legacy_pool_emails: 'remove', notifications: [narrow] },
        live(pools),
        'accounts[0].lb',
      );
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^accounts\[0\]\.lb: legacy_pool_emails: remove would lose recipients/);
    expect(message).toContain('noc@example.com: alpha (p1; missing pool:Unhealthy, pool:Healthy');
    expect(message).toContain('ops@example.com: alpha (p1; missing pool:Healthy, origin:Healthy); beta (p2;');
  });

  it('counts a kept live policy and several policies together for coverage', () => {
    const pools = [pool('p1', 'alpha', 'ops@example.com')];
    const down = toLivePolicy({
      id: 'pol9',
      name: 'down only',
      alert_type: 'load_balancing_health_alert',
      enabled: true,
      filters: { pool_id: ['p1'], new_health: ['Unhealthy'] },
      mechanisms: { email: [{ id: 'ops@example.com' }] },
    });
    const up = { ...healthPolicy, name: 'up', pools: ['p1'], new_health: ['Healthy'] };
    const drafts = planLoadBalancing(
      { legacy_pool_emails: 'remove', notifications: [up] },
      live(pools, [down]),
      'x',
    );
    expect(drafts.map((d) => d.key)).toEqual(['create:up', CLEAR_KEY]);
  });
});

describe('recipient coverage', () => {
  it('takes the events a pool reported from its own legacy notification_filter', () => {
    expect(requiredEvents(pool('p', 'a'))).toEqual([
      'pool:Unhealthy',
      'pool:Healthy',
      'origin:Unhealthy',
      'origin:Healthy',
    ]);
    const narrowed: LivePool = {
      ...pool('p', 'a', 'x@example.com'),
      notification_filter: { origin: { disable: true }, pool: { healthy: false } },
    };
    expect(requiredEvents(narrowed)).toEqual(['pool:Unhealthy']);
  });

  it('needs an enabled health policy whose pool filter is absent or lists the pool', () => {
    const p = pool('p1', 'alpha', 'ops@example.com');
    const base = {
      name: 'n',
      alert_type: 'load_balancing_health_alert',
      enabled: true,
      filters: {} as Record<string, string[]>,
      mechanisms: { email: [{ id: 'ops@example.com' }] },
    };
    expect(coverageGaps([p], [{ ...base, filters: { pool_id: ['p2'] } }])).toHaveLength(1);
    expect(coverageGaps([p], [base])).toEqual([]); // no pool filter: every pool (shared rule)
    expect(coverageGaps([p], [{ ...base, enabled: false, filters: { pool_id: ['p1'] } }])).toHaveLength(1);
    expect(coverageGaps([p], [{ ...base, alert_type: 'other', filters: { pool_id: ['p1'] } }])).toHaveLength(
      1,
    );
    expect(coverageGaps([p], [{ ...base, filters: { pool_id: ['p1'] } }])).toEqual([]);
  });
});
