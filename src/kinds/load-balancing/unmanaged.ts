/**
 * `export --unmanaged-by`: the live notification policies of an account that the files'
 * `load_balancing` value does not manage. A policy is managed when the planner finds it for a
 * notification of the file (plan.ts: by name, exact first, then ignoring case; renames included).
 * `legacy_pool_emails` is a setting the part never writes (omitted, it keeps the pools as they are).
 */
import { resolveRename } from '../shared/renames.js';
import { MANAGED_ALERT_TYPES, type LoadBalancingLive } from './model.js';
import { findPolicy } from './plan.js';
import { readNotifications } from './policies.js';

export function unmanagedLoadBalancing(raw: unknown, desired: unknown): { live?: unknown; managed: number } {
  const live = raw as LoadBalancingLive;
  const paired = new Set<string>();
  for (const n of readNotifications(desired)) {
    let match = findPolicy(live.policies, n.name);
    if (n.renamed_from !== undefined) {
      const from = n.renamed_from;
      const what = `notification policy "${n.name}"`;
      match = resolveRename({ current: match, old: findPolicy(live.policies, from), what, from }) ?? match;
    }
    if (match) paired.add(match.id);
  }
  const policies = live.policies.filter((p) => !paired.has(p.id));
  // policies of other alert types are not the kind's: they alone leave nothing to write
  const left = policies.some((p) => MANAGED_ALERT_TYPES.has(p.alert_type));
  return {
    live: left ? { ...live, policies } : undefined,
    managed: paired.size,
  };
}
