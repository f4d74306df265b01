#!/usr/bin/env node
// Speed of the reconciler against the local API, each figure beside its limit, measured in one run:
// - plan of a 10,000-record zone with nothing to change: wall time and requests, beside a bare
//   undici fetch of the same pages (the limit is 1.5x the bare fetch, at most 3 DNS list requests),
//   from a generated desired state and from the same zone's file read by the loader;
// - plan of a 100,000-record zone: peak RSS of the planning process (limit 400 MB);
// - apply of 1,000 creates: batch requests (limit 1 per 3,500 records on a paid zone).
// Usage: npm run build && node bench/plan/run.js [--runs 9]
// Timings are medians (and bests) of interleaved runs; on a loaded machine they move together.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiClient } from '../../dist/client/index.js';
import { allKinds } from '../../dist/kinds/index.js';
import { applyPlan } from '../../dist/core/apply.js';
import { buildPlan, runtimeKinds } from '../../dist/core/plan.js';
import { readLive } from '../../dist/core/read.js';
import { loadDesiredState } from '../../dist/config/load.js';
import { stringify } from 'yaml';
import { apiCaller, startServe } from '../../test/support/processes.js';
import { desiredState, record } from './records.js';

const args = process.argv.slice(2);
const RUNS = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 9;
const ACCOUNT = '0123456789abcdef0123456789abcdef';
const dir = mkdtempSync(join(tmpdir(), 'zoneplan-bench-plan-'));
const here = fileURLToPath(new URL('.', import.meta.url));
const zones = ['ten.bench', 'hundred.bench', 'apply.bench'];
const TOKEN = 'bench-token-0123456789abcdef';
// the API runs as its own process (`zoneplan serve`), as a remote API would: the figures below are
// the reconciler's side alone
const fixtures = join(dir, 'fixtures.yaml');
writeFileSync(
  fixtures,
  JSON.stringify({
    accounts: [{ id: ACCOUNT, name: 'bench' }],
    // Enterprise: 10,000 and 100,000 records are over the 3,500 a Pro zone holds (batches of 3,500 either way)
    zones: zones.map((name) => ({ name, account: ACCOUNT, plan: 'enterprise' })),
    tokens: [{ name: 'bench', value: TOKEN }],
  }),
);
const serve = await startServe({ db: join(dir, 'api.db'), fixtures, cwd: dir });
// never leave the API running, whatever happens below
process.on('exit', () => void serve.kill('SIGTERM'));
const server = { url: serve.url, close: () => serve.stop() };

const call = apiCaller(server.url, TOKEN);

async function zoneId(name) {
  return (await call('GET', `/zones?name=${name}`)).result[0].id;
}

async function seed(zone, count) {
  const id = await zoneId(zone);
  for (let i = 0; i < count; i += 3500) {
    const posts = [];
    for (let j = i; j < Math.min(count, i + 3500); j++) posts.push(record(j, zone));
    await call('POST', `/zones/${id}/dns_records/batch`, { posts });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const best = (xs) => Math.min(...xs);

// 1. plan of 10,000 records, nothing to change, against a bare fetch of the same pages
await seed('ten.bench', 10_000);
const kinds = runtimeKinds(allKinds());
// one client for every run, as the bare fetch reuses undici's global pool: both sides warm
const planLog = [];
const planClient = new ApiClient({
  baseUrl: server.url,
  auth: { kind: 'token', token: TOKEN },
  log: (l) => planLog.push(l),
});
// the same zone as a file, for the runs that read it through the loader as `zoneplan plan` does
const tenFile = join(dir, 'ten.yaml');
writeFileSync(
  tenFile,
  stringify({
    version: 1,
    zones: [
      {
        name: 'ten.bench',
        account: ACCOUNT,
        dns: { records: desiredState('ten.bench', ACCOUNT, 10_000).zones[0].dns.records.map(withoutPath) },
      },
    ],
  }),
);
function withoutPath({ path: _path, ...r }) {
  return r;
}
async function planOnce(fromFile = false) {
  // a fresh desired state each run, as a CLI run has (nothing cached from the previous run); the
  // loader's time is not counted, what it leaves behind (its garbage, its objects) is
  const desired10k = fromFile
    ? (await loadDesiredState(tenFile)).desired
    : desiredState('ten.bench', ACCOUNT, 10_000);
  const requests = planClient.stats.requests;
  planLog.length = 0;
  const t0 = performance.now();
  const plan = buildPlan(desired10k, await readLive(desired10k, kinds, planClient), kinds);
  const ms = performance.now() - t0;
  if (plan.steps.length !== 0) throw new Error(`expected no changes, got ${plan.steps.length}`);
  return {
    ms,
    requests: planClient.stats.requests - requests,
    lists: planLog.filter((l) => /dns_records/.test(l)).length,
  };
}
async function bareOnce() {
  const t0 = performance.now();
  const zone = (await call('GET', '/zones?name=ten.bench&per_page=50')).result[0];
  const env = await call('GET', `/zones/${zone.id}/dns_records?per_page=5000000&page=1`);
  if (env.result.length < 10_000) throw new Error('bare fetch is short');
  return performance.now() - t0;
}
// warm both paths (JIT, connection pools) the same number of times; the table compares steady states
const WARMUP = 3;
for (let i = 0; i < WARMUP; i++) {
  await planOnce();
  await bareOnce();
}
const plans = [];
const bares = [];
for (let i = 0; i < RUNS; i++) {
  plans.push(await planOnce());
  bares.push(await bareOnce());
}
const planMs = median(plans.map((p) => p.ms));
// then the CLI's path: the file read by the loader before each plan. A separate phase with its
// own bare fetches, since the loader's garbage (about 100 MB per 10,000 records) changes the
// garbage collector's state for whatever runs next, the bare fetch included
for (let i = 0; i < WARMUP; i++) await planOnce(true);
const loadedPlans = [];
const loadedBares = [];
for (let i = 0; i < RUNS; i++) {
  loadedPlans.push(await planOnce(true));
  loadedBares.push(await bareOnce());
}
const loadedMs = median(loadedPlans.map((p) => p.ms));
const loadedBareMs = median(loadedBares);
await planClient.close();
const bareMs = median(bares);

// 2. plan of 100,000 records: peak RSS of a separate planning process
await seed('hundred.bench', 100_000);
const child = await new Promise((resolve, reject) => {
  execFile(
    process.execPath,
    [join(here, 'rss-child.js'), server.url, TOKEN, 'hundred.bench', ACCOUNT, '100000'],
    { maxBuffer: 1 << 20 },
    (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout))),
  );
});

// 3. apply of 1,000 creates
const desired1k = desiredState('apply.bench', ACCOUNT, 1000);
const log = [];
const client = new ApiClient({
  baseUrl: server.url,
  auth: { kind: 'token', token: TOKEN },
  log: (l) => log.push(l),
});
const live = await readLive(desired1k, kinds, client);
const plan1k = buildPlan(desired1k, live, kinds);
const before = log.length;
const t0 = performance.now();
const report = await applyPlan(plan1k, { client, kinds, desired: desired1k, live });
const applyMs = performance.now() - t0;
const batches = log.slice(before).filter((l) => /POST \S*\/batch/.test(l)).length;
await client.close();
if (!report.ok) throw new Error('apply failed: ' + JSON.stringify(report.failed.map((f) => f.error)));

await server.close();
rmSync(dir, { recursive: true, force: true });

const ok = (b) => (b ? 'ok' : '**over**');
const rows = [
  [
    `plan, 10,000 records, no changes: wall time (median of ${RUNS}, after ${WARMUP} warm-up runs)`,
    `${planMs.toFixed(0)} ms`,
    `${(bareMs * 1.5).toFixed(0)} ms (1.5 x bare fetch ${bareMs.toFixed(0)} ms)`,
    ok(planMs <= bareMs * 1.5),
  ],
  [
    'plan, 10,000 records, no changes: best of ' + RUNS,
    `${best(plans.map((p) => p.ms)).toFixed(0)} ms`,
    `${(best(bares) * 1.5).toFixed(0)} ms (1.5 x bare fetch ${best(bares).toFixed(0)} ms)`,
    ok(best(plans.map((p) => p.ms)) <= best(bares) * 1.5),
  ],
  [
    `plan, 10,000 records, no changes, the file read by the loader before each run: wall time (median of ${RUNS})`,
    `${loadedMs.toFixed(0)} ms`,
    `${(loadedBareMs * 1.5).toFixed(0)} ms (1.5 x bare fetch ${loadedBareMs.toFixed(0)} ms)`,
    ok(loadedMs <= loadedBareMs * 1.5),
  ],
  ['plan, 10,000 records: DNS list requests', String(plans[0].lists), '3', ok(plans[0].lists <= 3)],
  ['plan, 10,000 records: all requests', String(plans[0].requests), '-', ''],
  [
    'plan, 100,000 records: peak RSS of the planning process',
    `${child.rssMb.toFixed(0)} MB`,
    '400 MB',
    ok(child.rssMb < 400),
  ],
  ['plan, 100,000 records: wall time', `${child.ms.toFixed(0)} ms`, '-', ''],
  [
    'apply, 1,000 creates (paid zone): batch requests',
    String(batches),
    '1 (per 3,500 records)',
    ok(batches <= 1),
  ],
  ['apply, 1,000 creates: wall time, read-back included', `${applyMs.toFixed(0)} ms`, '-', ''],
];
console.log(`node ${process.version}, ${process.platform}/${process.arch}\n`);
console.log('| measure | value | limit | |');
console.log('|---|---|---|---|');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
