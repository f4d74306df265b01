/**
 * Pure planning of an account's load-balancing notifications:
 *   1. create / update the file's notification policies (identity = name);
 *   2. with `purge: true`, delete the account's load-balancing policies the file does not name;
 *   3. with `legacy_pool_emails: remove`, one `migrate` step that clears `notification_email` on every
 *      pool, after every policy step, so that at no moment a pool is watched by nobody. The plan refuses
 *      (UserError) when an address in a legacy e-mail would not be covered afterwards (coverage.ts).
 */
import { UserError } from '../../errors.js';
import { placed } from '../shared/api.js';
import { createdFields } from '../../core/diff.js';
import type { StepDraft } from '../../core/runtime.js';
import { coverageGaps, describeGaps } from './coverage.js';
import { MANAGED_ALERT_TYPES, legacyAddresses } from './model.js';
import type { LivePolicy, LoadBalancingLive, PolicyBody } from './model.js';
import { desiredPolicyBody, normalizePolicy, readNotifications, samePolicy } from './policies.js';
import type { PlanProblem } from './policies.js';
import { renameAddress, resolveRename } from '../shared/renames.js';

export const CLEAR_KEY = 'legacy-pool-emails';

/** What apply needs for each step (kept out of plan files by the engine). */
export type LbStepData =
  | { op: 'create'; body: PolicyBody }
  | { op: 'update'; id: string; body: PolicyBody }
  | { op: 'delete'; id: string }
  | { op: 'clear-emails'; poolIds: string[]; totalPools: number };

export interface LbPlanInput {
  legacy_pool_emails?: unknown;
  purge?: unknown;
  notifications?: unknown;
}

/** Says where a path of the desired-state file is (`file:line:col`), when known. */
export type Locate = (path: string) => string | undefined;

export function planLoadBalancing(
  desired: LbPlanInput | undefined,
  live: LoadBalancingLive | undefined,
  path: string,
  locate: Locate = () => undefined,
  warn?: (message: string) => void,
  /** live policies left out of `live` (another owner's: ./owners.ts): they still alert after the apply */
  kept: PolicyBody[] = [],
): StepDraft[] {
  if (!desired) return [];
  const pools = live?.pools ?? [];
  const livePolicies = live?.policies ?? [];
  const problems: PlanProblem[] = [];
  const drafts: StepDraft[] = [];
  const afterApply: PolicyBody[] = [...kept];
  const named = new Set<string>();

  readNotifications(desired).forEach((n, i) => {
    const at = `${path}.notifications[${i}]`;
    let current = findPolicy(livePolicies, n.name);
    let renamedFrom: string | undefined;
    if (n.renamed_from !== undefined) {
      const old = resolveRename({
        current,
        old: findPolicy(livePolicies, n.renamed_from),
        what: `notification policy "${n.name}"`,
        from: n.renamed_from,
        at: locate(at),
        warn,
      });
      if (old) {
        current = old;
        renamedFrom = n.renamed_from;
      }
    }
    const body = desiredPolicyBody(n, pools, at, problems, current);
    afterApply.push(body);
    if (current) named.add(current.id);
    if (!current) {
      drafts.push({
        key: `create:${n.name}`,
        action: 'create',
        address: `notification policy "${n.name}"`,
        before: null,
        after: display(body, pools),
        changes: createdFields(display(body, pools)),
        source: at,
        data: { op: 'create', body } satisfies LbStepData,
      });
    } else if (!samePolicy(current, body)) {
      drafts.push({
        key: current.id,
        action: 'update',
        address:
          renamedFrom === undefined
            ? `notification policy "${n.name}"`
            : renameAddress('notification policy', current.name, n.name),
        ...(renamedFrom !== undefined ? { rename: { from: current.name, to: n.name } } : {}),
        before: display(current, pools),
        after: display(body, pools),
        liveId: current.id,
        source: at,
        data: { op: 'update', id: current.id, body } satisfies LbStepData,
      });
    }
  });

  for (const p of livePolicies) {
    if (named.has(p.id)) continue;
    if (desired.purge === true && MANAGED_ALERT_TYPES.has(p.alert_type)) {
      drafts.push({
        key: p.id,
        action: 'delete',
        address: `notification policy "${p.name}"`,
        before: display(p, pools),
        after: null,
        liveId: p.id,
        data: { op: 'delete', id: p.id } satisfies LbStepData,
      });
    } else {
      afterApply.push(p); // kept: it still alerts after the apply, so it counts for coverage
    }
  }

  if (problems.length) throw planError(problems, locate);

  if (desired.legacy_pool_emails === 'remove') {
    const withEmail = pools.filter((p) => legacyAddresses(p.notification_email).length > 0);
    if (withEmail.length > 0) {
      const gaps = coverageGaps(withEmail, afterApply);
      if (gaps.length) {
        // the message starts with `legacy_pool_emails: remove`: point at that line of the file
        const at = locate(`${path}.legacy_pool_emails`);
        throw new UserError(`${at ? `${at}: ` : ''}${path}: ${describeGaps(gaps)}`);
      }
      const byName = [...withEmail].sort((a, b) => a.name.localeCompare(b.name));
      drafts.push({
        key: CLEAR_KEY,
        action: 'migrate',
        address: `legacy notification_email of ${withEmail.length} pool${withEmail.length === 1 ? '' : 's'}`,
        before: Object.fromEntries(byName.map((p) => [`${p.name} (${p.id})`, p.notification_email])),
        after: Object.fromEntries(byName.map((p) => [`${p.name} (${p.id})`, ''])),
        summary: `clear legacy notification_email on ${withEmail.length} pool(s), after the policies exist`,
        changes: byName.map((p) => ({
          path: `${p.name} (${p.id}).notification_email`,
          before: p.notification_email,
          after: '',
        })),
        // every policy write first: the replacement alerts exist before the legacy ones stop
        dependsOn: drafts.map((d) => d.key),
        // the addresses may be those of any notification: the whole value, so env values stay masked
        source: path,
        data: {
          op: 'clear-emails',
          poolIds: byName.map((p) => p.id),
          totalPools: pools.length,
        } satisfies LbStepData,
      });
    }
  }
  return drafts;
}

/** Identity is the name: exact match first, then case-insensitive (the API keeps the case it was given). */
export function findPolicy(policies: LivePolicy[], name: string): LivePolicy | undefined {
  return (
    policies.find((p) => p.name === name) ?? policies.find((p) => p.name.toLowerCase() === name.toLowerCase())
  );
}

/**
 * The normalised policy as shown in the plan: pool ids as `name (id)` so that `pools: all` shows what
 * it expanded to. Fingerprints are taken on this form, so a renamed or added pool makes a saved plan stale.
 */
function display(p: PolicyBody, pools: LoadBalancingLive['pools']): Record<string, unknown> {
  const n = normalizePolicy(p);
  const names = new Map(pools.map((x) => [x.id, x.name]));
  const filters: Record<string, string[]> = { ...n.filters };
  // in name order (then id), like `pools: all` expands: the normalised form is in id order, which
  // reads as a shuffle once the names are shown
  if (filters.pool_id)
    filters.pool_id = [...filters.pool_id]
      .sort((a, b) => (names.get(a) ?? a).localeCompare(names.get(b) ?? b) || a.localeCompare(b))
      .map((id) => (names.has(id) ? `${names.get(id)} (${id})` : id));
  const out: Record<string, unknown> = { name: n.name, alert_type: n.alert_type, enabled: n.enabled };
  if (n.description) out.description = n.description;
  out.filters = filters;
  out.mechanisms = Object.fromEntries(Object.entries(n.mechanisms).map(([k, v]) => [k, v.map((m) => m.id)]));
  return out;
}

/** The fields of a new policy as `field: (unset) -> value` lines (the text plan prints changes only). */
/** One line per problem, each with the `file:line:col` of its path first, as validation errors have. */
function planError(problems: PlanProblem[], locate: Locate): UserError {
  return new UserError(problems.map((p) => placed(locate(p.path), p.path, p.message)).join('\n'));
}
