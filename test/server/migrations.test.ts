// An older database is brought up to date in place, keeping its rows; a newer one is refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DNS_MIGRATIONS } from '../../src/server/areas/dns/store.js';
import { startServer } from '../../src/server/index.js';
import { CORE_MIGRATIONS } from '../../src/server/store/core.js';
import { migrate, openDatabase } from '../../src/server/store/db.js';
import { createZone, startTestServer } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'zoneplan-migrate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('migrations', () => {
  it('upgrades a database made at DNS version 1 and keeps its records', async () => {
    const path = join(dir, 'old.db');
    const db = openDatabase(path);
    migrate(db, 'core', CORE_MIGRATIONS);
    migrate(db, 'dns', DNS_MIGRATIONS.slice(0, 1));
    db.prepare("INSERT INTO accounts (id, name, created_on) VALUES ('a', 'A', 'now')").run();
    db.prepare(
      `INSERT INTO dns_records (id, zone_id, name, type, content, proxied, ttl, comment, tags, locked, json)
       VALUES ('r1', 'z1', 'x.example.com', 'A', '192.0.2.1', 0, 1, NULL, '[]', 0, '{"id":"r1"}')`,
    ).run();
    db.close();
    const s = await startServer({ db: path, quiet: true });
    const row = s.db.prepare("SELECT id, json FROM dns_records WHERE id = 'r1'").get();
    expect(row).toEqual({ id: 'r1', json: '{"id":"r1"}' });
    const version = s.db.prepare("SELECT version FROM zoneplan_migrations WHERE area = 'dns'").get() as {
      version: number;
    };
    expect(version.version).toBe(DNS_MIGRATIONS.length);
    await s.close();
  });

  it('gives an entry point saved before ruleset versions were kept its latest version as history', async () => {
    const t = await startTestServer();
    try {
      const zone = await createZone(t, 'history.example');
      const entry = `/zones/${zone}/rulesets/phases/http_request_firewall_custom/entrypoint`;
      const saved = await t.api('PUT', entry, { rules: [{ action: 'block', expression: 'true' }] });
      await t.api('PUT', entry, { rules: [{ action: 'log', expression: 'true' }] });
      await t.stop();
      // the database as the WAF area's first three migrations left it, with the entry point at version 2
      const db = openDatabase(t.dbPath);
      db.exec(
        'DROP TABLE ruleset_versions; DROP TABLE managed_ruleset_versions; DROP TABLE managed_ruleset_bases;',
      );
      db.prepare("UPDATE zoneplan_migrations SET version = 3 WHERE area = 'waf'").run();
      db.close();
      await t.restart();
      const versions = (await t.api('GET', `${entry}/versions`)).body.result;
      expect(versions).toEqual([expect.objectContaining({ id: saved.body.result.id, version: '2' })]);
      expect((await t.api('GET', `/zones/${zone}/rulesets/${saved.body.result.id}/versions/2`)).status).toBe(
        200,
      );
    } finally {
      await t.close();
    }
  });

  it('refuses a database from a newer zoneplan', async () => {
    const path = join(dir, 'new.db');
    const db = openDatabase(path);
    db.pragma('user_version = 99');
    db.close();
    await expect(startServer({ db: path, quiet: true })).rejects.toThrow(/newer zoneplan/);
  });
});
