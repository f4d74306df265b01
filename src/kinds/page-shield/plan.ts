/**
 * The pure plan of a zone's Page Shield: the feature switch, the CSP policies (identity =
 * description; create, in-place update, delete with purge), and the `max_malicious_scripts`
 * ceiling, which is not a change but a gate: over the ceiling, planning fails with a UserError
 * (exit 1) that names the count and the limit.
 */
import type { DesiredPageShield } from './desired.js';
import type { StepDraft } from '../../core/runtime.js';
import { UserError } from '../../errors.js';
import { planPolicies, policyBody, type PolicyFields } from './policies.js';
import { checkMaliciousCeiling, type DetectedScript } from './scripts.js';
import type { LivePolicy } from './policies.js';
import { renameAddress } from '../shared/renames.js';
import type { PolicyPlanOptions } from './policies.js';

export interface PageShieldLive {
  enabled: boolean;
  /** the other settings, as the settings read answered them (planning ignores them; fixtures copy them) */
  reporting?: { use_cloudflare_reporting_endpoint?: boolean; use_connection_url_path?: boolean };
  /** undefined when they were not read (the file names no `policies`: they are not managed) */
  policies?: LivePolicy[];
  /** active and infrequent scripts; undefined when they were not read (no ceiling in the file) */
  scripts?: DetectedScript[];
}

export type PageShieldApplyData =
  | { op: 'settings'; enabled: boolean }
  | { op: 'create'; body: Record<string, unknown> }
  | { op: 'update'; id: string; body: Record<string, unknown> }
  | { op: 'delete'; id: string };

const shown = (p: PolicyFields) => ({ ...p });

/**
 * `where`: the `file:line:col` of `max_malicious_scripts` when known, so the failure points at the
 * line to change, as validation errors do. `path`: the dotted path of the `page_shield` value, the
 * entry the settings step comes from (a policy's step comes from the policy).
 */
export function planPageShield(
  zone: string,
  desired: DesiredPageShield | undefined,
  live: PageShieldLive | undefined,
  where?: string,
  path?: string,
  options: PolicyPlanOptions = {},
): StepDraft[] {
  if (!desired) return [];
  if (desired.max_malicious_scripts !== undefined && live?.scripts) {
    const ceiling = checkMaliciousCeiling(zone, desired.max_malicious_scripts, live.scripts);
    if (!ceiling.ok) {
      const message = ceiling.message ?? `zone ${zone}: too many malicious scripts`;
      throw new UserError(where ? `${where}: ${message}` : message);
    }
  }
  const drafts: StepDraft[] = [];
  // A zone the plan creates starts with Page Shield off, as a new zone does.
  const liveEnabled = live?.enabled ?? false;
  if (desired.enabled !== undefined && desired.enabled !== liveEnabled) {
    drafts.push({
      key: 'settings',
      action: 'update',
      address: 'settings',
      before: { enabled: liveEnabled },
      after: { enabled: desired.enabled },
      summary: desired.enabled ? 'enable Page Shield' : 'disable Page Shield',
      source: path,
      data: { op: 'settings', enabled: desired.enabled } satisfies PageShieldApplyData,
    });
  }
  // Policies are written after Page Shield is switched on, so they take effect from the start.
  const afterSettings = drafts.length > 0 && desired.enabled ? ['settings'] : undefined;
  for (const change of planPolicies(desired.policies, live?.policies ?? [], desired.purge ?? true, options)) {
    const address = `policy "${change.description}"`;
    if (change.action === 'create') {
      drafts.push({
        key: `create:${change.description}`,
        action: 'create',
        address,
        before: null,
        after: shown(change.after),
        dependsOn: afterSettings,
        source: change.path,
        data: {
          op: 'create',
          body: policyBody(change.after),
        } satisfies PageShieldApplyData,
      });
    } else if (change.action === 'update') {
      const from = change.renamedFrom;
      drafts.push({
        key: change.id,
        action: 'update',
        address: from === undefined ? address : renameAddress('policy', from, change.description),
        ...(from !== undefined ? { rename: { from, to: change.description } } : {}),
        before: shown(change.before),
        after: shown(change.after),
        liveId: change.id,
        dependsOn: afterSettings,
        source: change.path,
        data: {
          op: 'update',
          id: change.id,
          body: policyBody(change.after),
        } satisfies PageShieldApplyData,
      });
    } else {
      drafts.push({
        key: change.id,
        action: 'delete',
        address: change.duplicate ? `${address} (duplicate ${change.id})` : address,
        before: shown(change.before),
        after: null,
        liveId: change.id,
        data: { op: 'delete', id: change.id } satisfies PageShieldApplyData,
      });
    }
  }
  return drafts;
}
