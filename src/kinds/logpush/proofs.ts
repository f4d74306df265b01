/**
 * Destination ownership in a rehearsal (KindFixtures.prove). The sandbox counts the destinations of
 * the live jobs as proven, but a job for any other s3/gs/azure destination carries a challenge the
 * real target issued and the sandbox cannot know. So each such challenge the plan's creates and
 * destination changes carry is sent to the target's side-effect-free check,
 * `POST /zones/{id}/logpush/ownership/validate {destination_conf, ownership_challenge}` -> `{valid}`,
 * and the pairs it calls valid go into the sandbox as proven (`zones[].logpush.proven`, in memory
 * only). A pair it calls invalid stays unproven: the sandbox refuses the step with the API's
 * message, as the target would. Neither value is ever printed (both are registered secrets).
 */
import type { ReadContext, Step } from '../../core/runtime.js';
import { needsOwnershipChallenge, ownershipKey } from '../../rules/logpush/index.js';
import type { LiveJob } from './jobs.js';
import type { LogpushApplyData } from './plan.js';

export interface OwnershipProof {
  destination_conf: string;
  ownership_challenge: string;
}

/** The in-memory value of a rehearsal: the live jobs and the pairs the target validated. */
export interface ProvenJobs {
  jobs: LiveJob[];
  proven: OwnershipProof[];
}

/** The jobs and proofs of a fixtures value: the live jobs as read, or a rehearsal's ProvenJobs. */
export function jobsAndProofs(value: unknown): ProvenJobs {
  if (Array.isArray(value)) return { jobs: value as LiveJob[], proven: [] };
  return value as ProvenJobs;
}

/** The (destination, challenge) pairs of `steps` that the live jobs' destinations do not prove. */
export function pairsToValidate(live: LiveJob[], steps: Step[]): OwnershipProof[] {
  const provenByLive = new Set(live.map((j) => ownershipKey(j.destination_conf)));
  const pairs = new Map<string, OwnershipProof>();
  for (const step of steps) {
    const data = step.data as LogpushApplyData | undefined;
    if (!data || data.op === 'delete') continue;
    const destination = data.body.destination_conf;
    const challenge = data.body.ownership_challenge;
    if (typeof destination !== 'string' || typeof challenge !== 'string' || challenge === '') continue;
    if (!needsOwnershipChallenge(destination) || provenByLive.has(ownershipKey(destination))) continue;
    pairs.set(JSON.stringify([destination, challenge]), {
      destination_conf: destination,
      ownership_challenge: challenge,
    });
  }
  return [...pairs.values()];
}

export async function proveOwnership(live: unknown, steps: Step[], ctx: ReadContext): Promise<ProvenJobs> {
  const { jobs, proven } = jobsAndProofs(live);
  const valid = [...proven];
  // one request per pair, one after another: a plan rarely adds more than a few destinations
  for (const pair of pairsToValidate(jobs, steps)) {
    const res = await ctx.client.request<{ valid?: boolean } | null>(
      'POST',
      `/zones/${ctx.owner.id}/logpush/ownership/validate`,
      { body: pair },
    );
    if (res.result?.valid === true) valid.push(pair);
  }
  return { jobs, proven: valid };
}
