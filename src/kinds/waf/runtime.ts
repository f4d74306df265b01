/** The runtime half of `waf` (zone scope): read, pure plan, apply. */
import type { KindRuntime } from '../../core/runtime.js';
import { checkCompatibility, getEntrypoint, getMigrationConfig, getStatus, listUriOverrides } from './api.js';
import { applyWaf, sha256 } from './apply.js';
import { shownState, tierOf } from './model.js';
import type { RulesetConfig, WafLive } from './model.js';
import { planWaf } from './plan.js';
import type { WafPlanInput } from './plan.js';
import { readFirewallFacts } from './firewall.js';
import { whereInFile } from '../shared/api.js';
import { readCatalogue, seenVersionOf } from './catalogue.js';
import { readRulesetEntries, rulesetIdOf } from './exceptions.js';

/** The managed rulesets a desired `waf` names (known ids only; validate refuses the rest). */
function namedRulesetIds(desired: unknown): string[] {
  if ((desired as WafPlanInput | undefined)?.managed_rules !== 'new') return [];
  const ids = readRulesetEntries(desired).map((e) => rulesetIdOf(String(e.ruleset)));
  return [...new Set(ids.filter((id): id is string => id !== undefined))];
}

/** Per named ruleset, the version its execute rule in the entry point was last written against. */
function seenVersions(
  entrypoint: RulesetConfig | null | undefined,
  ids: string[],
): Record<string, string | undefined> {
  const rules = entrypoint?.rules ?? [];
  return Object.fromEntries(
    ids.map((id) => [
      id,
      seenVersionOf(
        rules.find((r) => r.action === 'execute' && String(r.action_parameters?.id).toLowerCase() === id),
      ),
    ]),
  );
}

export const wafRuntime: KindRuntime<WafPlanInput, WafLive> = {
  // WAF migration and rulesets endpoints accept only API tokens
  requiresToken: true,
  async read(ctx) {
    const { client } = ctx;
    const zone = ctx.owner.id;
    const status = await getStatus(client, zone);
    const live: WafLive = { tier: tierOf(ctx.owner.info), status, uriOverrides: [] };
    if (shownState(status.migration_state) === 'previous') {
      // GETs only. The check is also a step of the plan (re-run just before the migration); reading it
      // here turns its reasons (over 200 firewall rules, a 4 KB expression) into plan errors. It moves
      // `default` to `start`, which the plan treats as one state.
      const [check, config, overrides, firewall] = await Promise.all([
        checkCompatibility(client, zone),
        getMigrationConfig(client, zone).catch(() => undefined as RulesetConfig | undefined),
        listUriOverrides(client, zone),
        readFirewallFacts(client, zone),
      ]);
      live.check = check;
      live.config = config;
      live.uriOverrides = overrides;
      live.firewall = firewall;
    } else {
      live.entrypoint = await getEntrypoint(client, zone);
    }
    // The catalogue costs requests (one list, one per named ruleset): only a file that names
    // managed rulesets pays for it, so the read differs by what the file asks (docs/adding-a-kind.md).
    const ids = namedRulesetIds(ctx.desired);
    if (ids.length > 0)
      live.catalogue = await readCatalogue(client, zone, ids, seenVersions(live.entrypoint, ids));
    return live;
  },
  plan(desired, live, ctx) {
    const entryPath = typeof ctx.entry.path === 'string' ? ctx.entry.path : `zones[${ctx.owner.name}]`;
    // locations only say where a plan-time error is; a caller without a loaded file has none
    const locations = ctx.desired?.locations as Parameters<typeof whereInFile>[0] | undefined;
    const path = `${entryPath}.waf`;
    const drafts = planWaf(desired, live, path, sha256, {
      zone: ctx.owner.name,
      locate: (at) => (locations ? whereInFile(locations, at) : undefined),
      warn: ctx.warn,
    });
    // every step comes from the zone's `waf` value as a whole (the merged overrides, the
    // migration): an env value anywhere in it stays masked in all of them
    return drafts.map((d) => ({ ...d, source: path }));
  },
  apply: applyWaf,
};
