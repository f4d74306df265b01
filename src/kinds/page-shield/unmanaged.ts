/**
 * `export --unmanaged-by`: what of a zone's Page Shield the files' `page_shield` value does not
 * manage. A policy is managed when the planner pairs it with a policy of the file (by description,
 * renames included, ./policies.ts); a live policy with the description of a paired one is that
 * one's duplicate, which the files' plan deletes with purge, so it counts as managed too. The
 * switch (`enabled`) is managed when the file sets it.
 */
import type { DesiredPageShield } from './desired.js';
import type { PageShieldLive } from './plan.js';
import { planPolicies } from './policies.js';

/** The unmanaged part: `enabled` undefined when the files set it. */
export type PageShieldPart = Omit<PageShieldLive, 'enabled'> & { enabled?: boolean };

export function unmanagedPageShield(raw: unknown, desired: unknown): { live?: unknown; managed: number } {
  const read = raw as PageShieldLive;
  // export reads every part (no desired value), so the policies are there
  const live = { ...read, policies: read.policies ?? [] };
  const want = desired as DesiredPageShield;
  const policies =
    want.policies === undefined
      ? live.policies
      : (() => {
          const unpaired = new Set(
            planPolicies(want.policies, live.policies, true)
              .filter((c) => c.action === 'delete' && !c.duplicate)
              .map((c) => (c as { id: string }).id),
          );
          return live.policies.filter((p) => unpaired.has(p.id));
        })();
  const enabled = want.enabled === undefined ? live.enabled : undefined;
  const managed = live.policies.length - policies.length;
  if (policies.length === 0 && enabled === undefined) return { managed };
  const part: PageShieldPart = { ...live, enabled, policies };
  return { live: part, managed };
}
