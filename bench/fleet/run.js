#!/usr/bin/env node
// A fleet of zones, as the API's budget sees it: the requests of whole `zoneplan plan`, `drift` and
// `apply` processes beside their floor computed from the files, for fleets of 1, 50 and 500 zones of
// 20 records, with DNS only and with DNS + Page Shield + Logpush; then the time of plan, drift and
// apply over 300 zones against `zoneplan serve --faults latency=100ms` beside the time their requests
// need at the client's concurrency (requests x latency / 8).
// Usage: npm run build && node bench/fleet/run.js [--sizes 1,50,500] [--timed 300] [--latency 100]
//        [--runs 3]     (--timed 0 leaves the timed rows out)
//
// The floor, from the files: the zones found through the zone list, 50 a page (a lookup by name
// each below 3 zones; each fleet is an account of its own, so the list holds just its zones), then
// per zone one DNS list, and with the other kinds one Page Shield settings read (the file names no
// `policies`: they are not managed and need no read) and one Logpush job list. apply adds one DNS
// batch per zone (one record changed in each) and no read-back read: the batch's answer tells
// the zone's records.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { record } from '../plan/records.js';
import { startServe } from '../../test/support/processes.js';

const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const SIZES = opt('--sizes', '1,50,500').split(',').map(Number);
const TIMED = Number(opt('--timed', '300'));
const LATENCY_MS = Number(opt('--latency', '100'));
const RUNS = Number(opt('--runs', '3'));
const RECORDS = 20;
const CONCURRENCY = 8; // the client's default cap on requests in flight
const TIME_LIMIT = 1.3;
const here = fileURLToPath(new URL('.', import.meta.url));
const BIN = join(here, '../../bin/zoneplan.js');
const FLOOR = join(here, 'floor.js');
const TOKEN = 'bench-fleet-token-0123456789abcdef';
const dir = mkdtempSync(join(tmpdir(), 'zoneplan-bench-fleet-'));
const accountOf = (n) => String(n).padStart(32, '0');
const zonesOf = (n) => Array.from({ length: n }, (_, i) => `f${i}.fleet${n}`);

// --- the API, as its own process -------------------------------------------------------------------
/** A fixtures file of these fleets, each in an account of its own, every zone with its 20 records. */
function writeFixtures(file, sizes) {
  const zones = [];
  for (const n of sizes)
    for (const name of zonesOf(n))
      zones.push({
        name,
        account: accountOf(n),
        records: Array.from({ length: RECORDS }, (_, i) => record(i, name)),
      });
  writeFileSync(
    file,
    JSON.stringify({
      accounts: sizes.map((n) => ({ id: accountOf(n), name: `fleet of ${n}` })),
      zones,
      tokens: [{ name: 'bench', value: TOKEN }],
    }),
  );
  return file;
}

// --- the desired files -----------------------------------------------------------------------------
/**
 * Every zone of the fleet of `n` with its live records; `variant` 1 changes the first record (an A)
 * of each zone, so alternating applies change one record per zone each time. `pageShield`: with
 * `page_shield: {enabled: false}`; `logpush`: with one job.
 */
function writeDesired(file, n, { pageShield = false, logpush = false, variant = 0 } = {}) {
  const lines = ['version: 1', 'zones:'];
  for (const zone of zonesOf(n)) {
    lines.push(`  - name: ${zone}`, `    account: '${accountOf(n)}'`, '    dns:', '      records:');
    for (let i = 0; i < RECORDS; i++) {
      const r = record(i, zone);
      const content = i === 0 && variant === 1 ? '198.51.100.201' : r.content;
      const name = r.name.slice(0, -(zone.length + 1));
      lines.push(
        `        - { name: ${name}, type: ${r.type}, content: '${content}', ttl: ${r.ttl}, proxied: false }`,
      );
    }
    if (pageShield) lines.push('    page_shield: { enabled: false }');
    if (logpush)
      lines.push(
        '    logpush:',
        '      jobs:',
        '        - { name: to-collector, dataset: http_requests, destination_conf: "https://collector.logs.example/ingest" }',
      );
  }
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/** The floor of one command over `n` zones (see the file comment). */
function floorOf(command, n, others) {
  const zones = n < 3 ? n : Math.ceil(n / 50);
  const reads = zones + n * (others ? 3 : 1);
  return command === 'apply' ? reads + n : reads;
}

// --- running a command -----------------------------------------------------------------------------
const env = { PATH: process.env.PATH, NO_COLOR: '1', CLOUDFLARE_API_TOKEN: TOKEN };

/** Runs one whole `zoneplan` process: wall time, stdout, stderr. */
function run(argv) {
  return runNode([BIN, ...argv]);
}

/** Runs one `node` process to its exit: wall time, stdout, stderr. */
function runNode(argv) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let stdout = '';
    let stderr = '';
    const child = spawn(process.execPath, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`${argv.join(' ')} exited ${code}:\n${stderr}${stdout}`));
      else resolve({ ms: performance.now() - t0, stdout, stderr });
    });
  });
}

/** The requests the command says it made (`Read with N API requests.`, `API requests: N (...)`). */
function printedRequests(command, r) {
  const m =
    command === 'apply'
      ? /API requests: (\d+) \(/.exec(r.stdout)
      : /Read with (\d+) API request/.exec(r.stdout);
  if (!m) throw new Error(`${command}: no request count in its output:\n${r.stdout}`);
  return Number(m[1]);
}

/** The requests the command printed, checked against its --verbose log (one line per request). */
function requestsOf(command, r) {
  const printed = printedRequests(command, r);
  const logged = r.stderr.split('\n').filter((l) => /^(GET|POST|PUT|PATCH|DELETE) \//.test(l)).length;
  if (printed !== logged)
    throw new Error(`${command}: printed ${printed} requests, the --verbose log shows ${logged}`);
  return logged;
}

/**
 * `budget`: the counted runs lift the client's request budget (1,200 per 300 s) against this
 * local API, so a 500-zone run does not wait minutes for it; the count is the same.
 */
const commandArgs = (command, file, url, budget = true) => [
  command,
  file,
  '--api-url',
  url,
  ...(command === 'apply' ? ['--auto-approve'] : []),
  ...(budget ? ['--rate-limit', '100000/1'] : []),
];

// --- requests beside the floor ---------------------------------------------------------------------
const counted = [];
{
  const serve = await startServe({
    db: join(dir, 'count.db'),
    fixtures: writeFixtures(join(dir, 'count-fixtures.json'), SIZES),
    cwd: dir,
  });
  try {
    for (const others of [false, true]) {
      for (const n of SIZES) {
        const base = join(dir, `fleet-${n}-${others ? 'all' : 'dns'}`);
        const kinds = { pageShield: others, logpush: others };
        const same = writeDesired(`${base}-0.yaml`, n, kinds);
        const changed = writeDesired(`${base}-1.yaml`, n, { ...kinds, variant: 1 });
        // the Logpush jobs are created first, and the records put back, so plan and drift change nothing
        if (others) await run(commandArgs('apply', same, serve.url));
        for (const [command, file] of [
          ['plan', same],
          ['drift', same],
          ['apply', changed],
        ]) {
          const r = await run([...commandArgs(command, file, serve.url), '--verbose']);
          counted.push({
            command,
            n,
            others,
            requests: requestsOf(command, r),
            floor: floorOf(command, n, others),
          });
        }
        await run(commandArgs('apply', same, serve.url));
      }
    }
  } finally {
    await serve.stop();
  }
}

// --- time over a fleet, against a slow API ---------------------------------------------------------
const timed = [];
if (TIMED > 0) {
  const serve = await startServe({
    db: join(dir, 'timed.db'),
    fixtures: writeFixtures(join(dir, 'timed-fixtures.json'), [TIMED]),
    faults: `latency=${LATENCY_MS}ms`,
    cwd: dir,
  });
  try {
    // Page Shield off, as in the measured production fleet: one settings read more per zone
    const files = [0, 1].map((variant) =>
      writeDesired(join(dir, `timed-${variant}.yaml`), TIMED, { variant, pageShield: true }),
    );
    const samples = { plan: [], drift: [], apply: [], floor: [] };
    let variant = 0;
    for (let i = 0; i < RUNS; i++) {
      const f = await runNode([FLOOR, serve.url, TOKEN, accountOf(TIMED), 'ps']);
      samples.floor.push({ ms: f.ms, requests: Number(f.stdout) });
      for (const command of ['plan', 'drift']) {
        const r = await run(commandArgs(command, files[variant], serve.url, false));
        samples[command].push({ ms: r.ms, requests: printedRequests(command, r) });
      }
      variant = 1 - variant;
      const r = await run(commandArgs('apply', files[variant], serve.url, false));
      samples.apply.push({ ms: r.ms, requests: printedRequests('apply', r) });
    }
    const median = (list) => [...list].sort((a, b) => a.ms - b.ms)[Math.floor(list.length / 2)];
    const floor = median(samples.floor);
    for (const command of ['plan', 'drift', 'apply']) {
      const m = median(samples[command]);
      timed.push({ command, ...m, ideal: (m.requests * LATENCY_MS) / CONCURRENCY, floorMs: floor.ms });
    }
    timed.floor = floor;
  } finally {
    await serve.stop();
  }
}
rmSync(dir, { recursive: true, force: true });

// --- the tables ------------------------------------------------------------------------------------
const cpu = cpus()[0]?.model?.trim() ?? 'unknown CPU';
console.log(
  `node ${process.version}, ${process.platform}/${process.arch}, ${availableParallelism()} cores (${cpu})\n`,
);
console.log(`Requests of whole runs beside the floor from the files (zones of ${RECORDS} records)\n`);
console.log('| command | zones | kinds | requests | floor | ratio | |');
console.log('|---|---|---|---|---|---|---|');
for (const c of counted)
  console.log(
    `| ${c.command}${c.command === 'apply' ? ' (1 record changed per zone)' : ''} | ${c.n} | ` +
      `${c.others ? 'DNS + Page Shield + Logpush' : 'DNS'} | ${c.requests} | ${c.floor} | ` +
      `${(c.requests / c.floor).toFixed(2)}x | ${c.requests <= c.floor ? 'ok' : '**over**'} |`,
  );
if (timed.length > 0) {
  console.log(
    `\nTime of whole runs over ${TIMED} zones (DNS + \`page_shield: {enabled: false}\`), ` +
      `\`zoneplan serve --faults latency=${LATENCY_MS}ms\`, medians of ${RUNS}; the measured floor is a ` +
      `bare node + undici sending the plan's ${timed.floor.requests} requests, ${CONCURRENCY} in flight ` +
      `(bench/fleet/floor.js): ${(timed.floor.ms / 1000).toFixed(1)} s\n`,
  );
  console.log(
    `| command | time | requests | requests x ${LATENCY_MS} ms / ${CONCURRENCY} | ratio | limit | | ` +
      `plan's requests, bare client (ratio to the same ideal) |`,
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const t of timed) {
    const ratio = t.ms / t.ideal;
    const floorRatio =
      t.command === 'apply'
        ? ''
        : `${(t.floorMs / 1000).toFixed(1)} s (${(t.floorMs / t.ideal).toFixed(2)}x)`;
    console.log(
      `| ${t.command} | ${(t.ms / 1000).toFixed(1)} s | ${t.requests} | ${(t.ideal / 1000).toFixed(1)} s | ` +
        `${ratio.toFixed(2)}x | ${TIME_LIMIT}x | ${ratio <= TIME_LIMIT ? 'ok' : '**over**'} | ${floorRatio} |`,
    );
  }
}
