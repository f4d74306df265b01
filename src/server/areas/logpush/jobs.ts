/**
 * Logpush jobs: `GET/POST /zones/:zone_id/logpush/jobs`, `GET/PUT/DELETE .../jobs/:job_id`.
 * Every field is checked by src/rules/logpush (the same functions the offline validator uses);
 * jobs for s3/gs/azure destinations need the valid ownership challenge of their destination.
 */
import { needsOwnershipChallenge, validateLogpushJob } from '../../../rules/logpush/index.js';
import { ApiError, ok, type Reply } from '../../http/envelope.js';
import type { RequestContext } from '../../http/context.js';
import type { Router } from '../../http/router.js';
import { assertValid, notFound } from '../area-helpers/replies.js';
import {
  getChallenge,
  getJob,
  isProven,
  isValidatedPair,
  jobJson,
  STORED_FIELDS,
  type JobRow,
} from './store.js';

/** Error codes of this area (the real ones are not published). */
export const LOGPUSH_CODES = { invalid: 1002, notFound: 1003, ownership: 1010 } as const;

function jobId(ctx: RequestContext): number {
  const raw = ctx.params.job_id;
  if (!/^[1-9][0-9]{0,15}$/.test(raw)) {
    throw ApiError.of(
      400,
      7003,
      `Could not route to ${ctx.path}, perhaps your object identifier is invalid? (job ids are integers from 1)`,
    );
  }
  return Number(raw);
}

function loadJob(ctx: RequestContext): JobRow {
  const row = getJob(ctx.app.db, ctx.zone!.id, jobId(ctx));
  if (!row) throw notFound(LOGPUSH_CODES.notFound, `Logpush job ${ctx.params.job_id} not found.`);
  return row;
}

/** s3/gs/azure destinations: the body must carry the challenge issued for that destination. */
function checkOwnership(ctx: RequestContext, destination: string, challenge: unknown): void {
  if (!needsOwnershipChallenge(destination)) return;
  const issued = getChallenge(ctx.app.db, ctx.zone!.id, destination);
  if (typeof challenge !== 'string' || challenge === '') {
    throw ApiError.of(
      400,
      LOGPUSH_CODES.ownership,
      'ownership_challenge: is required for this destination; request one with POST /zones/{zone_id}/logpush/ownership',
      '/ownership_challenge',
    );
  }
  // a destination a fixture job uses counts as proven (the copy cannot know the live challenge)
  if (isProven(ctx.app.db, ctx.zone!.id, destination)) return;
  // a pair the real target validated for a rehearsal counts as this API's own challenge
  if (isValidatedPair(ctx.app.db, ctx.zone!.id, destination, challenge)) return;
  if (!issued || issued.challenge !== challenge) {
    throw ApiError.of(
      400,
      LOGPUSH_CODES.ownership,
      'ownership_challenge: is not the challenge issued for this destination',
      '/ownership_challenge',
    );
  }
}

/**
 * The wire form of `filter` is a JSON document serialised into a string; an object is refused here
 * (as the real API does) so that a client working locally also works against the real one.
 */
function filterMustBeString(body: unknown): { path: string; message: string }[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  const filter = (body as Record<string, unknown>).filter;
  if (filter === undefined || filter === null || typeof filter === 'string') return [];
  return [
    { path: 'filter', message: 'must be a string holding the filter JSON (serialise the object first)' },
  ];
}

/** The body's job fields (those the store keeps), with `filter` kept as the string the client sent. */
function pickFields(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of STORED_FIELDS) if (body[f] !== undefined) out[f] = body[f];
  if (out.filter === '') out.filter = null;
  return out;
}

function createJob(ctx: RequestContext): Reply {
  assertValid(
    [...filterMustBeString(ctx.body), ...validateLogpushJob(ctx.body, { mode: 'create' })],
    LOGPUSH_CODES.invalid,
  );
  const body = ctx.body as Record<string, unknown>;
  checkOwnership(ctx, body.destination_conf as string, body.ownership_challenge);
  const db = ctx.app.db;
  const info = db
    .prepare('INSERT INTO logpush_jobs (zone_id, dataset, data) VALUES (?, ?, ?)')
    .run(ctx.zone!.id, body.dataset as string, JSON.stringify(pickFields(body)));
  return ok(jobJson(getJob(db, ctx.zone!.id, Number(info.lastInsertRowid))!));
}

function updateJob(ctx: RequestContext): Reply {
  const db = ctx.app.db;
  const row = db.transaction(() => {
    const current = loadJob(ctx);
    assertValid(
      [
        ...filterMustBeString(ctx.body),
        ...validateLogpushJob(ctx.body, { mode: 'update', currentDataset: current.dataset }),
      ],
      LOGPUSH_CODES.invalid,
    );
    const body = ctx.body as Record<string, unknown>;
    const before = JSON.parse(current.data) as Record<string, unknown>;
    // A new destination must be proven again; the same destination keeps its proof.
    if (typeof body.destination_conf === 'string' && body.destination_conf !== before.destination_conf) {
      checkOwnership(ctx, body.destination_conf, body.ownership_challenge);
    }
    const data = { ...before, ...pickFields(body) };
    db.prepare('UPDATE logpush_jobs SET data = ? WHERE id = ?').run(JSON.stringify(data), current.id);
    return getJob(db, ctx.zone!.id, current.id)!;
  })();
  return ok(jobJson(row));
}

export function logpushJobRoutes(router: Router): void {
  const area = 'logpush' as const;
  router.add({
    method: 'GET',
    path: '/zones/:zone_id/logpush/jobs',
    area,
    handler: (ctx) => {
      const rows = ctx.app.db
        .prepare('SELECT * FROM logpush_jobs WHERE zone_id = ? ORDER BY id')
        .all(ctx.zone!.id) as JobRow[];
      return ok(rows.map(jobJson));
    },
  });
  router.add({ method: 'POST', path: '/zones/:zone_id/logpush/jobs', area, handler: createJob });
  router.add({
    method: 'GET',
    path: '/zones/:zone_id/logpush/jobs/:job_id',
    area,
    handler: (ctx) => ok(jobJson(loadJob(ctx))),
  });
  router.add({ method: 'PUT', path: '/zones/:zone_id/logpush/jobs/:job_id', area, handler: updateJob });
  router.add({
    method: 'DELETE',
    path: '/zones/:zone_id/logpush/jobs/:job_id',
    area,
    handler: (ctx) => {
      const row = loadJob(ctx);
      ctx.app.db.prepare('DELETE FROM logpush_jobs WHERE id = ?').run(row.id);
      return ok({ id: row.id });
    },
  });
}
