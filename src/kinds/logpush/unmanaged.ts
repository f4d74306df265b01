/**
 * `export --unmanaged-by`: the live Logpush jobs of a zone that the files' `logpush` value does not
 * manage. A job is managed when the planner pairs it with a job of the file (plan.ts: by name, the
 * lowest id of a name, renames included); another live job of a paired name is purged by the files'
 * plan, so it counts as managed too. Jobs without a name are never paired: they are written out
 * (as comments, since the file cannot name them).
 */
import { resolveRename } from '../shared/renames.js';
import type { DesiredLogpush } from './desired.js';
import type { LiveJob } from './jobs.js';
import { liveJobsByName } from './plan.js';

export function unmanagedLogpush(raw: unknown, desired: unknown): { live?: unknown; managed: number } {
  const live = raw as LiveJob[];
  const byName = liveJobsByName(live);
  const pairedNames = new Set<string>();
  for (const job of (desired as DesiredLogpush).jobs ?? []) {
    let match = byName.get(job.name);
    if (job.renamed_from !== undefined) {
      const from = job.renamed_from;
      match =
        resolveRename({ current: match, old: byName.get(from), what: `job "${job.name}"`, from }) ?? match;
    }
    if (match) pairedNames.add(match.name);
  }
  const rest = live.filter((j) => !(j.named && pairedNames.has(j.name)));
  return { live: rest.length === 0 ? undefined : rest, managed: live.length - rest.length };
}
