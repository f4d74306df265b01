/**
 * WAF: the migration from the previous WAF managed rules to the new WAF Managed Rules (check,
 * config, status, and the managed entry point PUT with waf_migration), the Rulesets API (entry
 * points, the managed rulesets' catalogue and versions), and the previous WAF APIs (packages, groups, rules, URI-based overrides). Token only.
 */
import type { AreaModule } from '../../area.js';
import { entrypointRoutes } from './entrypoint.js';
import { loadWafFixtures } from './fixtures.js';
import { loadManagedRulesetFixtures, managedRulesetTestRoutes } from './managed-fixtures.js';
import { wafMigrationRoutes } from './migration-routes.js';
import { previousWafRoutes } from './previous.js';
import { rulesetRoutes } from './rulesets-routes.js';
import { WAF_MIGRATIONS } from './store.js';

const TABLES = [
  'waf_zones',
  'waf_packages',
  'waf_groups',
  'waf_rules',
  'waf_overrides',
  'rulesets',
  'waf_migration_configs',
  'ruleset_versions',
];

export const wafArea: AreaModule = {
  name: 'waf',
  permissions: [
    { name: 'waf', tokenOnly: true },
    { name: 'rulesets', tokenOnly: true },
  ],
  migrations: WAF_MIGRATIONS,
  routes(router) {
    wafMigrationRoutes(router);
    entrypointRoutes(router);
    rulesetRoutes(router);
    previousWafRoutes(router);
  },
  testRoutes: managedRulesetTestRoutes,
  fixtures: { top: { managed_rulesets: loadManagedRulesetFixtures }, zone: { waf: loadWafFixtures } },
  onZoneDeleted(app, zone) {
    for (const t of TABLES) app.db.prepare(`DELETE FROM ${t} WHERE zone_id = ?`).run(zone.id);
  },
};
