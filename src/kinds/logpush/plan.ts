/**
 * The pure plan of a zone's Logpush jobs: desired jobs paired with live jobs by name (docs/reference/design.md section 2),
 * then create, in-place update, replacement (a changed dataset: the API cannot change it, so the job
 * is deleted and created again, shown as two steps with the create depending on the delete) and,
 * with purge (default true), deletion of live jobs the file does not name.
 *
 * `before`/`after` hold the displayed form (masked destination, filter as an object), never a raw
 * credential; `data` holds the request bodies, which are never printed nor saved.
 */
import type { DesiredLogpush, DesiredLogpushJob } from './desired.js';
import type { StepDraft } from '../../core/runtime.js';
import { UserError } from '../../errors.js';
import { maskDestination, needsOwnershipChallenge, UPLOAD_FIELDS } from '../../rules/logpush/index.js';
import { displayDestination } from './destination.js';
import { changedFields, comparableLive, desiredJobFields, type JobFields, type LiveJob } from './jobs.js';
import { renameAddress, resolveRename } from '../shared/renames.js';

export type LogpushApplyData =
  | { op: 'create'; body: Record<string, unknown> }
  | { op: 'update'; id: number; body: Record<string, unknown> }
  | { op: 'delete'; id: number };

/** What the plan shows for a job. */
export function displayJob(f: JobFields): Record<string, unknown> {
  const shown: Record<string, unknown> = {
    name: f.name,
    dataset: f.dataset,
    ...displayDestination(f.destination_conf),
    enabled: f.enabled,
    filter: f.filter === '' ? null : JSON.parse(f.filter),
  };
  if (f.output_options !== undefined) shown.output_options = f.output_options;
  if (f.kind !== '') shown.kind = f.kind;
  for (const u of UPLOAD_FIELDS) if (f[u] !== undefined) shown[u] = f[u];
  return shown;
}

function createBody(job: DesiredLogpushJob, f: JobFields): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: f.name,
    dataset: f.dataset,
    destination_conf: f.destination_conf,
    enabled: f.enabled,
  };
  if (f.filter !== '') body.filter = f.filter;
  if (job.output_options !== undefined) body.output_options = job.output_options;
  if (job.kind !== undefined) body.kind = job.kind;
  for (const u of UPLOAD_FIELDS) if (f[u] !== undefined) body[u] = f[u];
  if (job.ownership_challenge) body.ownership_challenge = job.ownership_challenge;
  return body;
}

function updateBody(
  job: DesiredLogpushJob,
  f: JobFields,
  destinationChanged: boolean,
): Record<string, unknown> {
  // PUT takes the create fields minus dataset; an empty filter string removes the filter.
  const { dataset: _dataset, ...rest } = createBody(job, f);
  const body: Record<string, unknown> = { ...rest, filter: f.filter };
  if (job.kind === undefined) body.kind = '';
  // The challenge proves ownership of a new destination; an unchanged one needs none.
  if (!destinationChanged) delete body.ownership_challenge;
  return body;
}

/** Says where a path of the desired-state file is (`file:line:col`), when known. */
export type Locate = (path: string) => string | undefined;

function ownershipProblem(zone: string, job: DesiredLogpushJob, locate: Locate): string | undefined {
  if (job.ownership_challenge || !needsOwnershipChallenge(job.destination_conf)) return undefined;
  const at = locate(job.path);
  return (
    `logpush job "${job.name}" (${at ? `${at}: ` : ''}${job.path}): the destination ${maskDestination(job.destination_conf)} ` +
    `needs an ownership challenge and ownership_challenge is not set; run ` +
    `\`zoneplan logpush ownership ${zone} DESTINATION\`, read the challenge file it names, and set ` +
    'ownership_challenge (e.g. `${env:LOGPUSH_CHALLENGE}`)'
  );
}

/** The live jobs a desired job can pair with, by name: named ones, the lowest id of a name. */
export function liveJobsByName(live: LiveJob[]): Map<string, LiveJob> {
  const byName = new Map<string, LiveJob>();
  for (const j of [...live].sort((a, b) => a.id - b.id)) {
    if (j.named && !byName.has(j.name)) byName.set(j.name, j);
  }
  return byName;
}

/**
 * Plans one zone. `live` is undefined for a zone the plan creates. Throws UserError naming every
 * job whose destination needs an ownership challenge that the file does not give, when that job
 * is to be created or moved to another destination (the only times the API asks for one).
 */
export function planLogpush(
  zone: string,
  desired: DesiredLogpush | undefined,
  live: LiveJob[] | undefined,
  locate: Locate = () => undefined,
  warn?: (message: string) => void,
): StepDraft[] {
  if (!desired) return [];
  const drafts: StepDraft[] = [];
  const problems: string[] = [];
  const byName = liveJobsByName(live ?? []);
  const paired = new Set<number>();

  for (const job of desired.jobs ?? []) {
    const after = desiredJobFields(job);
    const address = `job "${job.name}"`;
    let match = byName.get(job.name);
    let renamedFrom: string | undefined;
    if (job.renamed_from !== undefined) {
      const old = resolveRename({
        current: match,
        old: byName.get(job.renamed_from),
        what: address,
        from: job.renamed_from,
        at: locate(job.path),
        warn,
      });
      if (old) {
        match = old;
        renamedFrom = job.renamed_from;
      }
    }
    const create = (dependsOn?: string[], summary?: string, shownAs = address) => {
      const problem = ownershipProblem(zone, job, locate);
      if (problem) problems.push(problem);
      drafts.push({
        key: `create:${job.name}`,
        action: 'create',
        address: shownAs,
        before: null,
        after: displayJob(after),
        dependsOn,
        summary,
        source: job.path,
        data: { op: 'create', body: createBody(job, after) } satisfies LogpushApplyData,
      });
    };
    if (!match) {
      create();
      continue;
    }
    paired.add(match.id);
    const before = comparableLive(match, after);
    const changed = changedFields(before, after);
    if (changed.length === 0 && renamedFrom === undefined) continue;
    if (changed.includes('dataset')) {
      // The address carries the reason, so every output format shows the pair as a replacement.
      const replaced = `${address} (replaced: dataset ${before.dataset} -> ${after.dataset})`;
      const why = `replace: dataset ${before.dataset} -> ${after.dataset} cannot change in place`;
      drafts.push({
        key: String(match.id),
        action: 'delete',
        address: replaced,
        before: displayJob(before),
        after: null,
        liveId: String(match.id),
        summary: `${why} (delete job ${match.id}, then create)`,
        source: job.path,
        data: { op: 'delete', id: match.id } satisfies LogpushApplyData,
      });
      create([String(match.id)], `${why} (create after deleting job ${match.id})`, replaced);
      continue;
    }
    const destinationChanged = changed.includes('destination_conf');
    if (destinationChanged) {
      const problem = ownershipProblem(zone, job, locate);
      if (problem) problems.push(problem);
    }
    drafts.push({
      key: String(match.id),
      action: 'update',
      // PUT takes the name (docs/reference/api-facts.md): the job keeps its id and its delivery
      address: renamedFrom === undefined ? address : renameAddress('job', renamedFrom, job.name),
      ...(renamedFrom !== undefined ? { rename: { from: renamedFrom, to: job.name } } : {}),
      before: displayJob(before),
      after: displayJob(after),
      liveId: String(match.id),
      source: job.path,
      data: {
        op: 'update',
        id: match.id,
        body: updateBody(job, after, destinationChanged),
      } satisfies LogpushApplyData,
    });
  }

  if (problems.length > 0) throw new UserError(`zone ${zone}: ${problems.join('; ')}`);
  if (desired.purge === false) return drafts;
  for (const j of [...(live ?? [])].sort((a, b) => a.id - b.id)) {
    if (paired.has(j.id)) continue;
    drafts.push({
      key: String(j.id),
      action: 'delete',
      address: j.named ? `job "${j.name}"` : `job ${j.id} (no name)`,
      before: displayJob(j),
      after: null,
      liveId: String(j.id),
      data: { op: 'delete', id: j.id } satisfies LogpushApplyData,
    });
  }
  return drafts;
}
