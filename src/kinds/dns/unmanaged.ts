/**
 * `export --unmanaged-by`: the live records of a zone that the files' `dns` value does not manage.
 * Managed means paired by the planner (plan.ts: by name and type, exact values first, then in value
 * order, renames included), so a live record beyond the file's records of its name and type, which
 * plan would purge or leave alone, is written out for adoption.
 */
import type { DesiredDns } from './desired.js';
import { unpairedLiveRecords } from './plan.js';
import type { DnsLive } from './read.js';
import type { OwnerRef } from '../../core/runtime.js';

export function unmanagedDns(
  raw: unknown,
  desired: unknown,
  owner: OwnerRef,
): { live?: unknown; managed: number } {
  const live = raw as DnsLive;
  const unpaired = unpairedLiveRecords(owner.name, desired as DesiredDns, live.records);
  const managed = live.records.length - unpaired.length;
  return { live: unpaired.length === 0 ? undefined : { ...live, records: unpaired }, managed };
}
