/**
 * The WAF managed rules migration of a zone as data: its states, what makes a zone eligible, and
 * which update of the entry point ruleset moves it where. The local API runs it; the reconciler uses
 * the same table to plan (and to explain a refusal before sending anything).
 *
 *   default    previous WAF only, compatibility never checked
 *   start      previous WAF only, checked at least once
 *   validation both enabled (Enterprise only); the new WAF runs first
 *   complete   new WAF only; final, never reversed
 *
 *   default|start --pending (eligible)----------------> complete
 *   default|start --validation (eligible, Enterprise)-> validation
 *   validation    --pending (eligible, configuration)-> complete
 *   validation    --validation (configuration update)-> validation
 *   complete      --any waf_migration-----------------> refused (irreversible)
 */

export const WAF_MIGRATION_STATES = ['default', 'start', 'validation', 'complete'] as const;
export type WafMigrationState = (typeof WAF_MIGRATION_STATES)[number];

export const PLAN_TIERS = ['free', 'pro', 'business', 'enterprise'] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];

/** Most firewall rules a zone may have and still migrate. */
export const MAX_MIGRATED_FIREWALL_RULES = 200;
/** Longest firewall rule expression (bytes) a zone may have and still migrate. */
export const MAX_MIGRATED_EXPRESSION_BYTES = 4096;

/** What decides whether a zone can migrate. */
export interface WafZoneFacts {
  plan: PlanTier;
  /** URI-based overrides of the previous WAF that still exist */
  uriOverrides: number;
  firewallRuleCount: number;
  /** length in bytes of the zone's longest firewall rule expression */
  longestExpressionBytes: number;
}

export type BlockerCode = 'free_plan' | 'uri_overrides' | 'too_many_firewall_rules' | 'expression_too_long';

export interface Blocker {
  code: BlockerCode;
  message: string;
  /** true when only support can lift it (the spec: the last two "must be resolved by contacting support") */
  needsSupport: boolean;
}

/** Every reason the zone cannot migrate now; empty means compatible. */
export function migrationBlockers(facts: WafZoneFacts): Blocker[] {
  const out: Blocker[] = [];
  if (facts.plan === 'free') {
    out.push({
      code: 'free_plan',
      message: 'the zone is on the Free plan; the migration is for Pro, Business and Enterprise zones',
      needsSupport: false,
    });
  }
  if (facts.uriOverrides > 0) {
    out.push({
      code: 'uri_overrides',
      message: `the zone has ${facts.uriOverrides} URI-based WAF override(s); delete them before migrating`,
      needsSupport: false,
    });
  }
  if (facts.firewallRuleCount > MAX_MIGRATED_FIREWALL_RULES) {
    out.push({
      code: 'too_many_firewall_rules',
      message: `the zone has ${facts.firewallRuleCount} firewall rules; at most ${MAX_MIGRATED_FIREWALL_RULES} can be migrated (contact support)`,
      needsSupport: true,
    });
  }
  if (facts.longestExpressionBytes > MAX_MIGRATED_EXPRESSION_BYTES) {
    out.push({
      code: 'expression_too_long',
      message: `a firewall rule expression is ${facts.longestExpressionBytes} bytes; at most ${MAX_MIGRATED_EXPRESSION_BYTES} (4 KB) can be migrated (contact support)`,
      needsSupport: true,
    });
  }
  return out;
}

/** Target of a migration step, from the `waf_migration` query parameter. */
export type WafMigrationMode = 'pending' | 'validation';

/**
 * Reads `waf_migration`: `pending` or `1`, `validation` or `2`. Undefined when absent (an ordinary
 * entry point update); an Error-like result for any other value.
 */
export function parseWafMigrationParam(
  value: string | null | undefined,
): WafMigrationMode | undefined | { error: string } {
  if (value === null || value === undefined) return undefined;
  if (value === 'pending' || value === '1') return 'pending';
  if (value === 'validation' || value === '2') return 'validation';
  return { error: `waf_migration must be pending (or 1) or validation (or 2), got "${value.slice(0, 40)}"` };
}

/** The state after a compatibility check: a never-checked zone moves to `start`. */
export function stateAfterCheck(state: WafMigrationState): WafMigrationState {
  return state === 'default' ? 'start' : state;
}

export type TransitionResult =
  | { ok: true; next: WafMigrationState }
  | {
      ok: false;
      reason: 'irreversible' | 'not_enterprise' | 'not_eligible' | 'no_configuration';
      message: string;
      blockers: Blocker[];
    };

/** What a transition needs: eligibility (migrationBlockers), an Enterprise plan, a supplied configuration. */
export type TransitionCondition = 'eligible' | 'enterprise' | 'configuration';

export interface TransitionSpec {
  from: readonly WafMigrationState[];
  mode: WafMigrationMode;
  to: WafMigrationState;
  /** checked in this order; the first unmet one is the refusal */
  requires: readonly TransitionCondition[];
}

/**
 * The transitions of the spec's table, as data (the API steps; the dashboard's are the same moves).
 * `complete` has none: the migration is never reversed.
 */
export const WAF_MIGRATION_TRANSITIONS: readonly TransitionSpec[] = [
  { from: ['default', 'start'], mode: 'pending', to: 'complete', requires: ['eligible'] },
  { from: ['default', 'start'], mode: 'validation', to: 'validation', requires: ['enterprise', 'eligible'] },
  // Eligibility is checked again at the final step: the previous WAF still runs during validation,
  // so a URI-based override can be created then, and the spec lets no zone with one migrate.
  { from: ['validation'], mode: 'pending', to: 'complete', requires: ['eligible', 'configuration'] },
  { from: ['validation'], mode: 'validation', to: 'validation', requires: ['enterprise', 'configuration'] },
];

/**
 * The migration step asked by a PUT of the entry point with `waf_migration=mode`, looked up in
 * WAF_MIGRATION_TRANSITIONS. `hasRules` says whether a configuration (at least one rule) was supplied.
 */
export function migrationTransition(
  state: WafMigrationState,
  mode: WafMigrationMode,
  facts: WafZoneFacts,
  hasRules: boolean,
): TransitionResult {
  const refuse = (
    reason: Exclude<TransitionResult, { ok: true }>['reason'],
    message: string,
    blockers: Blocker[] = [],
  ) => ({ ok: false, reason, message, blockers }) as const;
  const spec = WAF_MIGRATION_TRANSITIONS.find((t) => t.mode === mode && t.from.includes(state));
  if (!spec) {
    return refuse(
      'irreversible',
      'the zone has already migrated to the new WAF; the migration cannot be reversed',
    );
  }
  for (const condition of spec.requires) {
    if (condition === 'enterprise' && facts.plan !== 'enterprise') {
      return refuse(
        'not_enterprise',
        'validation mode (both WAF versions enabled) is only available to Enterprise zones',
      );
    }
    if (condition === 'configuration' && !hasRules) {
      return refuse(
        'no_configuration',
        'the final migration step needs the new configuration (at least one rule)',
      );
    }
    if (condition === 'eligible') {
      const blockers = migrationBlockers(facts);
      if (blockers.length > 0) {
        return refuse(
          'not_eligible',
          `the zone is not eligible for the migration: ${blockers.map((b) => b.message).join('; ')}`,
          blockers,
        );
      }
    }
  }
  return { ok: true, next: spec.to };
}

/** Which WAF versions run in a state. */
export function wafStatuses(state: WafMigrationState): {
  old_waf_status: 'enabled' | 'disabled';
  new_waf_status: 'enabled' | 'disabled';
} {
  switch (state) {
    case 'default':
    case 'start':
      return { old_waf_status: 'enabled', new_waf_status: 'disabled' };
    case 'validation':
      return { old_waf_status: 'enabled', new_waf_status: 'enabled' };
    case 'complete':
      return { old_waf_status: 'disabled', new_waf_status: 'enabled' };
  }
}

/** The previous WAF APIs (packages, groups, rules, overrides) work only while the old WAF is on. */
export function previousWafApisAvailable(state: WafMigrationState): boolean {
  return state !== 'complete';
}
