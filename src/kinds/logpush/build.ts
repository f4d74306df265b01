/** The logpush value of a zone entry as the runtime gets it (./desired.ts): jobs with their paths. */
import { copyOf, withPaths } from '../../config/entry-copy.js';
import { childPath } from '../../config/paths.js';
import type { DesiredLogpush } from './desired.js';

export function buildLogpush(raw: Record<string, unknown>, path: string): DesiredLogpush {
  const lp = copyOf<DesiredLogpush>(raw);
  if (Array.isArray(lp.jobs)) lp.jobs = withPaths(lp.jobs, childPath(path, 'jobs'));
  return lp;
}
