/**
 * `GET/PUT /zones/:zone_id/rulesets/phases/:ruleset_phase/entrypoint` (Rulesets API, token only).
 * The managed phase is the new WAF: before the migration it has no entry point, a PUT with
 * `waf_migration` is a migration step, and a plain PUT works only once the zone has migrated.
 * Other phases are ordinary entry points.
 */
import {
  RULESET_PHASES,
  isRulesetPhase,
  parseWafMigrationParam,
  validateEntrypointRuleset,
} from '../../../rules/waf/index.js';
import { ApiError, ok, type Reply } from '../../http/envelope.js';
import type { RequestContext } from '../../http/context.js';
import type { Router } from '../../http/router.js';
import { assertValid } from '../area-helpers/replies.js';
import { MANAGED_PHASE, WAF_CODES, checkManagedBody, migrate } from './migration-routes.js';
import { nextRuleset, readRuleset, saveRuleset } from './ruleset-store.js';
import { readWafZone } from './store.js';

/** The path's phase must be one of the OpenAPI's rulesets_RulesetPhase enum, for GET and PUT alike. */
export function phaseOf(ctx: RequestContext): string {
  const phase = ctx.params.ruleset_phase;
  if (!isRulesetPhase(phase)) {
    throw ApiError.of(
      400,
      WAF_CODES.invalid,
      `"${phase.slice(0, 64)}" is not a ruleset phase; use one of ${RULESET_PHASES.join(', ')}.`,
    );
  }
  return phase;
}

function get(ctx: RequestContext): Reply {
  const phase = phaseOf(ctx);
  const rs = readRuleset(ctx.app.db, ctx.zone!.id, phase);
  if (!rs) {
    throw ApiError.of(404, WAF_CODES.notFound, `could not find entrypoint ruleset in the '${phase}' phase`);
  }
  return ok(rs);
}

function put(ctx: RequestContext): Reply {
  const phase = phaseOf(ctx);
  const mode = parseWafMigrationParam(ctx.query.get('waf_migration'));
  if (typeof mode === 'object') throw ApiError.of(400, WAF_CODES.invalid, mode.error);
  if (mode !== undefined) {
    if (phase !== MANAGED_PHASE) {
      throw ApiError.of(400, WAF_CODES.invalid, `waf_migration applies only to the ${MANAGED_PHASE} phase.`);
    }
    return ok(migrate(ctx, mode));
  }
  const db = ctx.app.db;
  const zoneId = ctx.zone!.id;
  if (phase === MANAGED_PHASE) checkManagedBody(ctx.body);
  else assertValid(validateEntrypointRuleset(ctx.body), WAF_CODES.invalid);
  const rs = db.transaction(() => {
    if (phase === MANAGED_PHASE && readWafZone(db, zoneId).migration_state !== 'complete') {
      throw ApiError.of(
        400,
        WAF_CODES.notMigrated,
        `the zone still uses the previous WAF managed rules; migrate it first (PUT this entry point with waf_migration=pending&phase_two=1)`,
      );
    }
    const next = nextRuleset(
      readRuleset(db, zoneId, phase),
      zoneId,
      phase,
      ctx.body as Record<string, unknown>,
    );
    saveRuleset(db, zoneId, next);
    return next;
  })();
  return ok(rs);
}

export function entrypointRoutes(router: Router): void {
  const path = '/zones/:zone_id/rulesets/phases/:ruleset_phase/entrypoint';
  router.add({ method: 'GET', path, area: 'rulesets', handler: get });
  router.add({ method: 'PUT', path, area: 'rulesets', handler: put });
}
