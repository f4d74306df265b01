/**
 * The WAF migration endpoints: `GET .../waf_migration/check|config|status` and the entry point
 * update with `waf_migration=pending|1|validation|2&phase_two=1`. The state machine itself is data
 * in src/rules/waf; this file only reads the zone's facts, asks it, and stores the result.
 */
import {
  managedExecuteRule,
  hasRules,
  migrationBlockers,
  migrationTransition,
  overrideForPreviousRule,
  stateAfterCheck,
  validateManagedEntrypoint,
  wafStatuses,
  type RuleOverride,
  type WafMigrationMode,
} from '../../../rules/waf/index.js';
import { ApiError, ok, type Reply } from '../../http/envelope.js';
import type { RequestContext } from '../../http/context.js';
import type { Router } from '../../http/router.js';
import { stableId } from '../../store/ids.js';
import { assertValid, isPlainObject } from '../area-helpers/replies.js';
import { isManagedRulesetId } from './managed-catalogue.js';
import { nextRuleset, readRuleset, saveRuleset, type StoredRuleset } from './ruleset-store.js';
import { listDocs, readGivenConfig, readWafZone, writeWafZone, zoneFacts } from './store.js';

export const MANAGED_PHASE = 'http_request_firewall_managed';

/** Error codes of this area (the real ones are not published). */
export const WAF_CODES = {
  invalid: 1002,
  notFound: 1003,
  notEligible: 1011,
  irreversible: 1012,
  notEnterprise: 1013,
  previousGone: 1014,
  notMigrated: 1015,
} as const;

/** The migration endpoints belong to phase two of the migration; like the real API, they need `phase_two=1`. */
export function requirePhaseTwo(ctx: RequestContext): void {
  if (ctx.query.get('phase_two') !== '1') {
    throw ApiError.of(
      400,
      WAF_CODES.invalid,
      'The query parameter phase_two=1 is required for the WAF migration.',
    );
  }
}

function check(ctx: RequestContext): Reply {
  requirePhaseTwo(ctx);
  const db = ctx.app.db;
  const zone = ctx.zone!;
  const { state, blockers } = db.transaction(() => {
    const row = readWafZone(db, zone.id);
    row.migration_state = stateAfterCheck(row.migration_state);
    writeWafZone(db, row);
    return { state: row.migration_state, blockers: migrationBlockers(zoneFacts(db, zone)) };
  })();
  const reasons =
    state === 'complete'
      ? [
          {
            code: WAF_CODES.irreversible,
            message: 'the zone has already migrated to the new WAF Managed Rules',
          },
        ]
      : blockers.map((b) => ({ code: WAF_CODES.notEligible, message: b.message }));
  // Each reason is also an entry of the envelope's messages, so a client can say why.
  return { ...ok({ compatible: reasons.length === 0, migration_state: state }), messages: reasons };
}

/**
 * The new configuration equivalent to the zone's previous one: one execute rule with overrides,
 * or the one a fixtures file gave (`waf.migration_config`, a copy of another target's answer).
 */
export function equivalentConfig(ctx: RequestContext) {
  const db = ctx.app.db;
  const zoneId = ctx.zone!.id;
  const given = readGivenConfig(db, zoneId);
  if (given) return given;
  const offGroups = new Set(
    listDocs(db, 'waf_groups', zoneId)
      .filter((g) => g.mode === 'off')
      .map((g) => g.id),
  );
  const overrides: RuleOverride[] = [];
  for (const rule of listDocs(db, 'waf_rules', zoneId)) {
    const own = overrideForPreviousRule(rule);
    const o = own ?? (offGroups.has(String(rule.group_id)) ? { enabled: false } : undefined);
    if (!o) continue;
    const newRuleId = typeof rule.new_id === 'string' ? rule.new_id : stableId('waf-new-rule', rule.id);
    overrides.push({ id: newRuleId, ...o });
  }
  return {
    name: 'default',
    rules: [{ id: '', version: '', ref: '', ...managedExecuteRule(overrides) }],
  };
}

function status(ctx: RequestContext): Reply {
  const db = ctx.app.db;
  const state = readWafZone(db, ctx.zone!.id).migration_state;
  const created = readRuleset(db, ctx.zone!.id, MANAGED_PHASE) !== undefined;
  return ok({
    created,
    migration_state: state,
    ...wafStatuses(state),
    source: created ? 'zone' : 'defaults',
  });
}

export function checkManagedBody(body: unknown): void {
  assertValid(validateManagedEntrypoint(body), WAF_CODES.invalid);
  (body as { rules: Record<string, unknown>[] }).rules.forEach((r, i) => {
    const id = isPlainObject(r.action_parameters) ? r.action_parameters.id : undefined;
    if (r.action === 'execute' && typeof id === 'string' && !isManagedRulesetId(id)) {
      throw ApiError.of(
        400,
        WAF_CODES.invalid,
        `rules[${i}].action_parameters.id: ${id} is not a managed ruleset`,
        `/rules/${i}/action_parameters/id`,
      );
    }
  });
}

/** A PUT of the managed entry point with `waf_migration`: one step of the state machine. */
export function migrate(ctx: RequestContext, mode: WafMigrationMode): StoredRuleset {
  requirePhaseTwo(ctx);
  checkManagedBody(ctx.body);
  const db = ctx.app.db;
  const zone = ctx.zone!;
  return db.transaction(() => {
    const row = readWafZone(db, zone.id);
    const t = migrationTransition(row.migration_state, mode, zoneFacts(db, zone), hasRules(ctx.body));
    if (!t.ok) {
      const code = {
        irreversible: WAF_CODES.irreversible,
        not_enterprise: WAF_CODES.notEnterprise,
        not_eligible: WAF_CODES.notEligible,
        no_configuration: WAF_CODES.invalid,
      }[t.reason];
      const items =
        t.blockers.length > 0
          ? t.blockers.map((b) => ({ code, message: b.message }))
          : [{ code, message: t.message }];
      throw new ApiError(400, items);
    }
    const rs = nextRuleset(
      readRuleset(db, zone.id, MANAGED_PHASE),
      zone.id,
      MANAGED_PHASE,
      ctx.body as Record<string, unknown>,
    );
    saveRuleset(db, zone.id, rs);
    row.migration_state = t.next;
    writeWafZone(db, row);
    return rs;
  })();
}

export function wafMigrationRoutes(router: Router): void {
  const area = 'waf' as const;
  router.add({ method: 'GET', path: '/zones/:zone_id/waf_migration/check', area, handler: check });
  router.add({
    method: 'GET',
    path: '/zones/:zone_id/waf_migration/config',
    area,
    handler: (ctx) => {
      requirePhaseTwo(ctx);
      return ok(equivalentConfig(ctx));
    },
  });
  router.add({ method: 'GET', path: '/zones/:zone_id/waf_migration/status', area, handler: status });
}
