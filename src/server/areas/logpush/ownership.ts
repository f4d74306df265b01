/**
 * Destination ownership, as the real API does it: `POST .../logpush/ownership {destination_conf}`
 * writes a challenge file into the destination and answers its name; the caller reads the file and
 * sends its content back (`.../ownership/validate`, or `ownership_challenge` on job create).
 *
 * The local API has no bucket to write into, so the challenge stays in its store and a test-only
 * route reveals it: `GET /__zoneplan/zones/:zone_id/logpush/ownership?destination_conf=...`
 * (standing in for reading the file from the bucket).
 */
import { randomBytes } from 'node:crypto';
import { validateDestinationConf } from '../../../rules/logpush/index.js';
import { ApiError, ok, type Reply } from '../../http/envelope.js';
import type { RequestContext } from '../../http/context.js';
import type { Router } from '../../http/router.js';
import { now } from '../../store/ids.js';
import { assertValid, isPlainObject } from '../area-helpers/replies.js';
import { LOGPUSH_CODES } from './jobs.js';
import { getChallenge, isValidatedPair, ownershipKey, parseDestinationPath } from './store.js';

function destinationFrom(ctx: RequestContext): string {
  if (!isPlainObject(ctx.body))
    throw ApiError.of(400, LOGPUSH_CODES.invalid, 'The request body must be a JSON object.');
  assertValid(validateDestinationConf(ctx.body.destination_conf), LOGPUSH_CODES.invalid);
  return ctx.body.destination_conf as string;
}

function issue(ctx: RequestContext): Reply {
  const destination = destinationFrom(ctx);
  const dir = parseDestinationPath(destination);
  const filename = `${dir}ownership-challenge-${randomBytes(4).toString('hex')}.txt`;
  // A long random value: it is a secret of the destination's owner, like a password.
  const challenge = randomBytes(96).toString('base64url');
  ctx.app.db
    .prepare(
      `INSERT INTO logpush_ownership (zone_id, destination, filename, challenge, issued_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(zone_id, destination) DO UPDATE SET filename = excluded.filename, challenge = excluded.challenge,
         issued_at = excluded.issued_at`,
    )
    .run(ctx.zone!.id, ownershipKey(destination), filename, challenge, now());
  return ok({ filename, message: '', valid: true });
}

function validate(ctx: RequestContext): Reply {
  const destination = destinationFrom(ctx);
  const given = (ctx.body as Record<string, unknown>).ownership_challenge;
  if (typeof given !== 'string' || given === '') {
    throw ApiError.of(400, LOGPUSH_CODES.invalid, 'ownership_challenge: is required', '/ownership_challenge');
  }
  const issued = getChallenge(ctx.app.db, ctx.zone!.id, destination);
  const valid =
    (issued !== undefined && issued.challenge === given) ||
    isValidatedPair(ctx.app.db, ctx.zone!.id, destination, given);
  return ok({ valid });
}

export function ownershipRoutes(router: Router): void {
  router.add({ method: 'POST', path: '/zones/:zone_id/logpush/ownership', area: 'logpush', handler: issue });
  router.add({
    method: 'POST',
    path: '/zones/:zone_id/logpush/ownership/validate',
    area: 'logpush',
    handler: validate,
  });
}

/** Test-only: the issued challenge of a destination (what the file in the bucket would hold). */
export function ownershipTestRoutes(router: Router): void {
  router.add({
    method: 'GET',
    path: '/zones/:zone_id/logpush/ownership',
    area: 'public',
    handler: (ctx) => {
      const destination = ctx.query.get('destination_conf');
      if (!destination) throw ApiError.badRequest('The query parameter destination_conf is required.');
      const zoneId = ctx.zone?.id ?? ctx.params.zone_id;
      const issued = getChallenge(ctx.app.db, zoneId, destination);
      if (!issued)
        throw ApiError.of(
          404,
          LOGPUSH_CODES.notFound,
          'No ownership challenge was issued for this destination.',
        );
      return ok({
        filename: issued.filename,
        ownership_challenge: issued.challenge,
        issued_at: issued.issued_at,
      });
    },
  });
}
