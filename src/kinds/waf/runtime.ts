/** The runtime half of `waf` (zone scope): read, pure plan, apply. */
import type { KindRuntime } from '../../core/runtime.js';
import { getEntrypoint, getMigrationConfig, getStatus, listUriOverrides } from './api.js';
import { applyWaf, sha256 } from './apply.js';
import { shownState, tierOf } from './model.js';
import type { RulesetConfig, WafLive } from './model.js';
import { planWaf } from './plan.js';
import type { WafPlanInput } from './plan.js';
import { readFirewallFacts } from './firewall.js';

export const wafRuntime: KindRuntime<WafPlanInput, WafLive> = {
  // WAF migration and rulesets endpoints accept only API tokens
  requiresToken: true,
  async read(ctx) {
    const { client } = ctx;
    const zone = ctx.owner.id;
    const status = await getStatus(client, zone);
    const live: WafLive = { tier: tierOf(ctx.owner.info), status, uriOverrides: [] };
    if (shownState(status.migration_state) === 'previous') {
      // Read-only calls only: the compatibility check itself is a step of the plan (it moves the state).
      const [config, overrides, firewall] = await Promise.all([
        getMigrationConfig(client, zone).catch(() => undefined as RulesetConfig | undefined),
        listUriOverrides(client, zone),
        readFirewallFacts(client, zone),
      ]);
      live.config = config;
      live.uriOverrides = overrides;
      live.firewall = firewall;
    } else {
      live.entrypoint = await getEntrypoint(client, zone);
    }
    return live;
  },
  plan(desired, live, ctx) {
    const entryPath = typeof ctx.entry.path === 'string' ? ctx.entry.path : `zones[${ctx.owner.name}]`;
    return planWaf(desired, live, `${entryPath}.waf`, sha256);
  },
  apply: applyWaf,
};
