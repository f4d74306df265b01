/**
 * A canonical dump of every table of the local API's SQLite store, for "nothing changed" checks:
 * rows sorted by their JSON text, so the dump compares equal exactly when the stored data is equal.
 */
import type { Db } from '../../src/server/store/db.js';

export function dumpStore(db: Db): Record<string, string[]> {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as { name: string }[];
  const dump: Record<string, string[]> = {};
  for (const { name } of tables) {
    const rows = db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[];
    dump[name] = rows
      .map((r) => JSON.stringify(r, (_, v: unknown) => (Buffer.isBuffer(v) ? v.toString('hex') : v)))
      .sort();
  }
  return dump;
}
