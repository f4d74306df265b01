/**
 * The safety rule (docs/reference/design.md section 4, after octoDNS's raise_if_unsafe): a plan that updates or deletes more
 * than 30% of an owner's objects of one kind, where there are at least 10, needs --force; so does
 * anything a kind's own guards name (e.g. leaving a zone with no address record).
 */
import type { KindRuntime, StepDraft } from './runtime.js';

export const UNSAFE_SHARE = 0.3;
export const UNSAFE_MIN_OBJECTS = 10;

export function safetyGuards(
  runtime: KindRuntime,
  desired: unknown,
  live: unknown,
  drafts: StepDraft[],
): string[] {
  const out: string[] = [];
  if (runtime.liveCount) {
    const total = runtime.liveCount(live);
    const changed = drafts.filter((d) => d.action === 'update' || d.action === 'delete').length;
    if (total >= UNSAFE_MIN_OBJECTS && changed / total > UNSAFE_SHARE) {
      const pct = Math.round((changed / total) * 100);
      out.push(
        `${changed} of ${total} ${runtime.noun ?? 'objects'} would be updated or deleted (${pct}%, more than 30%)`,
      );
    }
  }
  if (runtime.guards) out.push(...runtime.guards(desired, live, drafts));
  return out;
}
