/**
 * Logpush tables: jobs (integer ids, as the real API has them) and the ownership challenges issued
 * per destination. A challenge is keyed by the destination without its query string, because the
 * same bucket/path is often named with different credentials or options.
 */
import { JOB_DEFAULTS, ownershipKey, STORED_JOB_FIELDS } from '../../../rules/logpush/index.js';
import type { Db } from '../../store/db.js';
import { parseJson } from '../area-helpers/replies.js';
import { SEEDS_TABLE_SQL } from '../area-helpers/seeds.js';

export const LOGPUSH_MIGRATIONS: readonly string[] = [
  `CREATE TABLE logpush_jobs (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     zone_id TEXT NOT NULL,
     dataset TEXT NOT NULL,
     data TEXT NOT NULL
   );
   CREATE INDEX logpush_jobs_zone ON logpush_jobs(zone_id, id);
   CREATE TABLE logpush_ownership (
     zone_id TEXT NOT NULL,
     destination TEXT NOT NULL,
     filename TEXT NOT NULL,
     challenge TEXT NOT NULL,
     issued_at TEXT NOT NULL,
     PRIMARY KEY (zone_id, destination)
   );`,
  // destinations whose ownership counts as proven without a challenge of this API: those of the
  // jobs a fixtures file brings (./fixtures.ts); keyed like logpush_ownership
  `CREATE TABLE logpush_proven (
     zone_id TEXT NOT NULL,
     destination TEXT NOT NULL,
     PRIMARY KEY (zone_id, destination)
   );
   ${SEEDS_TABLE_SQL}`,
  // (destination, challenge) pairs that count as proven: those the real target validated for a
  // rehearsal (`zones[].logpush.proven` of an in-memory fixtures document, ./fixtures.ts); only
  // that challenge is accepted for that destination
  `CREATE TABLE logpush_validated (
     zone_id TEXT NOT NULL,
     destination TEXT NOT NULL,
     challenge TEXT NOT NULL,
     PRIMARY KEY (zone_id, destination, challenge)
   );`,
];

/** Fields stored per job, in the order the API returns them (the job's shape lives in src/rules). */
export const STORED_FIELDS = STORED_JOB_FIELDS;

export interface JobRow {
  id: number;
  zone_id: string;
  dataset: string;
  data: string;
}

export function jobJson(row: JobRow): Record<string, unknown> {
  const data = parseJson<Record<string, unknown>>(row.data, {});
  const out: Record<string, unknown> = { id: row.id, dataset: row.dataset };
  for (const f of STORED_FIELDS) out[f] = data[f] ?? JOB_DEFAULTS[f];
  return out;
}

export function getJob(db: Db, zoneId: string, id: number): JobRow | undefined {
  return db.prepare('SELECT * FROM logpush_jobs WHERE zone_id = ? AND id = ?').get(zoneId, id) as
    JobRow | undefined;
}

/** The destination without its query (credentials, options): what ownership is proven for. */
export { ownershipKey };

export interface ChallengeRow {
  zone_id: string;
  destination: string;
  filename: string;
  challenge: string;
  issued_at: string;
}

/** Whether a fixture job proved this destination (any non-empty challenge is then accepted). */
export function isProven(db: Db, zoneId: string, destination: string): boolean {
  return (
    db
      .prepare('SELECT 1 FROM logpush_proven WHERE zone_id = ? AND destination = ?')
      .get(zoneId, ownershipKey(destination)) !== undefined
  );
}

/** Whether this challenge was validated for this destination by another API (a rehearsal's target). */
export function isValidatedPair(db: Db, zoneId: string, destination: string, challenge: string): boolean {
  return (
    db
      .prepare('SELECT 1 FROM logpush_validated WHERE zone_id = ? AND destination = ? AND challenge = ?')
      .get(zoneId, ownershipKey(destination), challenge) !== undefined
  );
}

export function getChallenge(db: Db, zoneId: string, destination: string): ChallengeRow | undefined {
  return db
    .prepare('SELECT * FROM logpush_ownership WHERE zone_id = ? AND destination = ?')
    .get(zoneId, ownershipKey(destination)) as ChallengeRow | undefined;
}

/** The folder part of a destination (`s3://bucket/logs/` -> `logs/`), where the challenge file goes. */
export function parseDestinationPath(destination: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\/?([^?#]*)/i.exec(destination);
  const path = m ? m[1] : '';
  return path === '' ? '' : path.endsWith('/') ? path : `${path}/`;
}
