/**
 * Page Shield tables: per-zone settings, detected items (scripts, connections, cookies; seeded by
 * fixtures, since the API cannot create them) and CSP policies.
 */
import type { Db } from '../../store/db.js';
import { parseJson } from '../area-helpers/replies.js';
import { SEEDS_TABLE_SQL } from '../area-helpers/seeds.js';

export const PAGE_SHIELD_MIGRATIONS: readonly string[] = [
  `CREATE TABLE page_shield_settings (
     zone_id TEXT PRIMARY KEY,
     enabled INTEGER NOT NULL,
     use_cloudflare_reporting_endpoint INTEGER NOT NULL,
     use_connection_url_path INTEGER NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE TABLE page_shield_items (
     zone_id TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('script', 'connection', 'cookie')),
     id TEXT NOT NULL,
     data TEXT NOT NULL,
     PRIMARY KEY (zone_id, kind, id)
   );
   CREATE TABLE page_shield_policies (
     id TEXT PRIMARY KEY,
     zone_id TEXT NOT NULL,
     description TEXT NOT NULL,
     action TEXT NOT NULL,
     expression TEXT NOT NULL,
     enabled INTEGER NOT NULL,
     value TEXT NOT NULL,
     created_on TEXT NOT NULL
   );
   CREATE INDEX page_shield_policies_zone ON page_shield_policies(zone_id, created_on);
   ${SEEDS_TABLE_SQL}`,
];

export type ItemKind = 'script' | 'connection' | 'cookie';
/** A detected item as stored: the API fields plus page_urls/versions (shown only where the API shows them). */
export type DetectedItem = Record<string, unknown> & { id: string };

export interface SettingsRow {
  zone_id: string;
  enabled: number;
  use_cloudflare_reporting_endpoint: number;
  use_connection_url_path: number;
  updated_at: string;
}

/** The zone's settings; a zone never configured reads as the defaults, stamped with its creation time. */
export function readSettings(db: Db, zone: { id: string; created_on: string }): SettingsRow {
  const row = db.prepare('SELECT * FROM page_shield_settings WHERE zone_id = ?').get(zone.id) as
    SettingsRow | undefined;
  return (
    row ?? {
      zone_id: zone.id,
      enabled: 0,
      use_cloudflare_reporting_endpoint: 1,
      use_connection_url_path: 0,
      updated_at: zone.created_on,
    }
  );
}

export function writeSettings(db: Db, row: SettingsRow): void {
  db.prepare(
    `INSERT INTO page_shield_settings (zone_id, enabled, use_cloudflare_reporting_endpoint, use_connection_url_path, updated_at)
     VALUES (@zone_id, @enabled, @use_cloudflare_reporting_endpoint, @use_connection_url_path, @updated_at)
     ON CONFLICT(zone_id) DO UPDATE SET enabled = excluded.enabled,
       use_cloudflare_reporting_endpoint = excluded.use_cloudflare_reporting_endpoint,
       use_connection_url_path = excluded.use_connection_url_path, updated_at = excluded.updated_at`,
  ).run(row);
}

export function listItems(db: Db, zoneId: string, kind: ItemKind): DetectedItem[] {
  const rows = db
    .prepare('SELECT data FROM page_shield_items WHERE zone_id = ? AND kind = ?')
    .all(zoneId, kind) as {
    data: string;
  }[];
  return rows.map((r) => parseJson<DetectedItem>(r.data, { id: '' })).filter((i) => i.id !== '');
}

export function getItem(db: Db, zoneId: string, kind: ItemKind, id: string): DetectedItem | undefined {
  const row = db
    .prepare('SELECT data FROM page_shield_items WHERE zone_id = ? AND kind = ? AND id = ?')
    .get(zoneId, kind, id) as { data: string } | undefined;
  return row ? parseJson<DetectedItem>(row.data, { id }) : undefined;
}

export function upsertItem(db: Db, zoneId: string, kind: ItemKind, item: DetectedItem): void {
  db.prepare(
    `INSERT INTO page_shield_items (zone_id, kind, id, data) VALUES (?, ?, ?, ?)
     ON CONFLICT(zone_id, kind, id) DO UPDATE SET data = excluded.data`,
  ).run(zoneId, kind, item.id, JSON.stringify(item));
}

export interface PolicyRow {
  id: string;
  zone_id: string;
  description: string;
  action: string;
  expression: string;
  enabled: number;
  value: string;
  created_on: string;
}

/** A policy as the API returns it (enabled as a boolean). */
export function policyJson(row: PolicyRow) {
  return {
    id: row.id,
    description: row.description,
    action: row.action,
    expression: row.expression,
    enabled: row.enabled === 1,
    value: row.value,
  };
}
