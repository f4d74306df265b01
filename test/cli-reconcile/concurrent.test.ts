/**
 * Concurrent runs (issue 15): the advisory lock on one checkout (who holds it, --lock-timeout, a
 * stale lock taken over), and two real applies from two checkouts against one API (800 records in
 * batches of 200 on an older Free zone; a zone both create): a write refused as already true is
 * resolved by re-reading, never reported as failed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { requireBuild, spawnCli } from '../support/processes.js';
import {
  ACCOUNT,
  api,
  cliAt,
  startBed,
  tempDir,
  writeYaml,
  zoneFile,
  zoneRecords,
  type Bed,
} from './helpers.js';

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

/**
 * A gate in front of `target`: reads pass at once; every other request waits until two reads whose
 * URL matches `reads` have arrived (one from each run), so both runs read the state before either
 * writes, on any machine, without a timing guess.
 */
async function startGate(target: string, reads: RegExp): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  let seen = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const server = createServer((req, res) => {
    const forward = () => {
      const out = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on('error', () => res.destroy());
      req.pipe(out);
    };
    if (req.method !== 'GET') return void opened.then(forward);
    if (reads.test(req.url ?? '') && ++seen >= 2) open();
    forward();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Both applies plan from the same state and send the same creates; one run's batch meets records
 * the other has written (refused as already there), and it must re-read rather than report them
 * failed. Two processes of the built CLI (in-process runs queue behind each other and would never
 * overlap) behind a gate that holds writes until both have read (`reads`), then the recording
 * proxy, so the batches sent are counted by what reached the API.
 */
async function race(
  zone: string,
  count: number,
  reads: RegExp,
): Promise<{ batches: number; runs: string[] }> {
  const records = Array.from(
    { length: count },
    (_, i) => `{ name: h${i}, type: A, content: 10.${Math.floor(i / 250)}.${i % 250}.1 }`,
  );
  const text = zoneFile(zone, records);
  const dirs = [tempDir(), tempDir()];
  const files = dirs.map((d) => writeYaml(d, 'zones.yaml', text));
  const env = { CLOUDFLARE_API_TOKEN: bed!.token };
  const gate = await startGate(bed!.contract.url, reads);
  const runs = await Promise.all(
    dirs.map((d, i) =>
      spawnCli(['apply', files[i]!, '--auto-approve', '--api-url', gate.url], { cwd: d, env }),
    ),
  ).finally(() => gate.close());
  for (const r of runs) {
    expect(r.code, r.stderr + r.stdout.slice(-2000)).toBe(0);
    expect(r.stdout).not.toContain('failed:');
    expect(r.stdout).not.toContain('not run:');
  }
  const live = await zoneRecords(bed!, zone);
  expect(live).toHaveLength(count);
  expect(new Set(live.map((r) => r.name)).size).toBe(count);
  const plan = await cliAt(bed!, ['plan', files[0]!, '--detailed-exitcode']);
  expect(plan.code, plan.stdout).toBe(0);
  const batches = bed!.contract.exchanges.filter(
    (x) => x.method === 'POST' && x.url.includes('/dns_records/batch'),
  ).length;
  return {
    batches,
    runs: runs.map((r) =>
      r.stdout
        .split('\n')
        .filter((l) => /^(Plan:|Applied|No changes)/.test(l))
        .join(' '),
    ),
  };
}

describe('two applies at once from two checkouts', () => {
  // A Free zone created before 2024-09-01 holds 1,000 records and takes batches of 200 (a paid
  // zone would take all of them in one batch of up to 3,500, and leave no race between batches).
  // 800 records are 4 batches per apply, and the zone never holds more than 800, so even a batch
  // of 200 creates that all exist already stays within the quota: the only refusals are the race's.
  it('800 records on an older Free zone, 4 batches each: both succeed, no failed line, the state is exact', async () => {
    requireBuild();
    bed = await startBed({
      fixtures: {
        accounts: [{ id: ACCOUNT, name: 'Race' }],
        zones: [{ name: 'race.example', account: ACCOUNT, plan: 'free', created_on: '2023-05-01T00:00:00Z' }],
      },
    });
    const { batches, runs } = await race('race.example', 800, /\/dns_records\?/);
    // the race happened: both applies planned the creates and sent batches (4 alone would be one's)
    expect(batches, runs.join('\n')).toBeGreaterThan(4);
  }, 120_000);

  // the zone itself raced: both applies create it; a new zone is Free (200 records, one batch)
  it('a zone both applies create, with 150 records: both succeed, one zone, the state is exact', async () => {
    requireBuild();
    bed = await startBed();
    const { batches, runs } = await race('new-race.example', 150, /\/zones\?/);
    expect(batches, runs.join('\n')).toBeGreaterThan(1);
    expect(await api<unknown[]>(bed, 'GET', '/zones?name=new-race.example')).toHaveLength(1);
  }, 120_000);
});
