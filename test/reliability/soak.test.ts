/**
 * The suite's fault soak (bench/soak/run.js is the long one): 200 DNS changes plus every other kind
 * applied through the built CLI against the local API with 20% 503s, 20 ms latency and a 429 burst.
 * The run must finish (retries, re-reads after unknown outcomes), the second plan must be empty, and
 * the stored state must equal the desired state record by record; the zone the file does not name
 * stays byte-identical.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../support/proxy.js';
import { requireBuild, spawnCli, type CliRun } from '../support/processes.js';
import * as s from '../support/scenario.js';
import { startServer, type RunningServer } from '../../src/server/index.js';

const SEED = Number(process.env.SOAK_SEED ?? 20261121);
const CHANGES = 200;
const ENV = { CLOUDFLARE_API_TOKEN: s.TOKEN, [s.LOGPUSH_SECRET_ENV]: 'soak-secret-value-xyz' };

interface SoakBed {
  dir: string;
  server: RunningServer;
  proxy: FaultProxy;
  get: s.Get;
  net: string[];
}
const beds: SoakBed[] = [];
afterEach(async () => {
  for (const b of beds.splice(0)) {
    await b.proxy.close();
    await b.server.close();
    rmSync(b.dir, { recursive: true, force: true });
  }
});

async function soakBed(): Promise<SoakBed> {
  requireBuild();
  const dir = mkdtempSync(join(tmpdir(), 'zp-soak-'));
  const { seedRecords, records } = s.dnsScenario(CHANGES, SEED);
  writeFileSync(join(dir, 'zones.yaml'), s.desiredYaml(records));
  const server = await startServer({
    db: join(dir, 'api.db'),
    fixtures: s.fixtures({ seedRecords, records }),
    faults: `error5xx=0.2,latency=20ms,seed=${SEED}`,
    quiet: true,
  });
  const proxy = await startFaultProxy({ target: server.url, burstAt: 4, burstLength: 3, retryAfter: 1 });
  const bed = {
    dir,
    server,
    proxy,
    get: s.reader(server.url, s.TOKEN),
    net: ['--api-url', proxy.url, '--rate-limit', '100000/1'],
  };
  beds.push(bed);
  return bed;
}

const applyOnce = (b: SoakBed): Promise<CliRun> =>
  spawnCli(['-v', 'apply', 'zones.yaml', '--auto-approve', '--force', '--allow-irreversible', ...b.net], {
    cwd: b.dir,
    env: ENV,
    timeoutMs: 40_000,
  });

async function expectConverged(b: SoakBed, otherBefore: string): Promise<void> {
  const plan = await spawnCli(['plan', 'zones.yaml', '--detailed-exitcode', ...b.net], {
    cwd: b.dir,
    env: ENV,
    timeoutMs: 30_000,
  });
  expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  const { records } = s.dnsScenario(CHANGES, SEED);
  expect(await s.dnsDifferences(b.get, records)).toEqual([]);
  expect(await s.kindDifferences(b.get)).toEqual([]);
  expect(JSON.stringify(await s.zoneRecords(b.get, s.OTHER_ZONE))).toBe(otherBefore);
}

describe(`fault soak (seed ${SEED}; replay with SOAK_SEED=${SEED})`, () => {
  it('finishes in one apply run through 503s, latency and a 429 burst; the second plan is empty', async () => {
    const b = await soakBed();
    const otherBefore = JSON.stringify(await s.zoneRecords(b.get, s.OTHER_ZONE));
    const run = await applyOnce(b);
    if (process.env.SOAK_DUMP) writeFileSync(process.env.SOAK_DUMP, run.stdout + '\n---\n' + run.stderr);
    expect(run.stderr).not.toMatch(/internal error|\n\s+at /i);
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    // the faults really reached the client and were retried
    expect(b.proxy.stats.burst429).toBe(3);
    expect(b.proxy.stats.byStatus['503'] ?? 0).toBeGreaterThan(0);
    expect(run.stderr).toMatch(/retries=\d+/);
    await expectConverged(b, otherBefore);
  }, 120_000);
});
