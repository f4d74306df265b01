import type { DesiredRulesetEntry } from './exceptions.js';

/**
 * The value under `waf` of a zone entry as the kind's runtime gets it (KindRuntime's desired value), after loading,
 * validation and the kind's `build` (none: passed on as written; plan.ts reads it as WafPlanInput). The kind's schema (./schema.ts) is the truth
 * about the file; these types mirror it.
 */
export interface DesiredWaf {
  /** previous: leave the zone on the previous WAF; new: migrate (irreversible steps) */
  managed_rules: 'previous' | 'new';
  migration?: { mode: 'pending' | 'validation' };
  /** delete URI-based overrides so the migration can proceed (irreversible) */
  delete_uri_overrides?: boolean;
  /** rule overrides of the managed ruleset; `ruleset` names another managed ruleset than the default */
  overrides?: { id: string; action?: string; enabled?: boolean; ruleset?: string }[];
  /** the exceptions of each managed ruleset the zone executes (./exceptions.ts) */
  managed_rulesets?: DesiredRulesetEntry[];
}
