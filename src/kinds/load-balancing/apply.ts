/**
 * Applies load-balancing steps. Policy writes are one call each. The legacy e-mail clearing pages
 * through every pool with the bulk PATCH (25 per call by default) and then reads the pools back:
 * it is only `done` when no pool has a `notification_email` left.
 */
import type { ApplyContext, Step, StepResult } from '../../core/runtime.js';
import {
  clearEmailsPage,
  createPolicy,
  deletePolicy,
  listPools,
  PATCH_PAGE_SIZE,
  updatePolicy,
} from './api.js';
import { legacyAddresses } from './model.js';
import type { LbStepData } from './plan.js';

/** A pool added between passes is caught by the next pass; more passes than this means something fights us. */
const MAX_CLEAR_PASSES = 3;

export async function applyLoadBalancing(steps: Step[], ctx: ApplyContext): Promise<StepResult[]> {
  const results: StepResult[] = [];
  for (const step of steps) {
    try {
      await applyStep(step.data as LbStepData, ctx);
      results.push({ id: step.id, status: 'done' });
    } catch (err) {
      const e = err as { message?: string; outcomeUnknown?: boolean; alreadyTrue?: boolean };
      results.push({
        id: step.id,
        status: e.outcomeUnknown || e.alreadyTrue ? 'unknown' : 'failed',
        error: firstLine(e.message),
      });
    }
    ctx.progress(1);
  }
  return results;
}

async function applyStep(data: LbStepData, ctx: ApplyContext): Promise<void> {
  const account = ctx.owner.id;
  switch (data.op) {
    case 'create':
      ctx.log(`created notification policy ${await createPolicy(ctx.client, account, data.body)}`);
      return;
    case 'update':
      return updatePolicy(ctx.client, account, data.id, data.body);
    case 'delete':
      return deletePolicy(ctx.client, account, data.id);
    case 'clear-emails':
      return clearLegacyEmails(data.poolIds, ctx);
  }
}

/**
 * Pages the bulk PATCH over all pools, then verifies. A pool that got a legacy address after the plan
 * was made is not covered by the plan's recipient check, so it stops the step instead of being cleared.
 */
export async function clearLegacyEmails(plannedPoolIds: string[], ctx: ApplyContext): Promise<void> {
  const account = ctx.owner.id;
  const planned = new Set(plannedPoolIds);
  for (let pass = 1; pass <= MAX_CLEAR_PASSES; pass++) {
    const pools = await listPools(ctx.client, account);
    const left = pools.filter((p) => legacyAddresses(p.notification_email).length > 0);
    if (left.length === 0) return;
    const unplanned = left.filter((p) => !planned.has(p.id));
    if (unplanned.length) {
      throw new Error(
        `pool(s) ${unplanned.map((p) => `${p.name} (${p.id})`).join(', ')} gained a legacy notification_email ` +
          'after the plan was made; run plan again so their recipients are checked',
      );
    }
    const pages = Math.max(1, Math.ceil(pools.length / PATCH_PAGE_SIZE));
    for (let page = 1; page <= pages; page++) {
      const changed = await clearEmailsPage(ctx.client, account, page);
      ctx.log(`cleared notification_email: page ${page}/${pages} (${changed} pool(s) returned)`);
    }
  }
  const still = (await listPools(ctx.client, account)).filter(
    (p) => legacyAddresses(p.notification_email).length,
  );
  if (still.length) {
    throw new Error(
      `read-back: ${still.length} pool(s) still have a legacy notification_email: ` +
        still.map((p) => `${p.name} (${p.id})`).join(', '),
    );
  }
}

function firstLine(message: string | undefined): string {
  return (message ?? 'failed').split('\n')[0];
}
