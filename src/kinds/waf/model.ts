/**
 * Live WAF state of a zone, read defensively (only what the kind uses), and the states of the
 * migration as the plan shows them. `default` and `start` are one state for the plan ("previous"):
 * a compatibility check moves default to start, and that must not make a saved plan stale.
 */
import type { PlanTier, WafMigrationState } from '../../rules/waf/migration.js';
import { PLAN_TIERS, WAF_MIGRATION_STATES } from '../../rules/waf/migration.js';
import type { Catalogue } from './catalogue.js';

export const MANAGED_PHASE = 'http_request_firewall_managed';

export type ShownState = 'previous' | 'validation' | 'complete';

export interface MigrationStatus {
  migration_state: WafMigrationState;
  old_waf_status: string;
  new_waf_status: string;
}

export interface OverrideEntry {
  id: string;
  action?: string;
  enabled?: boolean;
  [key: string]: unknown;
}

/** A rule of a ruleset configuration (the migration's config or the live entrypoint). */
export interface RulesetRule {
  id?: string;
  action?: string;
  expression?: string;
  description?: string;
  enabled?: boolean;
  action_parameters?: {
    id?: string;
    overrides?: { rules?: OverrideEntry[]; [k: string]: unknown };
    [k: string]: unknown;
  };
  [key: string]: unknown;
}

export interface RulesetConfig {
  /** the entry point's id and version as the API returned them (never sent back) */
  id?: string;
  version?: string;
  last_updated?: string;
  name?: string;
  description?: string;
  rules: RulesetRule[];
}

export interface CheckResult {
  compatible: boolean;
  migration_state: string;
  /** why not, as the API says it (the envelope's messages), when it does */
  reasons: string[];
}

export interface UriOverride {
  id: string;
  description?: string;
  urls: string[];
}

export interface WafLive {
  tier?: PlanTier;
  status: MigrationStatus;
  /** result of GET /waf_migration/check (previous state only) */
  check?: CheckResult;
  /** equivalent configuration (previous state only) */
  config?: RulesetConfig;
  /** URI-based overrides of the previous WAF (previous state only) */
  uriOverrides: UriOverride[];
  /** what decides the support-only blockers; undefined when the API does not say */
  firewall?: { count: number; longestExpressionBytes: number };
  /** the managed phase entrypoint (validation and complete states), null when the zone has none */
  entrypoint?: RulesetConfig | null;
  /** the managed rulesets the file names under `managed_rulesets`; read only for such a file */
  catalogue?: Catalogue;
}

export function shownState(s: WafMigrationState): ShownState {
  return s === 'default' || s === 'start' ? 'previous' : s;
}

/** The status as the plan shows it and fingerprints it. */
export function statusView(s: MigrationStatus): Record<string, string> {
  return { state: shownState(s.migration_state), old_waf: s.old_waf_status, new_waf: s.new_waf_status };
}

export function toStatus(raw: unknown): MigrationStatus {
  const r = (raw ?? {}) as Record<string, unknown>;
  const state = String(r.migration_state ?? 'default');
  return {
    migration_state: (WAF_MIGRATION_STATES as readonly string[]).includes(state)
      ? (state as WafMigrationState)
      : 'default',
    old_waf_status: String(r.old_waf_status ?? 'enabled'),
    new_waf_status: String(r.new_waf_status ?? 'disabled'),
  };
}

/** Plan tier of the zone from its live object (`plan.legacy_id`, else words in `plan.name`). */
export function tierOf(info: Record<string, unknown> | undefined): PlanTier | undefined {
  const plan = (info?.plan ?? {}) as Record<string, unknown>;
  for (const field of [plan.legacy_id, plan.id, plan.name]) {
    if (typeof field !== 'string') continue;
    const lower = field.toLowerCase();
    const hit = PLAN_TIERS.find((t) => lower === t || lower.startsWith(`${t} `) || lower.startsWith(`${t}_`));
    if (hit) return hit;
  }
  return undefined;
}

export function toRuleset(raw: unknown): RulesetConfig {
  const r = (raw ?? {}) as Record<string, unknown>;
  const out: RulesetConfig = { rules: Array.isArray(r.rules) ? (r.rules as RulesetRule[]) : [] };
  for (const key of ['id', 'version', 'last_updated', 'name', 'description'] as const) {
    if (typeof r[key] === 'string') out[key] = r[key];
  }
  return out;
}

export function toUriOverride(raw: unknown): UriOverride {
  const r = (raw ?? {}) as Record<string, unknown>;
  const out: UriOverride = { id: String(r.id ?? ''), urls: Array.isArray(r.urls) ? r.urls.map(String) : [] };
  if (typeof r.description === 'string') out.description = r.description;
  return out;
}

/** The configuration without what the server sets on every write (`version`, `last_updated`). */
export function withoutServerFields(config: RulesetConfig): RulesetConfig {
  const { version: _v, last_updated: _l, ...rest } = config;
  return {
    ...rest,
    rules: config.rules.map(({ version: _v, last_updated: _l, ...rule }) => rule),
  };
}
