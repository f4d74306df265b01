/**
 * Owners of Logpush jobs (docs/sharing-a-zone.md): the marker ends the job's `name`
 * (`NAME.zoneplan-owner.OWNER`). A job keeps no free-text field besides its name (the others say
 * what is delivered where), and the name allows only letters, digits, `-` and `.`: an owner's `_`
 * is written as `.`, which an owner name never holds, so the marker reads back unambiguously. The
 * name is also the job's identity: the marker is taken off before pairing and before a step shows
 * it, and put back on every write (../shared/owners.ts).
 */
import type { StepDraft } from '../../core/runtime.js';
import { UserError } from '../../errors.js';
import { MAX_JOB_NAME_LENGTH } from '../../rules/logpush/index.js';
import { claimLive, markWrites, MARKER_WORD, type MarkedText, type OwnerSettings } from '../shared/owners.js';
import type { DesiredLogpush } from './desired.js';
import type { LiveJob } from './jobs.js';
import { displayJob, type LogpushApplyData } from './plan.js';

const SEPARATOR = `.${MARKER_WORD}.`;

/** The stored name for the user's `name` and `owner`. */
export function encodeJobName(name: string, owner: string | undefined): string {
  if (owner === undefined) return name;
  const marker = `${MARKER_WORD}.${owner.replaceAll('_', '.')}`;
  return name === '' ? marker : `${name}.${marker}`;
}

/** The user's name and the owner of a stored job name. */
export function decodeJobName(stored: string): MarkedText {
  const prefix = `${MARKER_WORD}.`;
  let text = '';
  let rest: string;
  if (stored.startsWith(prefix)) rest = stored.slice(prefix.length);
  else {
    const at = stored.indexOf(SEPARATOR);
    if (at < 0) return { text: stored };
    text = stored.slice(0, at);
    rest = stored.slice(at + SEPARATOR.length);
  }
  const owner = rest.replaceAll('.', '_');
  return /^[A-Za-z0-9_-]+$/.test(owner) ? { text, owner } : { text: stored };
}

/** Why a job name cannot carry the owner's marker, or undefined when it can. */
export function jobNameProblem(name: string, owner: string | undefined): string | undefined {
  if (name.includes(`${MARKER_WORD}.`)) {
    return `"${name}" holds "${MARKER_WORD}.", which zoneplan reads as an owner marker; choose another name`;
  }
  if (owner === undefined) return undefined;
  const stored = encodeJobName(name, owner).length;
  if (stored <= MAX_JOB_NAME_LENGTH) return undefined;
  return (
    `is ${name.length} characters, and with the marker of owner ${owner} (${stored - name.length} more) ` +
    `${stored}; the API takes at most ${MAX_JOB_NAME_LENGTH}: shorten it`
  );
}

export interface OwnedPlanInput {
  desired: DesiredLogpush | undefined;
  live: LiveJob[] | undefined;
  owner: OwnerSettings | undefined;
  zone: string;
  locate: (path: string) => string | undefined;
  /** the plan of the kind, on live jobs whose names are the user's text */
  plan(live: LiveJob[] | undefined): StepDraft[];
}

export function planOwnedLogpush(input: OwnedPlanInput): StepDraft[] {
  const { desired, live, owner } = input;
  const liveOwners = new Map<string, string | undefined>();
  const stripped = live?.map((j) => {
    const { text, owner: marked } = decodeJobName(j.name);
    liveOwners.set(String(j.id), marked);
    return { ...j, name: text };
  });
  let planned = stripped;
  let adopted = new Set<string>();
  if (owner && stripped) {
    const byIdentity = new Map<string, { path: string; name: string }>();
    for (const d of desired?.jobs ?? []) {
      byIdentity.set(d.name, d);
      if (d.renamed_from !== undefined) byIdentity.set(d.renamed_from, d);
    }
    const byId = new Map(stripped.map((j) => [String(j.id), j]));
    const claims = claimLive(
      stripped.map((j) => ({
        id: String(j.id),
        owner: liveOwners.get(String(j.id)),
        label: () => (j.named ? `job "${j.name}" (id ${j.id})` : `job ${j.id}`),
      })),
      owner,
      (object) => {
        const job = byId.get(object.id)!;
        const d = job.named ? byIdentity.get(job.name) : undefined;
        return d && { where: input.locate(d.path), what: `zone ${input.zone}: job "${d.name}"` };
      },
    );
    if (claims.problems.length > 0) throw new UserError(claims.problems.join('\n'));
    planned = stripped.filter((j) => claims.planned.has(String(j.id)));
    adopted = claims.adopted;
  }
  return markWrites(input.plan(planned), {
    owner,
    liveOwners,
    adopted,
    mark(data, markOwner) {
      const d = data as LogpushApplyData;
      if (d.op === 'delete') return d;
      return { ...d, body: { ...d.body, name: encodeJobName(String(d.body.name ?? ''), markOwner) } };
    },
    markOnly(id) {
      const job = planned!.find((j) => String(j.id) === id)!;
      // PUT takes any subset of the create fields: the name alone changes nothing else
      const body = { name: encodeJobName(job.name, owner?.name) };
      return {
        key: id,
        action: 'update',
        address: `job "${job.name}"`,
        before: { ...displayJob(job), owner: null },
        after: { ...displayJob(job), owner: owner?.name ?? null },
        liveId: id,
        summary: `mark job "${job.name}" as owner ${owner?.name}`,
        data: { op: 'update', id: job.id, body } satisfies LogpushApplyData,
      };
    },
  });
}

/** The live state export writes from: every job name as its user wrote it (`zoneplan export`). */
export function withoutJobMarkers(live: unknown): unknown {
  if (!Array.isArray(live)) return live;
  return (live as LiveJob[]).map((j) => ({ ...j, name: decodeJobName(j.name).text }));
}
