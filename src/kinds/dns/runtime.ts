/**
 * The runtime half of the `dns` kind (see docs/adding-a-kind.md, where this is the worked example).
 */
import type { DesiredDns } from './desired.js';
import type { KindRuntime, StepDraft } from '../../core/runtime.js';
import { whereInFile } from '../shared/api.js';
import { applyDns } from './apply.js';
import { batchLimit } from './batch-limit.js';
import { ADDRESS_TYPES, type NormRecord } from './normalize.js';
import { planOwnedDns } from './owners.js';
import { prepareDesired } from './plan.js';
import { ownerSettingsOf } from '../shared/owners.js';
import { readDnsRecords, type DnsLive } from './read.js';

/** Refuses (without --force) to leave a zone that had an A/AAAA record with none. */
export function lastAddressGuard(live: DnsLive | undefined, drafts: StepDraft[]): string[] {
  // only deletes can leave a zone without an address record: a plan without one needs no count
  if (!drafts.some((d) => d.action === 'delete')) return [];
  let had = 0;
  for (const r of live?.records ?? []) if (ADDRESS_TYPES.has(r.type)) had++;
  if (had === 0) return [];
  const isAddress = (d: StepDraft) => ADDRESS_TYPES.has(((d.after ?? d.before) as NormRecord).type);
  const deleted = drafts.filter((d) => d.action === 'delete' && isAddress(d)).length;
  const created = drafts.filter((d) => d.action === 'create' && isAddress(d)).length;
  if (had - deleted + created > 0) return [];
  return [`the zone would be left with no A or AAAA record (it has ${had})`];
}

/** A zone the plan creates starts on the Free plan (POST /zones gives no other): its limits hold. */
const NEW_ZONE = { plan: { legacy_id: 'free' } };

export const dnsRuntime: KindRuntime<DesiredDns, DnsLive> = {
  read: (ctx) => {
    const desired = ctx.desired as DesiredDns | undefined;
    const prepare = desired?.records ? () => void prepareDesired(desired, ctx.owner.name) : undefined;
    return readDnsRecords(ctx.client, ctx.owner.id, ctx.owner.name, prepare);
  },
  plan: (desired, live, ctx) =>
    desired
      ? planOwnedDns({
          owner: ownerSettingsOf(ctx.entry),
          zone: ctx.owner.name,
          desired,
          live: live?.records ?? [],
          path: `${String(ctx.entry.path ?? '')}.dns`,
          locate: (path) => whereInFile(ctx.desired.locations, path),
          zoneInfo: ctx.owner.info ?? (ctx.owner.id ? undefined : NEW_ZONE),
          warn: ctx.warn,
        })
      : [],
  apply: (steps, ctx) => applyDns(steps, ctx),
  noun: 'records',
  liveCount: (live) => live?.records.length ?? 0,
  guards: (_desired, live, drafts) => lastAddressGuard(live, drafts),
  estimateCalls: (steps, owner) =>
    steps.length === 0 ? 0 : Math.ceil(steps.length / batchLimit(owner.info)),
};
