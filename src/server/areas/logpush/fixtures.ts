/**
 * `zones[].logpush` of the fixtures file: `{ jobs: [...] }`, each job as the API returns it (`id`
 * optional, kept when given, so a copy of live state keeps its job ids), checked by the same rules
 * as a POST. `destination_conf` may hold `${env:NAME}` references anywhere in it (a copy's secrets
 * stay out of the file); `$${env:` is a literal `${env:`, as in a desired-state file.
 *
 * Ownership of every fixture job's destination counts as proven (the job exists, so it was proven
 * when it was made): another job for that destination is accepted with any non-empty challenge.
 * A destination no fixture job uses still needs the challenge this API issued.
 *
 * `proven: [{destination_conf, ownership_challenge}]` (what a rehearsal seeds, in memory: the pairs
 * the real target validated; `export --as fixtures` never writes it): exactly that challenge is
 * accepted for that destination, as if this API had issued it.
 *
 * Jobs are something the API changes, so they are seeded on the first load only; proofs are facts
 * of the file and are added on every load.
 */
import { registerSecret } from '../../../redact.js';
import {
  needsOwnershipChallenge,
  validateDestinationConf,
  validateLogpushJob,
} from '../../../rules/logpush/index.js';
import type { FixtureContext, FixturePath } from '../../area.js';
import type { ZoneRow } from '../../store/core.js';
import { isPlainObject } from '../area-helpers/replies.js';
import { seedOnce } from '../area-helpers/seeds.js';
import { ownershipKey, STORED_FIELDS } from './store.js';

type Obj = Record<string, unknown>;

const REFERENCE = /\$(\$?)\{env:([^}]*)\}/g;
const VALID_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function loadLogpushFixtures(
  value: unknown,
  zone: ZoneRow,
  path: FixturePath,
  ctx: FixtureContext,
): void {
  if (!isPlainObject(value)) ctx.fail(path, 'must be a mapping (jobs)');
  for (const key of Object.keys(value)) {
    if (key !== 'jobs' && key !== 'proven')
      ctx.fail([...path, key], 'is not a logpush fixture key; use jobs or proven');
  }
  if (value.proven !== undefined) loadValidatedPairs(value.proven, zone, [...path, 'proven'], ctx);
  if (value.jobs === undefined) return;
  if (!Array.isArray(value.jobs)) ctx.fail([...path, 'jobs'], 'must be a list of jobs');
  const jobs = value.jobs.map((raw, i) => jobFrom(raw, zone, [...path, 'jobs', i], ctx));
  const db = ctx.app.db;
  const proven = db.prepare('INSERT OR IGNORE INTO logpush_proven (zone_id, destination) VALUES (?, ?)');
  for (const job of jobs) {
    const destination = job.data.destination_conf as string;
    if (needsOwnershipChallenge(destination)) proven.run(zone.id, ownershipKey(destination));
  }
  if (!seedOnce(db, 'logpush_jobs', zone.id)) return;
  const insert = db.prepare('INSERT INTO logpush_jobs (id, zone_id, dataset, data) VALUES (?, ?, ?, ?)');
  for (const job of jobs) {
    insert.run(job.id ?? null, zone.id, job.dataset, JSON.stringify(job.data));
  }
}

/** `proven`: (destination, challenge) pairs another API validated; both may hold `${env:NAME}`. */
function loadValidatedPairs(value: unknown, zone: ZoneRow, path: FixturePath, ctx: FixtureContext): void {
  if (!Array.isArray(value))
    ctx.fail(path, 'must be a list of {destination_conf, ownership_challenge} pairs');
  const insert = ctx.app.db.prepare(
    'INSERT OR IGNORE INTO logpush_validated (zone_id, destination, challenge) VALUES (?, ?, ?)',
  );
  value.forEach((raw, i) => {
    const at: FixturePath = [...path, i];
    if (!isPlainObject(raw)) ctx.fail(at, 'must be a mapping (destination_conf, ownership_challenge)');
    for (const key of Object.keys(raw)) {
      if (key !== 'destination_conf' && key !== 'ownership_challenge')
        ctx.fail(
          [...at, key],
          'is not a field of a proven pair; use destination_conf and ownership_challenge',
        );
    }
    const fields = ['destination_conf', 'ownership_challenge'] as const;
    const [destination, challenge] = fields.map((f) => {
      const v = raw[f];
      if (typeof v !== 'string' || v === '') ctx.fail([...at, f], 'must be a non-empty string');
      return resolveReferences(v, [...at, f], ctx);
    });
    registerSecret(challenge);
    const problems = validateDestinationConf(destination);
    if (problems.length > 0) ctx.fail([...at, 'destination_conf'], problems[0].message);
    insert.run(zone.id, ownershipKey(destination), challenge);
  });
}

function jobFrom(
  raw: unknown,
  zone: ZoneRow,
  path: FixturePath,
  ctx: FixtureContext,
): { id?: number; dataset: string; data: Obj } {
  if (!isPlainObject(raw)) ctx.fail(path, 'must be a mapping');
  const { id, ...fields } = raw;
  if (id !== undefined && (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1))
    ctx.fail([...path, 'id'], 'must be an integer from 1');
  for (const key of Object.keys(fields)) {
    if (key !== 'dataset' && !(STORED_FIELDS as readonly string[]).includes(key))
      ctx.fail([...path, key], 'is not a field of a Logpush job');
  }
  if (typeof fields.destination_conf === 'string')
    fields.destination_conf = resolveReferences(fields.destination_conf, [...path, 'destination_conf'], ctx);
  // the API holds a filter as a JSON string; a mapping in the file is the same filter
  if (isPlainObject(fields.filter)) fields.filter = JSON.stringify(fields.filter);
  // error fields are the API's own; they are not part of a create body
  const body: Obj = { ...fields };
  for (const f of ['error_message', 'last_complete', 'last_error']) delete body[f];
  const problems = validateLogpushJob(body, { mode: 'create' });
  if (problems.length > 0) ctx.fail([...path, ...pathSteps(problems[0].path)], problems[0].message);
  if (typeof id === 'number') {
    const owner = ctx.app.db.prepare('SELECT zone_id FROM logpush_jobs WHERE id = ?').get(id) as
      { zone_id: string } | undefined;
    if (owner && owner.zone_id !== zone.id)
      ctx.fail([...path, 'id'], `the job id ${id} already belongs to another zone`);
  }
  const { dataset, ...data } = fields;
  if (data.filter === '') data.filter = null;
  return { id: id as number | undefined, dataset: dataset as string, data };
}

/** `output_options.field_names[2]` -> ['output_options', 'field_names', 2] */
function pathSteps(dotted: string): FixturePath {
  return dotted
    .split(/[.[\]]+/)
    .filter((s) => s !== '')
    .map((s) => (/^[0-9]+$/.test(s) ? Number(s) : s));
}

/** `${env:NAME}` anywhere in the text, from the server's environment; the values are secrets. */
function resolveReferences(text: string, path: FixturePath, ctx: FixtureContext): string {
  if (!text.includes('{env:')) return text;
  const resolved = text.replace(REFERENCE, (ref, escape: string, name: string) => {
    if (escape) return ref.slice(1);
    if (!VALID_NAME.test(name))
      ctx.fail(path, `\`${ref}\` is not a valid reference: a name is letters, digits and _`);
    const v = process.env[name];
    if (v === undefined || v === '') ctx.fail(path, `the environment variable ${name} is not set`);
    registerSecret(v as string);
    return v as string;
  });
  if (/(^|[^$])\$\{env:[^}]*$/.test(text)) ctx.fail(path, 'has an unclosed `${env:` reference');
  return resolved;
}
