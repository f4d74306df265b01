/**
 * Concurrent runs (issue 15): the advisory lock on one checkout (who holds it, --lock-timeout, a
 * stale lock taken over), and two real applies of 3,000 records from two checkouts against one
 * API: a write refused as already true is resolved by re-reading, never reported as failed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, cliAt, startBed, tempDir, writeYaml, zoneFile, zoneRecords, type Bed } from './helpers.js';

let bed: Bed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

const small = (zone: string) => zoneFile(zone, ["{ name: '@', type: A, content: 192.0.2.1 }"]);

function holdLock(dir: string, pid: number): string {
  const path = join(dir, '.zoneplan', 'apply.lock');
  mkdirSync(join(dir, '.zoneplan'), { recursive: true });
  writeFileSync(path, JSON.stringify({ pid, host: hostname(), started: '2026-01-01T00:00:00.000Z' }));
  return path;
}

describe('the apply lock', () => {
  it('a second apply says who holds the lock and fails at once; --lock-timeout waits for it', async () => {
    bed = await startBed();
    const file = writeYaml(bed.dir, 'zones.yaml', small('lock.example'));
    const lock = holdLock(bed.dir, process.pid); // this test process: alive
    const refused = await cliAt(bed, ['apply', file, '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `another apply holds the lock ${lock} (pid ${process.pid} on ${hostname()}, since 2026-01-01T00:00:00.000Z)`,
    );
    expect(refused.stderr).toContain('--lock-timeout');

    setTimeout(() => unlinkSync(lock), 1500);
    const waited = await cliAt(bed, ['apply', file, '--auto-approve', '--lock-timeout', '20s']);
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stderr).toContain(`waiting up to 20s for the apply lock held by pid ${process.pid}`);
    expect(existsSync(lock)).toBe(false); // released at the end
  });

  it('a stale lock (its process is gone) is taken over', async () => {
    bed = await startBed();
    const file = writeYaml(bed.dir, 'zones.yaml', small('stale.example'));
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout;
    holdLock(bed.dir, Number(String(gone)));
    const r = await cliAt(bed, ['apply', file, '--auto-approve']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('taking over a stale apply lock');
  });

  it('a lock that names no holder (a process killed while writing it) is taken over once old', async () => {
    bed = await startBed();
    const file = writeYaml(bed.dir, 'zones.yaml', small('empty-lock.example'));
    const lock = holdLock(bed.dir, 0);
    writeFileSync(lock, '');
    const fresh = await cliAt(bed, ['apply', file, '--auto-approve']);
    expect(fresh.code).toBe(1); // it may be being written right now
    expect(fresh.stderr).toContain('the lock file is being written');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    const r = await cliAt(bed, ['apply', file, '--auto-approve']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('taking over a stale apply lock');
    expect(existsSync(lock)).toBe(false);
    expect(readdirSync(join(bed.dir, '.zoneplan')).filter((f) => f.startsWith('apply.lock'))).toEqual([]);
  });
});

describe('two applies at once from two checkouts', () => {
  it('3,000 records: both succeed or find nothing left, no failed line, the state is exact', async () => {
    bed = await startBed();
    const zone = 'race.example';
    const records = Array.from(
      { length: 3000 },
      (_, i) => `{ name: h${i}, type: A, content: 10.${Math.floor(i / 250)}.${i % 250}.1 }`,
    );
    const text = zoneFile(zone, records);
    const dirs = [tempDir(), tempDir()];
    const files = dirs.map((d) => writeYaml(d, 'zones.yaml', text));
    const env = { CLOUDFLARE_API_TOKEN: bed.token };
    const runs = await Promise.all(
      dirs.map((d, i) =>
        cli(['apply', files[i]!, '--auto-approve', '--api-url', bed!.server.url], { cwd: d, env }),
      ),
    );
    for (const r of runs) {
      expect(r.code, r.stderr + r.stdout.slice(-2000)).toBe(0);
      expect(r.stdout).not.toContain('failed:');
      expect(r.stdout).not.toContain('not run:');
    }
    const live = await zoneRecords(bed, zone);
    expect(live).toHaveLength(3000);
    expect(new Set(live.map((r) => r.name)).size).toBe(3000);
    const plan = await cliAt(bed, ['plan', files[0]!, '--detailed-exitcode']);
    expect(plan.code, plan.stdout).toBe(0);
  }, 120_000);
});
