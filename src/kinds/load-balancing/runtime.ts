/** The runtime half of `load_balancing` (account scope): read, pure plan, apply. */
import type { KindRuntime } from '../../core/runtime.js';
import { listPolicies, listPools } from './api.js';
import { applyLoadBalancing } from './apply.js';
import type { LoadBalancingLive } from './model.js';
import { planLoadBalancing } from './plan.js';
import type { LbPlanInput } from './plan.js';

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
    return planLoadBalancing(desired, live, `${entryPath}.load_balancing`);
  },
  apply: applyLoadBalancing,
  estimateCalls(steps) {
    // the clearing step: a list, ceil(pools/25) PATCHes and a read-back; counted from its pool list
    return steps.reduce((sum, s) => {
      const data = s.data as { op?: string; poolIds?: string[] } | undefined;
      return sum + (data?.op === 'clear-emails' ? 3 + Math.ceil((data.poolIds?.length ?? 0) / 25) : 1);
    }, 0);
  },
};
