/**
 * The zone's records after a run of batches, from the records read before and the batches'
 * answers: the batch endpoint answers with the full records it deleted, patched and created
 * (`{deletes, patches, puts, posts}`), so the engine's read-back can re-plan from this instead of
 * listing the zone again (docs/plan-and-apply.md, "The read-back"). Anything that does not settle
 * it (an answer without those lists, a fallback to one call per record) makes `value()` undefined,
 * and the engine reads the zone as it would without.
 */
import { isObject } from '../../rules/shared/values.js';
import { isServiceManaged, normLive, type LiveRecord } from './normalize.js';
import type { DnsLive } from './read.js';

const LISTS = ['deletes', 'patches', 'puts', 'posts'] as const;

export class LiveAfterBatches {
  private readonly records: Map<string, LiveRecord>;
  private settled = true;

  private constructor(
    private readonly before: DnsLive,
    private readonly zoneName: string,
  ) {
    this.records = new Map(before.records.map((r) => [r.id, r]));
  }

  /** Undefined without the live records the plan was made from (a zone created in this run). */
  static from(live: unknown, zoneName: string): LiveAfterBatches | undefined {
    const l = live as DnsLive | undefined;
    if (!l || !Array.isArray(l.records) || !Array.isArray(l.serviceManaged)) return undefined;
    return new LiveAfterBatches(l, zoneName);
  }

  /** Takes one batch's answer (its `result`). */
  add(result: unknown): void {
    if (!isObject(result) || !LISTS.every((k) => result[k] === undefined || Array.isArray(result[k]))) {
      this.settled = false;
      return;
    }
    const rows = (k: (typeof LISTS)[number]) => (result[k] ?? []) as unknown[];
    for (const raw of rows('deletes')) {
      if (!isObject(raw) || typeof raw.id !== 'string') return void (this.settled = false);
      this.records.delete(raw.id);
    }
    for (const raw of [...rows('patches'), ...rows('puts'), ...rows('posts')]) {
      if (!isObject(raw) || typeof raw.id !== 'string') return void (this.settled = false);
      // a record the API marks as its own would leave the planned list: only a read tells that
      if (isServiceManaged(raw, this.zoneName)) return void (this.settled = false);
      this.records.set(raw.id, normLive(raw, this.zoneName));
    }
  }

  /** Some write went another way than through a batch's answer. */
  unknown(): void {
    this.settled = false;
  }

  /** The zone's records after the batches, or undefined when the answers do not tell them. */
  value(): DnsLive | undefined {
    if (!this.settled) return undefined;
    return { records: [...this.records.values()], serviceManaged: this.before.serviceManaged };
  }
}
