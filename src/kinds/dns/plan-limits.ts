/**
 * The plan limits only the live zone can tell (src/rules/dns/plan-limits.ts, the one table the local
 * API enforces too): tags on a zone whose plan allows none, a comment longer than the plan allows,
 * and the zone's record count after the plan over its quota. The zone object the engine already
 * read (the owner's info: `plan`, `created_on`) says which plan; nothing is requested for it. Found
 * here, the plan fails before apply sends anything, at the record's place in the file. What the file
 * alone can know (a comment over any plan's limit, a line break in it) is validate's.
 */
import type { StepDraft } from '../../core/runtime.js';
import {
  PLAN_LIMITS,
  QUOTA_CODES,
  RECORD_QUOTA_MESSAGE,
  limitsOf,
  recordQuotaOf,
  type PlanName,
} from '../../rules/dns/plan-limits.js';
import type { NormRecord } from './normalize.js';
import { relativeName } from './normalize.js';

export interface PlanLimitInput {
  zone: string;
  /** the live zone object (`plan: {legacy_id, name}`, `created_on`); undefined: nothing is checked */
  zoneInfo: Record<string, unknown> | undefined;
  drafts: StepDraft[];
  /** how many records the zone holds now */
  liveCount: number;
  locate?: (path: string) => string | undefined;
}

const PLAN_WORDS: readonly PlanName[] = Object.keys(PLAN_LIMITS) as PlanName[];

/**
 * The plan of a zone object: `plan.legacy_id` (`free`, `pro`, ...), else the first plan word in
 * `plan.name` ("Pro Website"). Undefined when neither tells: then no limit is checked, as a plan
 * cannot be refused for a limit that may not be the zone's.
 */
export function planOfZone(info: Record<string, unknown> | undefined): PlanName | undefined {
  const plan = info?.plan;
  if (typeof plan !== 'object' || plan === null) return undefined;
  const { legacy_id: legacy, name } = plan as Record<string, unknown>;
  if (typeof legacy === 'string' && PLAN_WORDS.includes(legacy.toLowerCase() as PlanName)) {
    return legacy.toLowerCase() as PlanName;
  }
  if (typeof name !== 'string') return undefined;
  const words = name.toLowerCase().split(/\s+/);
  return PLAN_WORDS.find((p) => words.includes(p));
}

const titled = (plan: string): string => plan[0]!.toUpperCase() + plan.slice(1);

/** One line per refusal (file:line:col first where the file has one), in the order of the steps. */
export function planLimitProblems(input: PlanLimitInput): string[] {
  const plan = planOfZone(input.zoneInfo);
  if (!plan) return [];
  const limits = limitsOf(plan);
  const problems: string[] = [];
  const where = (draft: StepDraft, field?: string): string => {
    const path = draft.source ?? 'dns.records';
    const at = input.locate?.(field ? `${path}.${field}` : path);
    return `${at ? `${at}: ` : ''}zone ${input.zone}: ${path}`;
  };
  let creates = 0;
  let deletes = 0;
  let firstCreate: StepDraft | undefined;
  for (const d of input.drafts) {
    if (d.action === 'delete') deletes++;
    if (d.action === 'create') {
      creates++;
      firstCreate ??= d;
    }
    if (d.action !== 'create' && d.action !== 'update') continue;
    const r = d.after as NormRecord;
    const label = `${relativeName(r.name, input.zone)} ${r.type}`;
    const tags = r.tags?.length ?? 0;
    if (limits.tagsPerRecord !== null && tags > limits.tagsPerRecord) {
      problems.push(
        `${where(d, 'tags')}: ${label} has ${tags} tag${tags === 1 ? '' : 's'}, and the zone's ${titled(plan)} plan ` +
          `allows ${limits.tagsPerRecord} per record (the API refuses it with 1004/${QUOTA_CODES.tagQuota} ` +
          `"DNS record has ${tags} tags, exceeding the quota of ${limits.tagsPerRecord}."); remove the tags, ` +
          'or move the zone to a paid plan',
      );
    }
    const comment = typeof r.comment === 'string' ? r.comment.length : 0;
    if (comment > limits.commentLength) {
      problems.push(
        `${where(d, 'comment')}: ${label} has a comment of ${comment} characters, and the zone's ` +
          `${titled(plan)} plan allows ${limits.commentLength}; shorten it`,
      );
    }
  }
  const after = input.liveCount + creates - deletes;
  const quota = recordQuotaOf(
    plan,
    typeof input.zoneInfo?.created_on === 'string' ? input.zoneInfo.created_on : undefined,
  );
  if (firstCreate && after > input.liveCount && after > quota) {
    problems.push(
      `${where(firstCreate)}: the plan would leave the zone with ${after} records (${input.liveCount} now, ` +
        `${creates} created, ${deletes} deleted), over its quota of ${quota} on the ${titled(plan)} plan ` +
        `(the API refuses the creates with ${QUOTA_CODES.recordQuota} "${RECORD_QUOTA_MESSAGE}"); ` +
        'remove records, or move the zone to a larger plan',
    );
  }
  return problems;
}
