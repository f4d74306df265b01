/**
 * WAF tables: the per-zone migration state and migration blockers seeded by fixtures (firewall
 * rule count, longest expression), the previous WAF configuration (packages, groups, rules,
 * URI-based overrides) and rulesets (phase entry points; the managed phase is the new WAF).
 */
import type { WafMigrationState, WafZoneFacts } from '../../../rules/waf/index.js';
import type { Db } from '../../store/db.js';
import type { ZoneRow } from '../../store/core.js';
import { parseJson } from '../area-helpers/replies.js';
import { SEEDS_TABLE_SQL } from '../area-helpers/seeds.js';
import { MANAGED_BASES_SQL } from './managed-base.js';
import { MANAGED_VERSIONS_SQL } from './managed-versions.js';

export const WAF_MIGRATIONS: readonly string[] = [
  `CREATE TABLE waf_zones (
     zone_id TEXT PRIMARY KEY,
     migration_state TEXT NOT NULL DEFAULT 'default',
     firewall_rule_count INTEGER NOT NULL DEFAULT 0,
     longest_expression_bytes INTEGER NOT NULL DEFAULT 0
   );
   CREATE TABLE waf_packages (
     zone_id TEXT NOT NULL,
     id TEXT NOT NULL,
     seq INTEGER NOT NULL,
     data TEXT NOT NULL,
     PRIMARY KEY (zone_id, id)
   );
   CREATE TABLE waf_groups (
     zone_id TEXT NOT NULL,
     id TEXT NOT NULL,
     package_id TEXT NOT NULL,
     seq INTEGER NOT NULL,
     data TEXT NOT NULL,
     PRIMARY KEY (zone_id, id)
   );
   CREATE TABLE waf_rules (
     zone_id TEXT NOT NULL,
     id TEXT NOT NULL,
     package_id TEXT NOT NULL,
     group_id TEXT NOT NULL,
     seq INTEGER NOT NULL,
     data TEXT NOT NULL,
     PRIMARY KEY (zone_id, id)
   );
   CREATE TABLE waf_overrides (
     zone_id TEXT NOT NULL,
     id TEXT NOT NULL,
     created_on TEXT NOT NULL,
     data TEXT NOT NULL,
     PRIMARY KEY (zone_id, id)
   );
   CREATE TABLE rulesets (
     id TEXT PRIMARY KEY,
     zone_id TEXT NOT NULL,
     phase TEXT NOT NULL,
     data TEXT NOT NULL,
     UNIQUE (zone_id, phase)
   );
   ${SEEDS_TABLE_SQL}`,
  // default_mode takes the real API's values: the old fixture default "default" becomes challenge
  // (the new fixture default) and anomaly rules, which have none on the real API, lose theirs; a
  // package without a description gets the one the real API answers
  `UPDATE waf_rules SET data = json_set(data, '$.default_mode', 'challenge')
     WHERE json_extract(data, '$.default_mode') = 'default';
   UPDATE waf_rules SET data = json_remove(data, '$.default_mode')
     WHERE json_extract(data, '$.default_mode') IN ('on', 'off');
   UPDATE waf_packages SET data = json_set(data, '$.description',
       CASE json_extract(data, '$.detection_mode') WHEN 'anomaly'
         THEN 'Covers OWASP Top 10 vulnerabilities and more.' ELSE 'null' END)
     WHERE json_type(data, '$.description') IS NULL OR json_type(data, '$.description') = 'null';`,
  // a copy of live state may carry the equivalent configuration as the original answered it
  // (fixtures `waf.migration_config`), when it cannot be derived from the copied rules
  `CREATE TABLE waf_migration_configs (zone_id TEXT PRIMARY KEY, data TEXT NOT NULL);`,
  // the managed rulesets' later versions (./managed-versions.ts), and every version of the zones'
  // own rulesets for `.../versions`; an entry point saved before has its latest version as history
  `${MANAGED_VERSIONS_SQL}
   CREATE TABLE ruleset_versions (
     zone_id TEXT NOT NULL,
     ruleset_id TEXT NOT NULL,
     version INTEGER NOT NULL,
     data TEXT NOT NULL,
     PRIMARY KEY (zone_id, ruleset_id, version)
   );
   INSERT OR IGNORE INTO ruleset_versions (zone_id, ruleset_id, version, data)
     SELECT zone_id, id, CAST(json_extract(data, '$.version') AS INTEGER), data FROM rulesets;`,
  // a copy of another target's managed ruleset as its first version (./managed-base.ts)
  MANAGED_BASES_SQL,
];

/** The configuration a fixtures file gave for `GET waf_migration/config`, if any. */
export function readGivenConfig(db: Db, zoneId: string): Record<string, unknown> | undefined {
  const row = db.prepare('SELECT data FROM waf_migration_configs WHERE zone_id = ?').get(zoneId) as
    { data: string } | undefined;
  return row ? parseJson<Record<string, unknown> | undefined>(row.data, undefined) : undefined;
}

export function deleteGivenConfig(db: Db, zoneId: string): void {
  db.prepare('DELETE FROM waf_migration_configs WHERE zone_id = ?').run(zoneId);
}

export function writeGivenConfig(db: Db, zoneId: string, config: Record<string, unknown>): void {
  db.prepare(
    `INSERT INTO waf_migration_configs (zone_id, data) VALUES (?, ?)
     ON CONFLICT(zone_id) DO UPDATE SET data = excluded.data`,
  ).run(zoneId, JSON.stringify(config));
}

export interface WafZoneRow {
  zone_id: string;
  migration_state: WafMigrationState;
  firewall_rule_count: number;
  longest_expression_bytes: number;
}

export function readWafZone(db: Db, zoneId: string): WafZoneRow {
  const row = db.prepare('SELECT * FROM waf_zones WHERE zone_id = ?').get(zoneId) as WafZoneRow | undefined;
  // No row: a zone the fixtures did not put on the previous WAF. Zones created through the API are
  // already on the new WAF only (ARCHITECTURE.md), so they read as migrated.
  return (
    row ?? {
      zone_id: zoneId,
      migration_state: 'complete',
      firewall_rule_count: 0,
      longest_expression_bytes: 0,
    }
  );
}

export function writeWafZone(db: Db, row: WafZoneRow): void {
  db.prepare(
    `INSERT INTO waf_zones (zone_id, migration_state, firewall_rule_count, longest_expression_bytes)
     VALUES (@zone_id, @migration_state, @firewall_rule_count, @longest_expression_bytes)
     ON CONFLICT(zone_id) DO UPDATE SET migration_state = excluded.migration_state,
       firewall_rule_count = excluded.firewall_rule_count, longest_expression_bytes = excluded.longest_expression_bytes`,
  ).run(row);
}

export function countOverrides(db: Db, zoneId: string): number {
  return (
    db.prepare('SELECT COUNT(*) AS n FROM waf_overrides WHERE zone_id = ?').get(zoneId) as { n: number }
  ).n;
}

/** What decides eligibility, read in the caller's transaction. */
export function zoneFacts(db: Db, zone: ZoneRow): WafZoneFacts {
  const w = readWafZone(db, zone.id);
  return {
    plan: zone.plan,
    uriOverrides: countOverrides(db, zone.id),
    firewallRuleCount: w.firewall_rule_count,
    longestExpressionBytes: w.longest_expression_bytes,
  };
}

export type Doc = Record<string, unknown> & { id: string };

/** Rows of a JSON-document table for a zone (optionally one package), in load order. */
export function listDocs(
  db: Db,
  table: 'waf_packages' | 'waf_groups' | 'waf_rules',
  zoneId: string,
  packageId?: string,
): Doc[] {
  const rows = (
    packageId === undefined
      ? db.prepare(`SELECT data FROM ${table} WHERE zone_id = ? ORDER BY seq`).all(zoneId)
      : db
          .prepare(`SELECT data FROM ${table} WHERE zone_id = ? AND package_id = ? ORDER BY seq`)
          .all(zoneId, packageId)
  ) as { data: string }[];
  return rows.map((r) => parseJson<Doc>(r.data, { id: '' }));
}

export function getDoc(
  db: Db,
  table: 'waf_packages' | 'waf_groups' | 'waf_rules' | 'waf_overrides',
  zoneId: string,
  id: string,
): Doc | undefined {
  const row = db.prepare(`SELECT data FROM ${table} WHERE zone_id = ? AND id = ?`).get(zoneId, id) as
    { data: string } | undefined;
  return row ? parseJson<Doc>(row.data, { id }) : undefined;
}

export function saveDoc(
  db: Db,
  table: 'waf_packages' | 'waf_groups' | 'waf_rules',
  zoneId: string,
  doc: Doc,
): void {
  db.prepare(`UPDATE ${table} SET data = ? WHERE zone_id = ? AND id = ?`).run(
    JSON.stringify(doc),
    zoneId,
    doc.id,
  );
}

export interface RulesetRow {
  id: string;
  zone_id: string;
  phase: string;
  data: string;
}

export function getRuleset(db: Db, zoneId: string, phase: string): RulesetRow | undefined {
  return db.prepare('SELECT * FROM rulesets WHERE zone_id = ? AND phase = ?').get(zoneId, phase) as
    RulesetRow | undefined;
}
