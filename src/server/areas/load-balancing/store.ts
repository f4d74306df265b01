/**
 * Load balancer pools of an account, stored as whole JSON documents with the name in a column for
 * the ordering the API uses (ascending name).
 */
import type { Db } from '../../store/db.js';
import { parseJson } from '../area-helpers/replies.js';
import { SEEDS_TABLE_SQL } from '../area-helpers/seeds.js';

export const POOL_MIGRATIONS: readonly string[] = [
  `CREATE TABLE lb_pools (
     id TEXT PRIMARY KEY,
     account_id TEXT NOT NULL,
     name TEXT NOT NULL,
     data TEXT NOT NULL
   );
   CREATE INDEX lb_pools_account_name ON lb_pools(account_id, name, id);
   ${SEEDS_TABLE_SQL}`,
];

export type Pool = Record<string, unknown> & { id: string; name: string; notification_email: string };

export function listPools(db: Db, accountId: string): Pool[] {
  const rows = db
    .prepare('SELECT data FROM lb_pools WHERE account_id = ? ORDER BY name, id')
    .all(accountId) as { data: string }[];
  return rows
    .map((r) => parseJson<Pool>(r.data, { id: '', name: '', notification_email: '' }))
    .filter((p) => p.id !== '');
}

export function getPool(db: Db, accountId: string, id: string): Pool | undefined {
  const row = db.prepare('SELECT data FROM lb_pools WHERE account_id = ? AND id = ?').get(accountId, id) as
    { data: string } | undefined;
  return row ? parseJson<Pool | undefined>(row.data, undefined) : undefined;
}

export function savePool(db: Db, accountId: string, pool: Pool): void {
  db.prepare(
    `INSERT INTO lb_pools (id, account_id, name, data) VALUES (?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET account_id = excluded.account_id, name = excluded.name, data = excluded.data`,
  ).run(pool.id, accountId, pool.name, JSON.stringify(pool));
}

export function poolIds(db: Db, accountId: string): Set<string> {
  const rows = db.prepare('SELECT id FROM lb_pools WHERE account_id = ?').all(accountId) as { id: string }[];
  return new Set(rows.map((r) => r.id));
}
