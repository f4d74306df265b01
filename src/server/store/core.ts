/**
 * The core tables every area relies on: accounts, zones, credentials and a small key/value table.
 * Areas add their own tables through their migration lists and refer to zones by `zone_id`.
 */
import { sql, type Db } from './db.js';

export const CORE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE accounts (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     created_on TEXT NOT NULL
   );
   CREATE TABLE zones (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL UNIQUE,
     account_id TEXT NOT NULL REFERENCES accounts(id),
     plan TEXT NOT NULL DEFAULT 'free',
     status TEXT NOT NULL DEFAULT 'active',
     type TEXT NOT NULL DEFAULT 'full',
     paused INTEGER NOT NULL DEFAULT 0,
     name_servers TEXT NOT NULL,
     created_on TEXT NOT NULL,
     modified_on TEXT NOT NULL
   );
   CREATE INDEX zones_account ON zones(account_id);
   CREATE TABLE credentials (
     hash TEXT PRIMARY KEY,
     kind TEXT NOT NULL CHECK (kind IN ('token', 'key')),
     email TEXT,
     label TEXT NOT NULL,
     zones TEXT NOT NULL,
     accounts TEXT NOT NULL,
     permissions TEXT NOT NULL,
     source TEXT NOT NULL
   );
   CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  // PATCH /zones/{id} sets vanity name servers (a JSON array; NULL when none)
  `ALTER TABLE zones ADD COLUMN vanity_name_servers TEXT;`,
];

export const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export interface AccountRow {
  id: string;
  name: string;
  created_on: string;
}

export interface ZoneRow {
  id: string;
  name: string;
  account_id: string;
  plan: Plan;
  status: string;
  type: string;
  paused: number;
  /** JSON array */
  name_servers: string;
  /** JSON array, or null when the zone has none (set by PATCH; Business and Enterprise only) */
  vanity_name_servers?: string | null;
  created_on: string;
  modified_on: string;
}

export function getZone(db: Db, id: string): ZoneRow | undefined {
  return sql(db, 'SELECT * FROM zones WHERE id = ?').get(id) as ZoneRow | undefined;
}

export function getZoneByName(db: Db, name: string): ZoneRow | undefined {
  return sql(db, 'SELECT * FROM zones WHERE name = ?').get(name.toLowerCase()) as ZoneRow | undefined;
}

export function getAccount(db: Db, id: string): AccountRow | undefined {
  return sql(db, 'SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow | undefined;
}

export function getSetting(db: Db, key: string): string | undefined {
  return (sql(db, 'SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined)
    ?.value;
}

export function setSetting(db: Db, key: string, value: string | null): void {
  if (value === null) sql(db, 'DELETE FROM settings WHERE key = ?').run(key);
  else
    sql(
      db,
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    ).run(key, value);
}

const NS_NAMES = [
  'ada',
  'bob',
  'cruz',
  'dana',
  'elle',
  'finn',
  'gail',
  'hank',
  'ivy',
  'jack',
  'kate',
  'liam',
];

/** Two provider name servers, chosen from the zone id so a zone keeps them across restarts. */
export function nameServersFor(zoneId: string): string[] {
  const a = parseInt(zoneId.slice(0, 4), 16) % NS_NAMES.length;
  let b = parseInt(zoneId.slice(4, 8), 16) % NS_NAMES.length;
  if (b === a) b = (b + 1) % NS_NAMES.length;
  return [`${NS_NAMES[a]}.ns.cloudflare.com`, `${NS_NAMES[b]}.ns.cloudflare.com`];
}
