/**
 * Export of an account's load-balancing notifications: its notification policies of the alert types
 * this kind manages (identity = name), with pools by name where the name is unambiguous, and
 * `legacy_pool_emails: keep`, which leaves the pools' legacy e-mail as it is (a comment says how many
 * pools still have one and that `remove` migrates them). Policies of other alert types belong to
 * other tools and are not exported; a policy the file cannot hold (no name, a name another policy
 * has, a delivery mechanism the file has no key for) is listed in a comment and left alone (the
 * export does not turn on `purge`).
 */
import type { ExportContext, ExportResult, LayoutHint } from '../../core/export/types.js';
import { itemIndex } from '../../core/export/item-index.js';
import { HEALTH_ALERT, MANAGED_ALERT_TYPES, legacyAddresses } from './model.js';
import type { LivePolicy, LivePool, LoadBalancingLive } from './model.js';
import { normalizePolicy } from './policies.js';
import type { Entry } from '../../rules/shared/values.js';

const MECHANISMS = ['email', 'webhooks', 'pagerduty'] as const;
const OWN_FILTERS = ['pool_id', 'new_health', 'event_source'];

/** Pool references: the name when exactly one pool has it, else the id. */
function poolRefs(ids: string[], pools: LivePool[]): string[] {
  return ids
    .map((id) => {
      const pool = pools.find((p) => p.id === id);
      if (!pool || pool.name === '') return id;
      const same = pools.filter((p) => p.name.toLowerCase() === pool.name.toLowerCase());
      return same.length === 1 ? pool.name : id;
    })
    .sort();
}

function policyEntry(live: LivePolicy, pools: LivePool[]): Entry {
  const p = normalizePolicy(live);
  const e: Entry = { name: live.name, alert_type: p.alert_type };
  if (p.description) e.description = p.description;
  if (!p.enabled) e.enabled = false;
  if (p.filters.pool_id) e.pools = poolRefs(p.filters.pool_id, pools);
  if (p.filters.new_health) e.new_health = p.filters.new_health;
  if (p.filters.event_source) e.event_source = p.filters.event_source;
  for (const m of MECHANISMS) if (p.mechanisms[m]) e[m] = p.mechanisms[m].map((x) => x.id);
  const other = Object.keys(p.filters).filter((k) => !OWN_FILTERS.includes(k));
  if (other.length > 0) e.filters = Object.fromEntries(other.map((k) => [k, p.filters[k]]));
  return e;
}

function whyNot(p: LivePolicy, seen: Set<string>): string | undefined {
  if (p.name === '') return 'it has no name, its identity in the file';
  if (seen.has(p.name.toLowerCase())) return 'another policy has the same name';
  const unknown = Object.keys(p.mechanisms).filter(
    (m) => !(MECHANISMS as readonly string[]).includes(m) && p.mechanisms[m].length > 0,
  );
  if (unknown.length > 0) return `it delivers through ${unknown.join(', ')}, which the file has no key for`;
  return undefined;
}

export function exportLoadBalancing(raw: unknown, ctx: ExportContext): ExportResult {
  const live = raw as LoadBalancingLive;
  const rejected: { policy: LivePolicy; reason: string }[] = [];
  const seen = new Set<string>();
  let kept: LivePolicy[] = [];
  const managed = live.policies.filter((p) => MANAGED_ALERT_TYPES.has(p.alert_type));
  for (const p of [...managed].sort((a, b) => a.id.localeCompare(b.id))) {
    const reason = whyNot(p, seen);
    if (reason) rejected.push({ policy: p, reason });
    else {
      seen.add(p.name.toLowerCase());
      kept.push(p);
    }
  }
  kept.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  const problems = ctx.check({ notifications: kept.map((p) => policyEntry(p, live.pools)) });
  const bad = new Map<number, string>();
  for (const p of problems) {
    const i = itemIndex(p.path, 'notifications');
    if (i !== undefined && !bad.has(i)) bad.set(i, p.message);
  }
  rejected.push(...[...bad].map(([i, reason]) => ({ policy: kept[i], reason })));
  kept = kept.filter((_, i) => !bad.has(i));

  const withEmail = live.pools.filter((p) => legacyAddresses(p.notification_email).length > 0).length;
  // a part (export --unmanaged-by) leaves the setting to the other files: omitted, it is `keep`
  const value: Entry = ctx.part ? {} : { legacy_pool_emails: 'keep' };
  const layout: LayoutHint[] = [];
  if (!ctx.part)
    layout.push({
      path: ['legacy_pool_emails'],
      comment:
        withEmail > 0
          ? `${withEmail} of ${live.pools.length} pool(s) still alert by their legacy notification_email; ` +
            '`remove` clears it once the policies below cover every address'
          : `no pool of the ${live.pools.length} has a legacy notification_email`,
    });
  const notes: string[] = [];
  if (rejected.length > 0) {
    const lines = rejected.map(
      ({ policy, reason }) => `not managed: policy ${policy.id} ${JSON.stringify(policy.name)}: ${reason}`,
    );
    layout.push({ path: ['notifications'], commentBefore: lines.join('\n') });
    for (const line of lines) notes.push(`account ${ctx.owner.name}: load_balancing ${line}`);
  }
  value.notifications = kept.map((p) => policyEntry(p, live.pools));
  const others = live.policies.length - managed.length;
  if (others > 0) {
    layout.push({
      path: ['notifications'],
      comment: `${others} notification policy(ies) of other alert types than ${HEALTH_ALERT} and pool enablement are not exported`,
    });
  }
  return { value, layout, notes, counts: { notifications: kept.length, 'not managed': rejected.length } };
}
