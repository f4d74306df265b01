/**
 * Owners of Page Shield policies (docs/sharing-a-zone.md): the marker ends the policy's
 * `description` (` [zoneplan-owner:NAME]`), the only free-text field a policy keeps; the others
 * (action, expression, value, enabled) mean something to the edge. The description is also the
 * policy's identity, so the marker is taken off before pairing and before a step shows it, and put
 * back on every write (../shared/owners.ts).
 */
import type { StepDraft } from '../../core/runtime.js';
import { UserError } from '../../errors.js';
import { claimLive, decodeText, encodeText, markWrites, type OwnerSettings } from '../shared/owners.js';
import type { DesiredPageShield } from './desired.js';
import type { PageShieldApplyData, PageShieldLive } from './plan.js';
import { policyBody, type LivePolicy } from './policies.js';

export interface OwnedPlanInput {
  desired: DesiredPageShield | undefined;
  live: PageShieldLive | undefined;
  owner: OwnerSettings | undefined;
  zone: string;
  locate: (path: string) => string | undefined;
  /** the plan of the kind, on live policies whose descriptions are the user's text */
  plan(live: PageShieldLive | undefined): StepDraft[];
}

export function planOwnedPageShield(input: OwnedPlanInput): StepDraft[] {
  const { desired, live, owner } = input;
  // no policies read (the file names none): nothing to claim
  if (!live?.policies) return markAll(input.plan(live), owner, new Map(), new Set(), []);
  const liveOwners = new Map<string, string | undefined>();
  const stripped: LivePolicy[] = live.policies.map((p) => {
    const { text, owner: marked } = decodeText(p.description);
    liveOwners.set(p.id, marked);
    return { ...p, description: text };
  });
  let planned = stripped;
  let adopted = new Set<string>();
  if (owner) {
    const byIdentity = new Map<string, { path: string; description: string }>();
    for (const d of desired?.policies ?? []) {
      byIdentity.set(d.description, d);
      if (d.renamed_from !== undefined) byIdentity.set(d.renamed_from, d);
    }
    const claims = claimLive(
      stripped.map((p) => ({
        id: p.id,
        owner: liveOwners.get(p.id),
        label: () => `policy "${p.description}" (id ${p.id})`,
      })),
      owner,
      (object) => {
        const d = byIdentity.get(stripped.find((p) => p.id === object.id)!.description);
        return d && { where: input.locate(d.path), what: `zone ${input.zone}: policy "${d.description}"` };
      },
    );
    if (claims.problems.length > 0) throw new UserError(claims.problems.join('\n'));
    planned = stripped.filter((p) => claims.planned.has(p.id));
    adopted = claims.adopted;
  }
  return markAll(input.plan({ ...live, policies: planned }), owner, liveOwners, adopted, planned);
}

function markAll(
  drafts: StepDraft[],
  owner: OwnerSettings | undefined,
  liveOwners: Map<string, string | undefined>,
  adopted: Set<string>,
  planned: LivePolicy[],
): StepDraft[] {
  return markWrites(drafts, {
    owner,
    liveOwners,
    adopted,
    mark(data, markOwner) {
      const d = data as PageShieldApplyData;
      if (d.op !== 'create' && d.op !== 'update') return d;
      const description = encodeText(String(d.body.description), markOwner);
      return { ...d, body: { ...d.body, description } };
    },
    markOnly(id) {
      const { id: _id, ...fields } = planned.find((p) => p.id === id)!;
      const body = policyBody({ ...fields, description: encodeText(fields.description, owner?.name) });
      return {
        key: id,
        action: 'update',
        address: `policy "${fields.description}"`,
        before: { ...fields, owner: null },
        after: { ...fields, owner: owner?.name ?? null },
        liveId: id,
        summary: `mark policy "${fields.description}" as owner ${owner?.name}`,
        data: { op: 'update', id, body } satisfies PageShieldApplyData,
      };
    },
  });
}

/** The live state export writes from: every description as its user wrote it (`zoneplan export`). */
export function withoutPolicyMarkers(live: unknown): unknown {
  const ps = live as PageShieldLive | undefined;
  if (!ps?.policies) return live;
  return { ...ps, policies: ps.policies.map((p) => ({ ...p, description: decodeText(p.description).text })) };
}
