/**
 * WAF rules shared by the reconciler (src/kinds/waf) and the local API (src/server): the migration
 * state machine from the previous WAF managed rules to the new ones (states, eligibility, the
 * `waf_migration` parameter, transitions, which WAF runs in each state), and the shape of the
 * managed-phase entry point body with its overrides. Pure functions: no I/O.
 */
export {
  MAX_MIGRATED_EXPRESSION_BYTES,
  MAX_MIGRATED_FIREWALL_RULES,
  PLAN_TIERS,
  WAF_MIGRATION_STATES,
  WAF_MIGRATION_TRANSITIONS,
  migrationBlockers,
  migrationTransition,
  parseWafMigrationParam,
  previousWafApisAvailable,
  stateAfterCheck,
  wafStatuses,
  type Blocker,
  type BlockerCode,
  type PlanTier,
  type TransitionCondition,
  type TransitionResult,
  type TransitionSpec,
  type WafMigrationMode,
  type WafMigrationState,
  type WafZoneFacts,
} from './migration.js';
export {
  MANAGED_PHASE_ACTIONS,
  MANAGED_RULESETS,
  OVERRIDE_ACTIONS,
  RULESET_PHASES,
  RULE_ACTIONS,
  checkOverrides,
  hasRules,
  isRulesetPhase,
  managedExecuteRule,
  overrideForPreviousMode,
  overrideForPreviousRule,
  validateEntrypointRuleset,
  validateManagedEntrypoint,
  type RuleOverride,
  type Violation,
} from './ruleset.js';
