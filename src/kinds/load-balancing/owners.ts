/**
 * Owners of notification policies (docs/sharing-a-zone.md): the marker ends the policy's
 * `description` (` [zoneplan-owner:NAME]`), its one free-text field beside the name; the name is
 * the identity and stays the user's. The marker is taken off before comparing and before a step
 * shows the description, and put back on every write (../shared/owners.ts). An account entry's
 * `owner` decides, as a zone entry's does for the zone's objects.
 */
import type { StepDraft } from '../../core/runtime.js';
import { UserError } from '../../errors.js';
import { claimLive, decodeText, encodeText, markWrites, type OwnerSettings } from '../shared/owners.js';
import type { LivePolicy, LoadBalancingLive } from './model.js';
import type { LbPlanInput, LbStepData } from './plan.js';
import { readNotifications } from './policies.js';

export interface OwnedPlanInput {
  desired: LbPlanInput | undefined;
  live: LoadBalancingLive | undefined;
  owner: OwnerSettings | undefined;
  account: string;
  /** `accounts[0].load_balancing`: notification i is `${path}.notifications[i]` */
  path: string;
  locate: (path: string) => string | undefined;
  /**
   * The plan of the kind, on live policies whose descriptions are the user's text; `kept` are the
   * live policies it may not touch, which still count for the legacy e-mails' coverage.
   */
  plan(live: LoadBalancingLive | undefined, kept: LivePolicy[]): StepDraft[];
}

const userDescription = (p: LivePolicy): LivePolicy => {
  const { description, ...rest } = p;
  const text = description === undefined ? '' : decodeText(description).text;
  return text === '' ? rest : { ...rest, description: text };
};

export function planOwnedLoadBalancing(input: OwnedPlanInput): StepDraft[] {
  const { desired, live, owner } = input;
  const liveOwners = new Map<string, string | undefined>();
  const stripped = live?.policies.map((p) => {
    liveOwners.set(p.id, p.description === undefined ? undefined : decodeText(p.description).owner);
    return userDescription(p);
  });
  let planned = stripped;
  let adopted = new Set<string>();
  if (owner && stripped) {
    const byIdentity = new Map<string, { at: string; name: string }>();
    readNotifications(desired).forEach((n, i) => {
      const named = { at: `${input.path}.notifications[${i}]`, name: n.name };
      byIdentity.set(n.name.toLowerCase(), named);
      if (n.renamed_from !== undefined) byIdentity.set(n.renamed_from.toLowerCase(), named);
    });
    const byId = new Map(stripped.map((p) => [p.id, p]));
    const claims = claimLive(
      stripped.map((p) => ({
        id: p.id,
        owner: liveOwners.get(p.id),
        label: () => `notification policy "${p.name}" (id ${p.id})`,
      })),
      owner,
      (object) => {
        const d = byIdentity.get(byId.get(object.id)!.name.toLowerCase());
        return (
          d && {
            where: input.locate(d.at),
            what: `account ${input.account}: notification policy "${d.name}"`,
          }
        );
      },
    );
    if (claims.problems.length > 0) throw new UserError(claims.problems.join('\n'));
    planned = stripped.filter((p) => claims.planned.has(p.id));
    adopted = claims.adopted;
  }
  const seen = live && planned ? { ...live, policies: planned } : live;
  const kept = stripped?.filter((p) => !planned!.includes(p)) ?? [];
  return markWrites(input.plan(seen, kept), {
    owner,
    liveOwners,
    adopted,
    mark(data, markOwner) {
      const d = data as LbStepData;
      if (d.op !== 'create' && d.op !== 'update') return d;
      const description = encodeText(d.body.description ?? '', markOwner);
      return { ...d, body: { ...d.body, ...(description === '' ? {} : { description }) } };
    },
    markOnly(id) {
      const policy = planned!.find((p) => p.id === id)!;
      const { id: _id, ...fields } = policy;
      const body = { ...fields, description: encodeText(fields.description ?? '', owner?.name) };
      return {
        key: id,
        action: 'update',
        address: `notification policy "${policy.name}"`,
        before: { name: policy.name, owner: null },
        after: { name: policy.name, owner: owner?.name ?? null },
        liveId: id,
        summary: `mark notification policy "${policy.name}" as owner ${owner?.name}`,
        data: { op: 'update', id, body } satisfies LbStepData,
      };
    },
  });
}

/** The live state export writes from: every description as its user wrote it (`zoneplan export`). */
export function withoutPolicyMarkers(live: unknown): unknown {
  const lb = live as LoadBalancingLive | undefined;
  if (!lb?.policies) return live;
  return { ...lb, policies: lb.policies.map(userDescription) };
}
