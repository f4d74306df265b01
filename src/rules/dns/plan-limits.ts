/**
 * The DNS limits that depend on a zone's plan, in one table both sides read: the local API
 * enforces them on every write (src/server/areas/dns/write.ts), the reconciler checks them at plan
 * time from the zone object it already read (src/kinds/dns/plan-limits.ts). The facts and the
 * assumptions behind each number are in docs/kinds/dns.md, "Comments, tags and plan limits".
 */
import { LOCAL_CODES, dnsError, type Violation } from './violation.js';

export interface PlanLimits {
  /** records per zone (the free plan's older zones have their own, below) */
  readonly recordQuota: number;
  /** tags per record; null: no limit is known, none is checked */
  readonly tagsPerRecord: number | null;
  /** characters per comment */
  readonly commentLength: number;
}

/**
 * Per plan. Known: Free has no tags, 100-character comments and 200 records per zone (1,000 for
 * older zones); paid plans 500-character comments; Pro and Business 3,500 records; Enterprise
 * 1,000,000 by default. Assumed (no published number): paid plans put no count limit on tags.
 */
export const PLAN_LIMITS = {
  free: { recordQuota: 200, tagsPerRecord: 0, commentLength: 100 },
  pro: { recordQuota: 3500, tagsPerRecord: null, commentLength: 500 },
  business: { recordQuota: 3500, tagsPerRecord: null, commentLength: 500 },
  enterprise: { recordQuota: 1_000_000, tagsPerRecord: null, commentLength: 500 },
} as const satisfies Record<string, PlanLimits>;

export type PlanName = keyof typeof PLAN_LIMITS;

/**
 * Free zones created before this instant keep the older quota (assumed: the change took effect on
 * 2024-09-01; a zone without a creation time counts as recent, the smaller quota).
 */
export const FREE_OLDER_ZONES = { createdBefore: '2024-09-01T00:00:00Z', recordQuota: 1000 } as const;

/** The longest comment any plan accepts: a file that does not know its zone's plan checks this. */
export const COMMENT_LENGTH_ANY_PLAN = Math.max(...Object.values(PLAN_LIMITS).map((l) => l.commentLength));

/** The codes and messages of the real API (docs/reference/api-facts.md, "Plan limits"). */
export const QUOTA_CODES = { recordQuota: 81045, tagQuota: 9300 } as const;
export const RECORD_QUOTA_MESSAGE = 'The record quota has been exceeded.';

/** A plan's limits; an unknown plan name counts as Free (the smallest: never a write refused late). */
export function limitsOf(plan: string | undefined): PlanLimits {
  return Object.prototype.hasOwnProperty.call(PLAN_LIMITS, plan ?? '')
    ? PLAN_LIMITS[plan as PlanName]
    : PLAN_LIMITS.free;
}

/** Records a zone may hold: its plan's quota, the older Free quota for older Free zones. */
export function recordQuotaOf(plan: string | undefined, createdOn: string | undefined): number {
  const limits = limitsOf(plan);
  if (limits !== PLAN_LIMITS.free || typeof createdOn !== 'string') return limits.recordQuota;
  const created = Date.parse(createdOn);
  const older = !Number.isNaN(created) && created < Date.parse(FREE_OLDER_ZONES.createdBefore);
  return older ? FREE_OLDER_ZONES.recordQuota : limits.recordQuota;
}

/** The real API's refusal of a record with more tags than the plan allows (1004, chain 9300). */
export function tagQuotaViolation(count: number, quota: number): Violation {
  return dnsError(QUOTA_CODES.tagQuota, `DNS record has ${count} tags, exceeding the quota of ${quota}.`);
}

export function recordQuotaViolation(): Violation {
  return { code: QUOTA_CODES.recordQuota, message: RECORD_QUOTA_MESSAGE };
}

/** What a record's comment and tags break of a plan's limits, or undefined when nothing. */
export function planFieldViolation(
  record: { comment?: string | null; tags?: readonly string[] | null },
  plan: string | undefined,
): Violation | undefined {
  const limits = limitsOf(plan);
  const tags = record.tags?.length ?? 0;
  if (limits.tagsPerRecord !== null && tags > limits.tagsPerRecord) {
    return tagQuotaViolation(tags, limits.tagsPerRecord);
  }
  const comment = record.comment ?? '';
  if (comment.length > limits.commentLength) {
    return dnsError(
      LOCAL_CODES.badComment,
      `"comment" is longer than ${limits.commentLength} characters, the limit on the ${plan ?? 'free'} plan.`,
    );
  }
  return undefined;
}
