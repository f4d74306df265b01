/**
 * Applies WAF steps one at a time, in the order the engine releases them. After every step that moves
 * the migration, the status is polled until it shows the new state (the real API takes "a couple of
 * minutes" for the final step), so the next step never starts on a zone still in transition.
 */
import { sha256 as sha256Hex } from '../../core/canonical.js';
import type { ApplyContext, Step, StepResult } from '../../core/runtime.js';
import {
  checkCompatibility,
  deleteUriOverride,
  getMigrationConfig,
  getStatus,
  putEntrypoint,
} from './api.js';
import type { MigrationStatus } from './model.js';
import type { WafStepData } from './plan.js';
import { applyInOrder } from '../shared/api.js';

/** Poll timing; overridable for tests and slow targets (ZONEPLAN_WAF_POLL_TIMEOUT_MS). */
const POLL_FIRST_MS = 250;
const POLL_MAX_MS = 5_000;
const POLL_TIMEOUT_MS = Number(process.env.ZONEPLAN_WAF_POLL_TIMEOUT_MS) || 180_000;

export function sha256(value: unknown): string {
  return sha256Hex(JSON.stringify(value ?? null));
}

/** The migration is a sequence: nothing runs after a failed step (applyInOrder stops there). */
export function applyWaf(steps: Step[], ctx: ApplyContext): Promise<StepResult[]> {
  return applyInOrder(steps, ctx, (step, c) => applyStep(step.data as WafStepData, c));
}

async function applyStep(data: WafStepData, ctx: ApplyContext): Promise<void> {
  const zone = ctx.owner.id;
  switch (data.op) {
    case 'delete-uri-override':
      return deleteUriOverride(ctx.client, zone, data.id);
    case 'check': {
      const r = await checkCompatibility(ctx.client, zone);
      if (!r.compatible) {
        throw new Error(
          `the zone is not compatible for the WAF migration (migration_state ${r.migration_state || 'unknown'}); ` +
            'URI-based overrides must be deleted; over 200 firewall rules or an expression over 4 KB needs support',
        );
      }
      await pollStatus(ctx, (s) => s.migration_state !== 'default', 'checked (start)');
      return;
    }
    case 'fetch': {
      // the merged configuration was made at plan time from this; a changed one needs a new plan
      const config = await getMigrationConfig(ctx.client, zone);
      if (sha256(config) !== data.configHash) {
        throw new Error('the equivalent configuration changed since the plan was made; run plan again');
      }
      return;
    }
    case 'merge':
      return; // done purely at plan time; the merged configuration is shown in the plan
    case 'migrate': {
      await putEntrypoint(ctx.client, zone, data.config, data.mode);
      const target = data.mode === 'validation' ? 'validation' : 'complete';
      await pollStatus(ctx, (s) => s.migration_state === target, target);
      return;
    }
    case 'update-entrypoint':
      return putEntrypoint(ctx.client, zone, data.config, data.mode);
  }
}

/** Polls GET waf_migration/status with a growing interval until `done` holds or the timeout passes. */
export async function pollStatus(
  ctx: ApplyContext,
  done: (s: MigrationStatus) => boolean,
  what: string,
): Promise<MigrationStatus> {
  const start = Date.now();
  let wait = POLL_FIRST_MS;
  for (;;) {
    const status = await getStatus(ctx.client, ctx.owner.id);
    if (done(status)) {
      ctx.log(
        `waf migration status: ${status.migration_state} (old ${status.old_waf_status}, new ${status.new_waf_status})`,
      );
      return status;
    }
    if (Date.now() - start > POLL_TIMEOUT_MS) {
      throw new Error(
        `the migration status did not reach ${what} within ${Math.round(POLL_TIMEOUT_MS / 1000)} s ` +
          `(still ${status.migration_state}); run plan again later to see where it stands`,
      );
    }
    await new Promise((r) => setTimeout(r, wait));
    wait = Math.min(wait * 2, POLL_MAX_MS);
  }
}
