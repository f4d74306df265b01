/** The runtime half of `load_balancing` (account scope): read, pure plan, apply. */
import type { KindRuntime } from '../../core/runtime.js';
import { listPolicies, listPools, PATCH_PAGE_SIZE } from './api.js';
import { applyLoadBalancing } from './apply.js';
import type { LoadBalancingLive } from './model.js';
import { planOwnedLoadBalancing } from './owners.js';
import { ownerSettingsOf } from '../shared/owners.js';
import { planLoadBalancing } from './plan.js';
import { whereInFile } from '../shared/api.js';
import type { LbPlanInput, LbStepData } from './plan.js';

export const loadBalancingRuntime: KindRuntime<LbPlanInput, LoadBalancingLive> = {
  // load balancer endpoints accept only API tokens
  requiresToken: true,
  async read(ctx) {
    const account = ctx.owner.id;
    const [pools, policies] = await Promise.all([
      listPools(ctx.client, account),
      listPolicies(ctx.client, account),
    ]);
    return { accountId: account, pools, policies };
  },
  plan(desired, live, ctx) {
    const entryPath = typeof ctx.entry.path === 'string' ? ctx.entry.path : `accounts[${ctx.owner.name}]`;
    // locations only say where a plan-time error is; a caller without a loaded file has none
    const locations = ctx.desired?.locations as Parameters<typeof whereInFile>[0] | undefined;
    const path = `${entryPath}.load_balancing`;
    const locate = (p: string) => (locations ? whereInFile(locations, p) : undefined);
    return planOwnedLoadBalancing({
      desired,
      live,
      owner: ownerSettingsOf(ctx.entry),
      account: ctx.owner.name,
      path,
      locate,
      plan: (seen, kept) => planLoadBalancing(desired, seen, path, locate, ctx.warn, kept),
    });
  },
  apply: applyLoadBalancing,
  // opts into the generic rule: purging or rewriting most of 10+ policies needs --force
  liveCount: (live) => live?.policies.length ?? 0,
  estimateCalls(steps) {
    // the clearing step: a list, one PATCH per 25 pools (all of them, ordered by name), a read-back
    return steps.reduce((sum, s) => {
      const data = s.data as LbStepData | undefined;
      return sum + (data?.op === 'clear-emails' ? 2 + Math.ceil(data.totalPools / PATCH_PAGE_SIZE) : 1);
    }, 0);
  },
};
