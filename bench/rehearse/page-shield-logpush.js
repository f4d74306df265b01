#!/usr/bin/env node
// What Page Shield and Logpush add to a rehearsal: whole `zoneplan` processes, `plan` and
// `plan --rehearse` side by side, on a zone with Page Shield (policies and many detected items, which
// only a rehearsal lists) and Logpush jobs, against `zoneplan serve` as its own process.
// Usage: npm run build && node bench/rehearse/page-shield-logpush.js [--runs 5] [--items 1000] [--jobs 30]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe } from '../../test/support/processes.js';
import { BIN, TOKEN, arg, median, timedPlan, writeBenchFiles } from './common.js';

const RUNS = arg('--runs', 5);
const ITEMS = arg('--items', 1_000);
const JOBS = arg('--jobs', 30);
const POLICIES = 20;
const dir = mkdtempSync(join(tmpdir(), 'zoneplan-bench-ps-lp-'));
const hex = (prefix, i) => `${prefix}${i.toString(16).padStart(31, '0')}`;

const policy = (i, value) => ({
  description: `policy-${i}`,
  action: 'log',
  expression: `http.request.uri.path contains "/p${i}"`,
  value,
});
const job = (i, enabled) => ({
  name: `job-${i}`,
  dataset: 'http_requests',
  destination_conf: `https://logs${i}.example.com/in`,
  enabled,
});
const { fixtures, desired } = writeBenchFiles(dir, {
  zones: [
    {
      name: 'ps.bench',
      plan: 'enterprise',
      page_shield: {
        enabled: true,
        policies: Array.from({ length: POLICIES }, (_, i) => ({
          id: hex('a', i),
          ...policy(i, "script-src 'self'"),
          enabled: true,
        })),
        scripts: Array.from({ length: ITEMS }, (_, i) => ({
          id: hex('b', i),
          url: `https://cdn${i % 7}.example.net/s${i}.js`,
          js_integrity_score: 20 + (i % 70),
        })),
        connections: Array.from({ length: ITEMS }, (_, i) => ({
          id: hex('c', i),
          url: `https://api${i % 5}.example.net/c${i}`,
        })),
        cookies: Array.from({ length: ITEMS }, (_, i) => ({
          id: hex('d', i),
          name: `c${i}`,
          host: 'ps.bench',
        })),
      },
      logpush: { jobs: Array.from({ length: JOBS }, (_, i) => ({ id: i + 1, ...job(i, true) })) },
    },
  ],
  // the file: every policy and job, a quarter of each changed
  desiredZones: [
    {
      name: 'ps.bench',
      page_shield: {
        enabled: true,
        policies: Array.from({ length: POLICIES }, (_, i) =>
          policy(i, i % 4 === 0 ? "script-src 'self' https://cdn.example.net" : "script-src 'self'"),
        ),
      },
      logpush: { jobs: Array.from({ length: JOBS }, (_, i) => job(i, i % 4 !== 0)) },
    },
  ],
});

// `zoneplan serve` as its own process, the way the soak and the tests start it
const serve = await startServe({ db: join(dir, 'api.db'), fixtures, cwd: dir });
process.on('exit', () => void serve.kill('SIGTERM'));
const url = serve.url;

const run = (extra) => timedPlan({ desired, url, extra });

function exportCopy() {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const out = join(dir, 'copy.json');
    const child = spawn(
      process.execPath,
      [BIN, 'export', '--as', 'fixtures', '--zone', 'ps.bench', '--out', out, '--api-url', url],
      { env: { PATH: process.env.PATH, CLOUDFLARE_API_TOKEN: TOKEN, NO_COLOR: '1' }, stdio: 'ignore' },
    );
    child.on('exit', (code) =>
      code === 0
        ? resolve(Number(process.hrtime.bigint() - start) / 1e6)
        : reject(new Error(`export exited ${code}`)),
    );
  });
}

const times = { plan: [], rehearse: [] };
await run([]); // warm-up
let verdict = '';
for (let i = 0; i < RUNS; i++) {
  const order = i % 2 === 0 ? ['plan', 'rehearse'] : ['rehearse', 'plan'];
  for (const which of order) {
    const r = await run(which === 'rehearse' ? ['--rehearse'] : []);
    times[which].push(r.ms);
    if (which === 'rehearse') verdict = r.err.split('\n').find((l) => l.startsWith('rehearsed:')) ?? '';
  }
}
const plan = median(times.plan);
const rehearse = median(times.rehearse);
console.log(
  `${POLICIES} policies, ${ITEMS} scripts/connections/cookies each, ${JOBS} jobs, ${RUNS} runs (medians, whole process)`,
);
console.log(`plan             ${plan.toFixed(0)} ms`);
console.log(`plan --rehearse  ${rehearse.toFixed(0)} ms  (${(rehearse / plan).toFixed(2)}x)`);
console.log(verdict);
console.log(`export --as fixtures  ${(await exportCopy()).toFixed(0)} ms (every detected item listed)`);
serve.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });
