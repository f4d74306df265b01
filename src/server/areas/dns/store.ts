/**
 * DNS records in SQLite. Each row keeps the filterable fields as columns (indexed by zone, name,
 * type) and the record exactly as the API returns it in `json`, so reads concatenate stored JSON
 * instead of rebuilding objects: a 5,000-record page is one query and one string join.
 */
import {
  MANAGED_FIELDS,
  isDefaultStored,
  type NormalisedRecord,
  type StoredFields,
} from '../../../rules/dns/index.js';
import { sql, type Db } from '../../store/db.js';
import type { ZoneRow } from '../../store/core.js';

export const DNS_MIGRATIONS: readonly string[] = [
  `CREATE TABLE dns_records (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL UNIQUE,
     zone_id TEXT NOT NULL,
     name TEXT NOT NULL,
     type TEXT NOT NULL,
     content TEXT NOT NULL,
     proxied INTEGER NOT NULL,
     ttl INTEGER NOT NULL,
     comment TEXT,
     tags TEXT NOT NULL,
     locked INTEGER NOT NULL DEFAULT 0,
     json TEXT NOT NULL
   );
   CREATE INDEX dns_records_zone_name ON dns_records(zone_id, name, type);
   CREATE INDEX dns_records_zone_type ON dns_records(zone_id, type, name);`,
  // the default order (type, name, content) straight from an index: no sort on a 100,000-record zone
  `CREATE INDEX dns_records_zone_order ON dns_records(zone_id, type, name, content);
   DROP INDEX dns_records_zone_type;
   CREATE INDEX dns_records_zone_name_order ON dns_records(zone_id, name, type, content);
   DROP INDEX dns_records_zone_name;`,
  // seq without AUTOINCREMENT: it only orders ties, and AUTOINCREMENT costs a write to
  // sqlite_sequence on every insert (a 1,000-record batch is mostly inserts)
  `CREATE TABLE dns_records_v3 (
     seq INTEGER PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     zone_id TEXT NOT NULL,
     name TEXT NOT NULL,
     type TEXT NOT NULL,
     content TEXT NOT NULL,
     proxied INTEGER NOT NULL,
     ttl INTEGER NOT NULL,
     comment TEXT,
     tags TEXT NOT NULL,
     locked INTEGER NOT NULL DEFAULT 0,
     json TEXT NOT NULL
   );
   INSERT INTO dns_records_v3 (seq, id, zone_id, name, type, content, proxied, ttl, comment, tags, locked, json)
     SELECT seq, id, zone_id, name, type, content, proxied, ttl, comment, tags, locked, json FROM dns_records;
   DROP TABLE dns_records;
   ALTER TABLE dns_records_v3 RENAME TO dns_records;
   CREATE INDEX dns_records_zone_order ON dns_records(zone_id, type, name, content);
   CREATE INDEX dns_records_zone_name_order ON dns_records(zone_id, name, type, content);`,
  // the real record list holds no SOA (it is zone DNS settings there); earlier versions auto-added one
  `DELETE FROM dns_records WHERE type = 'SOA';`,
  // a zone's record quota set by fixtures (`record_quota`), in place of its plan's (docs/fixtures.md)
  `CREATE TABLE dns_record_quotas (zone_id TEXT PRIMARY KEY, quota INTEGER NOT NULL);`,
  // SPF is no longer a type of the real API's schema; earlier versions stored it: it becomes the TXT
  // it always was on the wire (same content), so a client reading it back sees a real type
  `UPDATE dns_records SET type = 'TXT', json = json_set(json, '$.type', 'TXT') WHERE type = 'SPF';`,
];

/** The record as the API returns it (the shared fields, comment, tags and settings, from the model). */
export interface ApiRecord extends StoredFields {
  id: string;
  zone_id: string;
  zone_name: string;
  name: string;
  type: string;
  content: string;
  priority?: number;
  proxiable: boolean;
  proxied: boolean;
  ttl: number;
  locked: boolean;
  data?: Record<string, string | number>;
  meta: { auto_added: boolean; managed_by_apps: boolean; managed_by_argo_tunnel: boolean; source?: string };
  created_on: string;
  modified_on: string;
  comment_modified_on?: string;
  tags_modified_on?: string;
}

export interface RecordRow {
  seq: number;
  id: string;
  zone_id: string;
  name: string;
  type: string;
  content: string;
  proxied: number;
  ttl: number;
  comment: string | null;
  tags: string;
  locked: number;
  json: string;
}

/** Builds the API form of a normalised record; `previous` keeps created_on and the *_modified_on stamps. */
export function toApiRecord(
  id: string,
  zone: ZoneRow,
  r: NormalisedRecord,
  time: string,
  previous?: ApiRecord,
  extra?: { locked?: boolean; meta?: Partial<ApiRecord['meta']> },
): ApiRecord {
  const out = {
    id,
    zone_id: zone.id,
    zone_name: zone.name,
    name: r.name,
    type: r.type,
    content: r.content,
    proxiable: r.proxiable,
    proxied: r.proxied,
    ttl: r.ttl,
    locked: extra?.locked ?? previous?.locked ?? false,
    meta: {
      auto_added: false,
      managed_by_apps: false,
      managed_by_argo_tunnel: false,
      ...(previous?.meta ?? {}),
      ...(extra?.meta ?? {}),
    },
  } as ApiRecord;
  const fields = out as unknown as Record<string, unknown>;
  const before = previous as unknown as Record<string, unknown> | undefined;
  // the shared fields (the record model's, src/rules/dns/fields.ts), then the record's times
  for (const field of MANAGED_FIELDS) fields[field.name] = r[field.name];
  out.created_on = previous?.created_on ?? time;
  out.modified_on = time;
  if (r.priority !== undefined) out.priority = r.priority;
  if (r.data !== undefined) out.data = r.data;
  // `<name>_modified_on` where the API stamps a field: when it changed, else as it was
  for (const field of MANAGED_FIELDS) {
    if (!('stamped' in field)) continue;
    const stamp = `${field.name}_modified_on`;
    const changed = before
      ? JSON.stringify(before[field.name]) !== JSON.stringify(r[field.name])
      : !isDefaultStored(field, r[field.name]);
    if (changed) fields[stamp] = time;
    else if (before?.[stamp]) fields[stamp] = before[stamp];
  }
  return out;
}

export function insertRecord(db: Db, rec: ApiRecord): string {
  const json = JSON.stringify(rec);
  sql(
    db,
    `INSERT INTO dns_records (id, zone_id, name, type, content, proxied, ttl, comment, tags, locked, json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    rec.id,
    rec.zone_id,
    rec.name,
    rec.type,
    rec.content,
    rec.proxied ? 1 : 0,
    rec.ttl,
    rec.comment,
    JSON.stringify(rec.tags.map((t) => t.toLowerCase())),
    rec.locked ? 1 : 0,
    json,
  );
  return json;
}

export function updateRecord(db: Db, rec: ApiRecord): string {
  const json = JSON.stringify(rec);
  sql(
    db,
    `UPDATE dns_records SET name = ?, type = ?, content = ?, proxied = ?, ttl = ?, comment = ?, tags = ?, locked = ?, json = ?
     WHERE id = ?`,
  ).run(
    rec.name,
    rec.type,
    rec.content,
    rec.proxied ? 1 : 0,
    rec.ttl,
    rec.comment,
    JSON.stringify(rec.tags.map((t) => t.toLowerCase())),
    rec.locked ? 1 : 0,
    json,
    rec.id,
  );
  return json;
}

export function deleteRecord(db: Db, id: string): void {
  sql(db, 'DELETE FROM dns_records WHERE id = ?').run(id);
}

export function getRecord(db: Db, zoneId: string, id: string): RecordRow | undefined {
  return sql(db, 'SELECT * FROM dns_records WHERE zone_id = ? AND id = ?').get(zoneId, id) as
    RecordRow | undefined;
}

/** What the conflict and chain checks need of a stored record (priority and data: its identity). */
export interface StoredAtName {
  id: string;
  name: string;
  type: string;
  content: string;
  proxied: boolean;
  priority?: number;
  data?: Record<string, string | number>;
}

interface AtNameRow {
  id: string;
  name: string;
  type: string;
  content: string;
  proxied: number;
  priority: number | null;
  data: string | null;
}

const AT_NAME_COLUMNS =
  "id, name, type, content, proxied, json_extract(json, '$.priority') AS priority, json_extract(json, '$.data') AS data";

function atNameRecord(r: AtNameRow): StoredAtName {
  const out: StoredAtName = {
    id: r.id,
    name: r.name,
    type: r.type,
    content: r.content,
    proxied: r.proxied === 1,
  };
  if (r.priority !== null) out.priority = r.priority;
  if (r.data !== null) out.data = JSON.parse(r.data) as Record<string, string | number>;
  return out;
}

/** The records at many full names at once, by name (a batch's posts check conflicts from this). */
export function recordsAtNames(db: Db, zoneId: string, names: string[]): Map<string, StoredAtName[]> {
  const rows = sql(
    db,
    `SELECT ${AT_NAME_COLUMNS} FROM dns_records WHERE zone_id = ? AND name IN (SELECT value FROM json_each(?))`,
  ).all(zoneId, JSON.stringify(names)) as AtNameRow[];
  const map = new Map<string, StoredAtName[]>();
  for (const r of rows) {
    const list = map.get(r.name) ?? [];
    list.push(atNameRecord(r));
    map.set(r.name, list);
  }
  return map;
}

/** The records at one full name (for conflict and chain checks). */
export function recordsAt(db: Db, zoneId: string, name: string): StoredAtName[] {
  const rows = sql(db, `SELECT ${AT_NAME_COLUMNS} FROM dns_records WHERE zone_id = ? AND name = ?`).all(
    zoneId,
    name,
  ) as AtNameRow[];
  return rows.map(atNameRecord);
}

/** 1 when the zone has an A or AAAA record, else 0: an EXISTS stays fast on a 100,000-record zone. */
export function countAddresses(db: Db, zoneId: string): number {
  const row = sql(
    db,
    "SELECT EXISTS (SELECT 1 FROM dns_records WHERE zone_id = ? AND type IN ('A', 'AAAA')) AS n",
  ).get(zoneId) as { n: number };
  return row.n;
}

export function deleteZoneRecords(db: Db, zoneId: string): void {
  sql(db, 'DELETE FROM dns_records WHERE zone_id = ?').run(zoneId);
  sql(db, 'DELETE FROM dns_record_quotas WHERE zone_id = ?').run(zoneId);
}

/** How many records a zone holds (the record quota counts every one, service-managed ones too). */
export function countRecords(db: Db, zoneId: string): number {
  return (sql(db, 'SELECT COUNT(*) AS n FROM dns_records WHERE zone_id = ?').get(zoneId) as { n: number }).n;
}

/** The record quota fixtures set for a zone, or undefined: its plan's quota holds. */
export function recordQuotaOverride(db: Db, zoneId: string): number | undefined {
  const row = sql(db, 'SELECT quota FROM dns_record_quotas WHERE zone_id = ?').get(zoneId) as
    { quota: number } | undefined;
  return row?.quota;
}

export function setRecordQuotaOverride(db: Db, zoneId: string, quota: number): void {
  sql(
    db,
    'INSERT INTO dns_record_quotas (zone_id, quota) VALUES (?, ?) ON CONFLICT(zone_id) DO UPDATE SET quota = excluded.quota',
  ).run(zoneId, quota);
}
