/**
 * Every kind's steps name the desired entry they come from (StepDraft.source), so a plan masks an
 * `${env:}` value only in the steps whose entry may hold it; a purge delete of a live object the
 * file does not name has none (everything is masked in it).
 */
import { describe, expect, it } from 'vitest';
import type { PlanContext, StepDraft } from '../../src/core/runtime.js';
import type { DesiredState } from '../../src/config/model.js';
import { planLoadBalancing, CLEAR_KEY } from '../../src/kinds/load-balancing/plan.js';
import { liveJobFromApi } from '../../src/kinds/logpush/jobs.js';
import { planLogpush } from '../../src/kinds/logpush/plan.js';
import { pageShieldRuntime } from '../../src/kinds/page-shield/runtime.js';
import { livePolicyFromApi } from '../../src/kinds/page-shield/policies.js';
import { wafRuntime } from '../../src/kinds/waf/runtime.js';
import { zonesRuntime } from '../../src/kinds/zones/runtime.js';

const ctx = (path: string): PlanContext => ({
  owner: { scope: 'zone', name: 'example.com' },
  desired: { locations: new Map() } as unknown as DesiredState,
  entry: { path },
});
const sources = (drafts: StepDraft[]) => Object.fromEntries(drafts.map((d) => [d.key, d.source]));

describe('step sources', () => {
  it('logpush: a job`s create, update and replacement come from the job; a purge delete from nothing', () => {
    const job = (name: string, i: number, dataset = 'http_requests') => ({
      name,
      dataset,
      destination_conf: 'https://logs.example.com/ingest',
      path: `zones[0].logpush.jobs[${i}]`,
    });
    const live = (id: number, name: string, over: Record<string, unknown> = {}) =>
      liveJobFromApi({
        id,
        name,
        dataset: 'http_requests',
        destination_conf: 'https://logs.example.com/ingest',
        enabled: true,
        ...over,
      })!;
    const drafts = planLogpush(
      'example.com',
      { jobs: [job('new', 0), job('changed', 1), job('replaced', 2, 'dns_logs')] },
      [live(1, 'changed', { enabled: false }), live(2, 'replaced'), live(3, 'extra')],
    );
    expect(sources(drafts)).toEqual({
      'create:new': 'zones[0].logpush.jobs[0]',
      '1': 'zones[0].logpush.jobs[1]',
      '2': 'zones[0].logpush.jobs[2]',
      'create:replaced': 'zones[0].logpush.jobs[2]',
      '3': undefined,
    });
  });

  it('page_shield: the switch comes from the value, a policy from the policy', () => {
    const policy = {
      description: 'p',
      action: 'log' as const,
      expression: 'true',
      value: "script-src 'self'",
      path: 'zones[0].page_shield.policies[0]',
    };
    const extra = livePolicyFromApi({ id: 'x1', ...policy, description: 'old', enabled: true })!;
    const drafts = pageShieldRuntime.plan(
      { enabled: true, policies: [policy] },
      { enabled: false, policies: [extra] },
      ctx('zones[0]'),
    );
    expect(sources(drafts)).toEqual({
      settings: 'zones[0].page_shield',
      'create:p': 'zones[0].page_shield.policies[0]',
      x1: undefined,
    });
  });

  it('load_balancing: a notification from its entry, clearing legacy e-mails from the whole value', () => {
    const drafts = planLoadBalancing(
      {
        legacy_pool_emails: 'remove',
        notifications: [
          { name: 'n', alert_type: 'load_balancing_health_alert', pools: 'all', email: ['ops@example.com'] },
        ],
      },
      {
        accountId: 'acc',
        pools: [{ id: 'p1', name: 'a', notification_email: 'ops@example.com' }],
        policies: [],
      },
      'accounts[0].load_balancing',
    );
    expect(sources(drafts)).toEqual({
      'create:n': 'accounts[0].load_balancing.notifications[0]',
      [CLEAR_KEY]: 'accounts[0].load_balancing',
    });
  });

  it('waf: every step comes from the zone`s waf value', () => {
    const drafts = wafRuntime.plan(
      { managed_rules: 'previous' },
      {
        tier: 'enterprise',
        status: { migration_state: 'complete', old_waf_status: 'disabled', new_waf_status: 'enabled' },
        uriOverrides: [],
        entrypoint: null,
      },
      ctx('zones[2]'),
    );
    expect(drafts.length).toBeGreaterThan(0);
    expect(drafts.map((d) => d.source)).toEqual(drafts.map(() => 'zones[2].waf'));
  });

  it('zones: a zone`s create comes from its entry', () => {
    const drafts = zonesRuntime.plan(
      { name: 'example.com', account: '0123456789abcdef0123456789abcdef', path: 'zones[1]' } as never,
      null,
      ctx('zones[1]'),
    );
    expect(drafts.map((d) => d.source)).toEqual(['zones[1]']);
  });
});
