/** The page_shield value of a zone entry as the runtime gets it (./desired.ts): policies with their paths. */
import { copyOf, withPaths } from '../../config/entry-copy.js';
import { childPath } from '../../config/paths.js';
import type { DesiredPageShield } from './desired.js';

export function buildPageShield(raw: Record<string, unknown>, path: string): DesiredPageShield {
  const ps = copyOf<DesiredPageShield>(raw);
  if (Array.isArray(ps.policies)) ps.policies = withPaths(ps.policies, childPath(path, 'policies'));
  return ps;
}
