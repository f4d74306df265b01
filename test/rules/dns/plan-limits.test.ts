// The one table of DNS plan limits (src/rules/dns/plan-limits.ts) and how the reconciler reads a
// zone object's plan (src/kinds/dns/plan-limits.ts): pure functions, no server.
import { describe, expect, it } from 'vitest';
import {
  COMMENT_LENGTH_ANY_PLAN,
  PLAN_LIMITS,
  planFieldViolation,
  recordQuotaOf,
} from '../../../src/rules/dns/plan-limits.js';
import { planLimitProblems, planOfZone } from '../../../src/kinds/dns/plan-limits.js';
import type { StepDraft } from '../../../src/core/runtime.js';

describe('the plan limits table', () => {
  it('holds the known numbers', () => {
    expect(PLAN_LIMITS.free).toEqual({ recordQuota: 200, tagsPerRecord: 0, commentLength: 100 });
    expect(PLAN_LIMITS.pro.recordQuota).toBe(3500);
    expect(PLAN_LIMITS.business.recordQuota).toBe(3500);
    expect(PLAN_LIMITS.enterprise.recordQuota).toBe(1_000_000);
    expect(COMMENT_LENGTH_ANY_PLAN).toBe(500);
  });

  it('gives older Free zones 1,000 records, recent ones and zones of unknown age 200', () => {
    expect(recordQuotaOf('free', '2023-05-01T00:00:00Z')).toBe(1000);
    expect(recordQuotaOf('free', '2025-05-01T00:00:00Z')).toBe(200);
    expect(recordQuotaOf('free', undefined)).toBe(200);
    expect(recordQuotaOf('pro', '2020-01-01T00:00:00Z')).toBe(3500);
    expect(recordQuotaOf('unknown-plan', undefined)).toBe(200);
  });

  it('refuses tags on Free only, and comments by the plan’s length', () => {
    expect(planFieldViolation({ tags: ['a'] }, 'free')?.chain).toEqual([
      { code: 9300, message: 'DNS record has 1 tags, exceeding the quota of 0.' },
    ]);
    expect(planFieldViolation({ tags: ['a', 'b', 'c'] }, 'business')).toBeUndefined();
    expect(planFieldViolation({ comment: 'c'.repeat(101) }, 'free')?.chain?.[0]?.code).toBe(9108);
    expect(planFieldViolation({ comment: 'c'.repeat(101) }, 'pro')).toBeUndefined();
  });
});

describe('the zone object’s plan, as the reconciler reads it', () => {
  it('from plan.legacy_id, else from a plan word in plan.name; unknown: no check', () => {
    expect(planOfZone({ plan: { legacy_id: 'free', name: 'Free Website' } })).toBe('free');
    expect(planOfZone({ plan: { name: 'Pro Website' } })).toBe('pro');
    expect(planOfZone({ plan: { name: 'Enterprise Website' } })).toBe('enterprise');
    expect(planOfZone({ plan: { name: 'Something Else' } })).toBeUndefined();
    expect(planOfZone(undefined)).toBeUndefined();
  });

  it('checks nothing when the plan is unknown', () => {
    const create: StepDraft = {
      key: 'k',
      action: 'create',
      address: 'a',
      before: null,
      after: { name: 'a.example', type: 'A', content: '192.0.2.1', ttl: 1, proxied: false, tags: ['x'] },
    } as StepDraft;
    const input = { zone: 'example', drafts: [create], liveCount: 10_000 };
    expect(planLimitProblems({ ...input, zoneInfo: undefined })).toEqual([]);
    expect(planLimitProblems({ ...input, zoneInfo: { plan: { legacy_id: 'free' } } })).toHaveLength(2);
  });
});
