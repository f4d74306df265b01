/**
 * Fixtures seed what the API can change only once. Restarting `zoneplan serve` with the same
 * fixtures file must not undo what clients did since (re-enable a Page Shield the API disabled,
 * put back a pool e-mail the API removed, resurrect a deleted override, or reverse a WAF
 * migration, which is never reversible). Facts the API cannot change (detected scripts, firewall
 * rule counts) are not seeded through this: the file stays their truth on every load.
 */
import type { Db } from '../../store/db.js';

/** Added to the first migration of every part-2 area (IF NOT EXISTS: whichever runs first creates it). */
export const SEEDS_TABLE_SQL = `CREATE TABLE IF NOT EXISTS fixture_seeds (
     kind TEXT NOT NULL,
     key TEXT NOT NULL,
     PRIMARY KEY (kind, key)
   );`;

/** True the first time a (kind, key) is seeded, false ever after; records it. */
export function seedOnce(db: Db, kind: string, key: string): boolean {
  return (
    db.prepare('INSERT OR IGNORE INTO fixture_seeds (kind, key) VALUES (?, ?)').run(kind, key).changes > 0
  );
}
