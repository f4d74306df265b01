/**
 * "No recipient is lost": before legacy pool e-mails are cleared, every address in a pool's
 * `notification_email` must keep receiving every kind of event it received before, from the
 * account-level policies that will exist after the apply.
 *
 * The rule (documented in docs/kinds/load-balancing.md): address A of pool P is covered for the event
 * (source S, health H) when some policy fires for that event (the shared rule
 * `policyMatchesHealthEvent`: enabled, alert type `load_balancing_health_alert`, and each of its
 * `pool_id`, `event_source`, `new_health` filters absent or including P, S, H) and has A among its e-mail
 * mechanisms (case-insensitive). The events required are pool and origin changes to Unhealthy and Healthy, less
 * what the pool's own legacy `notification_filter` had switched off (a source with `disable: true`, or
 * `healthy: true|false` limiting it to one direction). Coverage may come from several policies together.
 */
import { policyMatchesHealthEvent } from '../../rules/notifications/index.js';
import type { PoolHealthEvent } from '../../rules/notifications/index.js';
import { EVENT_SOURCES, HEALTH_ALERT, HEALTH_STATES, legacyAddresses } from './model.js';
import type { LivePool, PolicyBody } from './model.js';

export interface CoverageGap {
  pool: { id: string; name: string };
  address: string;
  /** events not covered, as `source:health` */
  missing: string[];
}

/** The (source, health) events a pool's legacy e-mails reported, given its own legacy filter. */
export function requiredEvents(pool: LivePool): string[] {
  const events: string[] = [];
  for (const source of EVENT_SOURCES) {
    const f = pool.notification_filter?.[source];
    if (f?.disable === true) continue;
    for (const health of HEALTH_STATES) {
      if (f?.healthy === true && health !== 'Healthy') continue;
      if (f?.healthy === false && health !== 'Unhealthy') continue;
      events.push(`${source}:${health}`);
    }
  }
  return events;
}

function covers(policy: PolicyBody, poolId: string, address: string, event: string): boolean {
  const [source, health] = event.split(':') as [
    PoolHealthEvent['event_source'],
    PoolHealthEvent['new_health'],
  ];
  // which policies fire for a health change is the shared rule the local API alerts with
  if (!policyMatchesHealthEvent(policy, { pool_id: poolId, event_source: source, new_health: health }))
    return false;
  return (policy.mechanisms.email ?? []).some((m) => m.id.toLowerCase() === address.toLowerCase());
}

/** Every (pool, address) whose events would no longer reach it once legacy e-mails are cleared. */
export function coverageGaps(pools: LivePool[], policiesAfter: PolicyBody[]): CoverageGap[] {
  const gaps: CoverageGap[] = [];
  for (const pool of pools) {
    for (const address of legacyAddresses(pool.notification_email)) {
      const missing = requiredEvents(pool).filter(
        (event) => !policiesAfter.some((p) => covers(p, pool.id, address, event)),
      );
      if (missing.length) gaps.push({ pool: { id: pool.id, name: pool.name }, address, missing });
    }
  }
  return gaps;
}

/** One message that names every uncovered address and its pools, grouped by address. */
export function describeGaps(gaps: CoverageGap[]): string {
  const byAddress = new Map<string, string[]>();
  for (const g of gaps) {
    const list = byAddress.get(g.address) ?? [];
    list.push(`${g.pool.name} (${g.pool.id}; missing ${g.missing.join(', ')})`);
    byAddress.set(g.address, list);
  }
  const lines = [...byAddress].map(([address, pools]) => `  ${address}: ${pools.join('; ')}`);
  return (
    'legacy_pool_emails: remove would lose recipients: these legacy pool e-mail addresses are not covered by an ' +
    `enabled ${HEALTH_ALERT} policy that covers the pool and e-mails the address for every event it received:\n` +
    lines.join('\n') +
    '\nadd the addresses to a notification policy covering those pools (e.g. `pools: all`), or keep the legacy e-mails'
  );
}
