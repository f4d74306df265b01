/**
 * Opens the SQLite store (WAL, foreign keys, a busy timeout so a second process waits instead of
 * failing) and runs migrations. Each area owns an append-only list of SQL migrations; the version
 * each area has reached is kept in `zoneplan_migrations`, and `PRAGMA user_version` holds the
 * framework's own schema version. A database written by a newer zoneplan is refused, not damaged.
 */
import { makeDirectory } from '../../make-directory.js';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { UserError } from '../../errors.js';

/**
 * The better-sqlite3 version whose JavaScript the CLI's bundle holds (scripts/bundle.js defines
 * it); undefined outside the bundle, where `better-sqlite3` is the installed package itself.
 */
declare const BUNDLED_BETTER_SQLITE3: string | undefined;

/**
 * better-sqlite3 as this process opens stores with: its class, and its native addon. The bundle
 * holds the package's JavaScript, so the package's own addon lookup (`lib/binding.js`, which looks
 * for a build made from source, then for the prebuilt addon the package ships for this platform)
 * is required from the installed package, where its paths resolve. Should the installed package
 * be another version than the bundle's JavaScript (a dependency updated after the build), the
 * installed package is used whole.
 */
let sqlite: { Database: typeof Database; addon?: object } | undefined;
function betterSqlite(): { Database: typeof Database; addon?: object } {
  if (sqlite) return sqlite;
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve('better-sqlite3/package.json'));
  const bundled = typeof BUNDLED_BETTER_SQLITE3 === 'string' ? BUNDLED_BETTER_SQLITE3 : undefined;
  if (
    bundled === undefined ||
    (require(join(root, 'package.json')) as { version: string }).version !== bundled
  )
    return (sqlite = { Database: require('better-sqlite3') as typeof Database });
  const binding = require(join(root, 'lib', 'binding.js')) as { getBinding(given?: unknown): object };
  return (sqlite = { Database, addon: binding.getBinding(null) });
}

export type Db = Database.Database;

/** The framework's schema version (the migration bookkeeping itself). */
export const FRAMEWORK_SCHEMA_VERSION = 1;

export function openDatabase(path: string): Db {
  if (path !== ':memory:') makeDirectory(dirname(path));
  let db: Db;
  try {
    const { Database: Sqlite, addon } = betterSqlite();
    // (the package takes the addon object itself, which its types do not say)
    db = addon ? new Sqlite(path, { nativeBinding: addon as unknown as string }) : new Sqlite(path);
  } catch (err) {
    throw new UserError(`cannot open the local API database ${path}: ${(err as Error).message}`);
  }
  try {
    if (path !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // a 100,000-record zone's indexes outgrow the 2 MB default page cache
    db.pragma('cache_size = -65536');
    db.pragma('temp_store = MEMORY');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > FRAMEWORK_SCHEMA_VERSION) {
      throw new UserError(
        `the local API database ${path} was written by a newer zoneplan (schema ${version}); upgrade zoneplan or use another --db`,
      );
    }
    if (version < FRAMEWORK_SCHEMA_VERSION) {
      db.exec(
        'CREATE TABLE IF NOT EXISTS zoneplan_migrations (area TEXT PRIMARY KEY, version INTEGER NOT NULL)',
      );
      db.pragma(`user_version = ${FRAMEWORK_SCHEMA_VERSION}`);
    }
  } catch (err) {
    db.close();
    if (err instanceof UserError) throw err;
    throw new UserError(`the file ${path} is not a usable local API database: ${(err as Error).message}`);
  }
  return db;
}

/**
 * Brings one area's tables up to date: runs the migrations past the recorded version, each with
 * its version bump in one transaction, so a crash leaves the area at a whole version.
 */
export function migrate(db: Db, area: string, migrations: readonly string[]): void {
  const row = db.prepare('SELECT version FROM zoneplan_migrations WHERE area = ?').get(area) as
    { version: number } | undefined;
  const current = row?.version ?? 0;
  if (current > migrations.length) {
    throw new UserError(
      `the local API database has ${area} tables at version ${current}, newer than this zoneplan knows (${migrations.length}); upgrade zoneplan`,
    );
  }
  for (let v = current; v < migrations.length; v++) {
    db.transaction(() => {
      db.exec(migrations[v]);
      db.prepare(
        'INSERT INTO zoneplan_migrations (area, version) VALUES (?, ?) ON CONFLICT(area) DO UPDATE SET version = excluded.version',
      ).run(area, v + 1);
    })();
  }
}

const statements = new WeakMap<Db, Map<string, Database.Statement>>();

/** A prepared statement, prepared once per database: preparing costs more than running a small query. */
export function sql(db: Db, text: string): Database.Statement {
  let map = statements.get(db);
  if (!map) statements.set(db, (map = new Map()));
  let stmt = map.get(text);
  if (!stmt) {
    // filter combinations make many texts; a bound keeps a long-running server's memory flat
    if (map.size > 1000) map.clear();
    map.set(text, (stmt = db.prepare(text)));
  }
  return stmt;
}

const otherWrites = new WeakMap<Db, { value: number; fresh: boolean }>();

/**
 * A token that changes whenever any table may have changed: this connection's own writes
 * (total_changes, exact and cheap) or a commit by another connection to the same file
 * (data_version). data_version costs a look at the file, so it is read once per turn of the event
 * loop: the requests parsed in one turn are answered as of that moment, as if they had come
 * together.
 */
export function dataVersion(db: Db): string {
  const own = sql(db, 'SELECT total_changes()').pluck().get() as number;
  let other = otherWrites.get(db);
  if (!other || !other.fresh) {
    const entry = { value: sql(db, 'PRAGMA data_version').pluck().get() as number, fresh: true };
    otherWrites.set(db, entry);
    setImmediate(() => (entry.fresh = false));
    other = entry;
  }
  return `${own}:${other.value}`;
}
