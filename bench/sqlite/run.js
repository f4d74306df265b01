#!/usr/bin/env node
// The local API's hot DNS statements on the two SQLite bindings a Node 22/24 process can use:
// better-sqlite3 (what src/server/store uses) and Node's built-in node:sqlite (DatabaseSync). Same
// schema, pragmas, SQL and data as src/server (dns_records of a 10,000-record zone, the store's
// WAL settings); each case runs on both, interleaved over rounds, in this one process. This is a
// micro-benchmark of the statements, not of `serve`: HTTP, routing and JSON are left out.
// Usage: node bench/sqlite/run.js [--records 10000] [--rounds 5]
// Prints a markdown table (operations per second, best round of each binding).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, dflt) => Number(args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const RECORDS = opt('--records', 10000);
const ROUNDS = opt('--rounds', 5);
const require = createRequire(import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'zoneplan-sqlite-bench-'));

// the dns_records table and indexes as src/server/areas/dns/store.ts's migrations leave them
const SCHEMA = `CREATE TABLE dns_records (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, zone_id TEXT NOT NULL, name TEXT NOT NULL,
  type TEXT NOT NULL, content TEXT NOT NULL, proxied INTEGER NOT NULL, ttl INTEGER NOT NULL,
  comment TEXT, tags TEXT NOT NULL, locked INTEGER NOT NULL DEFAULT 0, json TEXT NOT NULL);
CREATE INDEX dns_records_zone_order ON dns_records(zone_id, type, name, content);
CREATE INDEX dns_records_zone_name_order ON dns_records(zone_id, name, type, content);`;
const PRAGMAS = [
  'journal_mode = WAL',
  'synchronous = NORMAL',
  'foreign_keys = ON',
  'busy_timeout = 5000',
  'cache_size = -65536',
  'temp_store = MEMORY',
];
const INSERT = `INSERT INTO dns_records (id, zone_id, name, type, content, proxied, ttl, comment, tags, locked, json)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const GET = 'SELECT * FROM dns_records WHERE zone_id = ? AND id = ?';
const LIST = `SELECT json FROM dns_records WHERE zone_id = ? ORDER BY type ASC, name ASC, content ASC, seq ASC LIMIT ? OFFSET ?`;
const COUNT = 'SELECT COUNT(*) AS n FROM dns_records WHERE zone_id = ?';
const VERSION = 'SELECT total_changes()';
const ZONE = 'a'.repeat(32);

const record = (tag, i) => {
  const id = `${tag}${String(i).padStart(31 - tag.length, '0')}x`;
  const name = `h${i}.bench.test`;
  const content = `192.0.${(i >> 8) & 255}.${i & 255}`;
  const json = JSON.stringify({
    id,
    zone_id: ZONE,
    name,
    type: 'A',
    content,
    proxied: false,
    ttl: 1,
    tags: [],
  });
  return [id, ZONE, name, 'A', content, 0, 1, null, '[]', 0, json];
};

/** The two bindings behind one small interface: open, prepare (run/get/all), a transaction, the one-column read. */
const bindings = {
  'better-sqlite3': () => {
    const Database = require('better-sqlite3');
    const db = new Database(join(dir, 'bs.db'));
    for (const p of PRAGMAS) db.pragma(p);
    return {
      db,
      prepare: (text) => db.prepare(text),
      inTransaction: (fn) => db.transaction(fn)(),
      pluck: (text) => {
        const s = db.prepare(text).pluck();
        return () => s.get();
      },
    };
  },
  'node:sqlite': () => {
    const { DatabaseSync } = require('node:sqlite');
    const db = new DatabaseSync(join(dir, 'ns.db'));
    for (const p of PRAGMAS) db.exec(`PRAGMA ${p}`);
    const begin = db.prepare('BEGIN');
    const commit = db.prepare('COMMIT');
    const rollback = db.prepare('ROLLBACK');
    return {
      db,
      prepare: (text) => db.prepare(text),
      inTransaction: (fn) => {
        begin.run();
        try {
          fn();
          commit.run();
        } catch (err) {
          rollback.run();
          throw err;
        }
      },
      pluck: (text) => {
        const s = db.prepare(text);
        // node:sqlite has no pluck(): the row's one column by hand
        return () => Object.values(s.get())[0];
      },
    };
  },
};

const stores = {};
const open = [];
for (const [label, openBinding] of Object.entries(bindings)) {
  const s = openBinding();
  open.push(s.db);
  s.db.exec(SCHEMA);
  const insert = s.prepare(INSERT);
  s.inTransaction(() => {
    for (let i = 0; i < RECORDS; i++) insert.run(...record('s', i));
  });
  const get = s.prepare(GET);
  const list = s.prepare(LIST);
  const count = s.prepare(COUNT);
  const version = s.pluck(VERSION);
  let batch = 0;
  stores[label] = {
    'GET one record (by zone and id)': () => get.get(ZONE, record('s', 5000)[0]),
    'list 100 (page 3, default order)': () => list.all(ZONE, 100, 200).length,
    'list 5,000 (one page, joined)': () =>
      '[' +
      list
        .all(ZONE, 5000, 0)
        .map((r) => r.json)
        .join(',') +
      ']',
    'COUNT(*) of the zone': () => count.get(ZONE).n,
    'data version (total_changes)': () => version(),
    'batch of 1,000 inserts (one transaction)': () => {
      const k = batch++;
      s.inTransaction(() => {
        for (let j = 0; j < 1000; j++) insert.run(...record(`b${k}-`, j));
      });
    },
  };
}

/** Operations per second of `fn` over about `ms` milliseconds. */
function opsPerSecond(fn, ms) {
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    fn();
    n++;
  }
  return n / ((performance.now() - t0) / 1000);
}

const labels = Object.keys(stores['better-sqlite3']);
const best = Object.fromEntries(
  Object.keys(stores).map((b) => [b, Object.fromEntries(labels.map((l) => [l, 0]))]),
);
for (const label of labels) for (const b of Object.keys(stores)) opsPerSecond(stores[b][label], 100); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (const label of labels) {
    // alternate which binding goes first, so a neighbour's load hits both alike
    const order = round % 2 ? ['node:sqlite', 'better-sqlite3'] : ['better-sqlite3', 'node:sqlite'];
    for (const b of order) best[b][label] = Math.max(best[b][label], opsPerSecond(stores[b][label], 300));
  }
}
for (const db of open) db.close();

console.log(
  `Node ${process.version}, SQLite ${process.versions.sqlite ?? '?'} (node:sqlite) / better-sqlite3 ${require('better-sqlite3/package.json').version}; ` +
    `${RECORDS.toLocaleString('en')} records; best of ${ROUNDS} rounds of 0.3 s per case.\n`,
);
console.log('| statement | better-sqlite3 ops/s | node:sqlite ops/s | node:sqlite / better-sqlite3 |');
console.log('|---|---:|---:|---:|');
for (const label of labels) {
  const a = best['better-sqlite3'][label];
  const b = best['node:sqlite'][label];
  console.log(`| ${label} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${((b / a) * 100).toFixed(0)}% |`);
}
rmSync(dir, { recursive: true, force: true });
