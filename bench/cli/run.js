#!/usr/bin/env node
// The command as users run it: whole `zoneplan` child processes, timed side by side with their
// floor in the same run (docs/reference/design.md section 8). The floor is a fresh `node` that looks the zone up and fetches
// and parses the same DNS pages (bench/cli/floor.js), once with Node's fetch and once with node:http.
// Commands run interleaved (one of each per round, in a rotating order) after warm-up rounds, so a
// loaded machine slows every column alike; ratios are medians of the same run.
// Every ratio's reference is the node:http floor; the fetch floor is a second column.
// Usage: npm run build && node bench/cli/run.js [--runs 9] [--no-rss] [--no-fleet] [--only LIST]
//   [--compare DIR]...
// --compare DIR (may be given several times): another built checkout (e.g. the main branch, or a
// build without one speed mechanism from bench/cli/without.js): its commands run in the same
// rounds, and the table gives its medians beside these (a before/after from one run).
// --only LIST: the commands to time, comma-separated (plan10k, plan15, plan15Embedded, validate10k,
// validate10kJson, anchors), with their floors (plan10k's include the floor that reads the file too); no RSS or fleet rows unless `rss` or `fleet` is named.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { basename, resolve } from 'node:path';
import { record } from '../plan/records.js';
import { writeDesired } from './desired.js';
import { startServe } from '../../test/support/processes.js';

const args = process.argv.slice(2);
const RUNS = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 9;
const WARMUP = 2;
const here = fileURLToPath(new URL('.', import.meta.url));
const BIN = join(here, '../../bin/zoneplan.js');
const FLOOR = join(here, 'floor.js');
/** each --compare DIR: its bin and its label (the directory's name) */
const COMPARE = args.flatMap((a, i) =>
  a === '--compare'
    ? [{ bin: join(resolve(args[i + 1]), 'bin/zoneplan.js'), label: basename(resolve(args[i + 1])) }]
    : [],
);
const ONLY = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : undefined;
const wanted = (name) => !ONLY || ONLY.includes(name);
const PROBE = join(here, 'rss-probe.js');
const ACCOUNT = '0123456789abcdef0123456789abcdef';
const TOKEN = 'bench-token-0123456789abcdef';
const dir = mkdtempSync(join(tmpdir(), 'zoneplan-bench-cli-'));
const FLEET = args.includes('--no-fleet') || !wanted('fleet') ? [] : [1, 50, 500];
const fleetZones = Array.from({ length: Math.max(0, ...FLEET) }, (_, i) => `f${i}.fleet`);
const sized = { 'ten.cli': 10_000, 'fifteen.cli': 15, 'hundred.cli': 100_000 };
if (args.includes('--no-rss') || !wanted('rss')) delete sized['hundred.cli'];

// --- the API, as its own process, as a remote API would be ---------------------------------------
const fixtures = join(dir, 'fixtures.yaml');
writeFileSync(
  fixtures,
  JSON.stringify({
    accounts: [{ id: ACCOUNT, name: 'bench' }],
    zones: [...Object.keys(sized), ...fleetZones].map((name) => ({
      name,
      account: ACCOUNT,
      plan: 'enterprise',
    })),
    tokens: [{ name: 'bench', value: TOKEN }],
  }),
);
// `zoneplan serve` as its own process, the way the soak and the tests start it
const serve = await startServe({ db: join(dir, 'api.db'), fixtures, cwd: dir });
process.on('exit', () => void serve.kill('SIGTERM'));
const url = serve.url;
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
async function call(method, path, body) {
  const res = await request(url + path, { method, headers, body: body && JSON.stringify(body) });
  const env = await res.body.json();
  if (!env.success) throw new Error(`${method} ${path}: ${JSON.stringify(env.errors)}`);
  return env;
}

// --- seed the zones and write their desired files -------------------------------------------------
const fleetRecords = 20;
const recordsOf = (zone) => sized[zone] ?? fleetRecords;
for (const zone of [...Object.keys(sized), ...fleetZones]) {
  const id = (await call('GET', `/zones?name=${zone}`)).result[0].id;
  const count = recordsOf(zone);
  for (let i = 0; i < count; i += 3500) {
    const posts = [];
    for (let j = i; j < Math.min(count, i + 3500); j++) posts.push(record(j, zone));
    await call('POST', `/zones/${id}/dns_records/batch`, { posts });
  }
}
const desired = (file, zones, layout) =>
  writeDesired(file, ACCOUNT, Object.fromEntries(zones.map((z) => [z, recordsOf(z)])), layout);
const tenFile = desired(join(dir, 'ten.yaml'), ['ten.cli']);
const tenJson = desired(join(dir, 'ten.json'), ['ten.cli'], 'json');
const tenAnchors = desired(join(dir, 'ten-anchors.yaml'), ['ten.cli'], 'anchors');
const tenExpanded = desired(join(dir, 'ten-expanded.yaml'), ['ten.cli'], 'expanded');
const fifteenFile = desired(join(dir, 'fifteen.yaml'), ['fifteen.cli']);
// the embedded default keeps its store in .zoneplan/ beside the file: a directory of its own
mkdirSync(join(dir, 'embedded'));
const embeddedFile = desired(join(dir, 'embedded', 'fifteen.yaml'), ['fifteen.cli']);

// --- running a command ----------------------------------------------------------------------------
const baseEnv = { ...process.env, NO_COLOR: '1' };
for (const k of [
  'CI',
  'CLOUDFLARE_API_TOKEN',
  'CLOUDFLARE_EMAIL',
  'CLOUDFLARE_API_KEY',
  'CLOUDFLARE_BASE_URL',
])
  delete baseEnv[k];
const apiEnv = { ...baseEnv, CLOUDFLARE_API_TOKEN: TOKEN };

/** Runs one child to its exit: wall time, time of its last output, stdout and stderr. */
function run(argv, env, expect = [0]) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let last = t0;
    let stderr = '';
    let stdout = '';
    const child = spawn(process.execPath, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => ((last = performance.now()), (stdout += d)));
    child.stderr.on('data', (d) => ((last = performance.now()), (stderr += d)));
    child.on('error', reject);
    child.on('exit', (code) => {
      const end = performance.now();
      if (!expect.includes(code)) reject(new Error(`${argv.join(' ')} exited ${code}:\n${stderr}`));
      else resolve({ ms: end - t0, lingerMs: end - last, stdout, stderr });
    });
  });
}
const zp = (...a) => [BIN, ...a];
/** The commands timed, each run by a given build's bin (this checkout's, or a --compare one's). */
const measured = {
  plan10k: (bin) => run([bin, 'plan', tenFile, '--api-url', url], apiEnv),
  plan15: (bin) => run([bin, 'plan', fifteenFile, '--api-url', url], apiEnv),
  plan15Embedded: (bin) => run([bin, 'plan', embeddedFile], baseEnv),
  validate10k: (bin) => run([bin, 'validate', tenFile], baseEnv),
  validate10kJson: (bin) => run([bin, 'validate', tenJson], baseEnv),
  validate10kAnchors: (bin) => run([bin, 'validate', tenAnchors], baseEnv),
  validate10kExpanded: (bin) => run([bin, 'validate', tenExpanded], baseEnv),
};
/** What --only names: the measured commands of each name, and the floors their rows divide by. */
const selectable = {
  plan10k: { measured: ['plan10k'], floors: ['floor10kHttp', 'floor10k', 'floor10kRead'] },
  plan15: { measured: ['plan15'], floors: ['floor15Http', 'floor15'] },
  plan15Embedded: { measured: ['plan15Embedded', 'plan15'], floors: ['floor15Http', 'floor15'] },
  validate10k: { measured: ['validate10k'], floors: ['floor10kHttp', 'floor10k'] },
  validate10kJson: { measured: ['validate10kJson'], floors: ['floor10kHttp', 'floor10k'] },
  anchors: { measured: ['validate10kAnchors', 'validate10kExpanded'], floors: [] },
};
const floors = {
  floor10kHttp: () => run([FLOOR, url, TOKEN, 'http', 'ten.cli'], baseEnv),
  floor10k: () => run([FLOOR, url, TOKEN, 'fetch', 'ten.cli'], baseEnv),
  // the floor that also reads and parses the file: the least a plan of it can take (bench/cli/floor.js)
  floor10kRead: () => run([FLOOR, url, TOKEN, 'http', 'ten.cli', '--read', tenFile], baseEnv),
  floor15Http: () => run([FLOOR, url, TOKEN, 'http', 'fifteen.cli'], baseEnv),
  floor15: () => run([FLOOR, url, TOKEN, 'fetch', 'fifteen.cli'], baseEnv),
};
const commands = {};
for (const [name, { measured: own, floors: theirs }] of Object.entries(selectable)) {
  if (!wanted(name)) continue;
  for (const f of theirs) commands[f] = floors[f];
  for (const c of own) {
    commands[c] = () => measured[c](BIN);
    for (const { bin, label } of COMPARE) commands[`${c}@${label}`] = () => measured[c](bin);
  }
}

// the embedded store starts empty: one apply makes its plan a no-change plan like the others
await run(zp('apply', embeddedFile, '--auto-approve', '--local'), baseEnv, [0]).catch(() =>
  run(zp('apply', embeddedFile, '--auto-approve'), baseEnv),
);

const times = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
const lingers = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
const names = Object.keys(commands);
for (let round = 0; round < WARMUP + RUNS; round++) {
  // rotate the order each round, so no command always runs right after the same neighbour
  const order = names.map((_, i) => names[(i + round) % names.length]);
  for (const name of order) {
    const r = await commands[name]();
    if (round >= WARMUP) {
      times[name].push(r.ms);
      lingers[name].push(r.lingerMs);
    }
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const m = Object.fromEntries(names.map((k) => [k, median(times[k])]));
const linger = Object.fromEntries(names.map((k) => [k, median(lingers[k])]));

// --- peak RSS of a 100,000-record plan, file loading included, three whole runs --------------------
const rss = [];
if (sized['hundred.cli']) {
  const hundredFile = desired(join(dir, 'hundred.yaml'), ['hundred.cli'], 'flow');
  const rssFile = join(dir, 'rss');
  for (let i = 0; i < 3; i++) {
    await run(['--import', PROBE, BIN, 'plan', hundredFile, '--api-url', url], {
      ...apiEnv,
      ZONEPLAN_BENCH_RSS_FILE: rssFile,
    });
    rss.push(Number(readFileSync(rssFile, 'utf8')) / 1024);
  }
}

// --- read requests per zone at fleet scale --------------------------------------------------------
// Counted from the --verbose log (one line per request) and checked against the count the plan
// prints ("Read with N API requests."). The floor is one DNS list per zone plus the cheaper of one
// lookup per zone and the zone list the token sees, in pages of 50.
const visibleZones = Object.keys(sized).length + fleetZones.length;
const fleet = [];
const countRequests = (stderr) =>
  stderr.split('\n').filter((l) => /^(GET|POST|PUT|PATCH|DELETE) \//.test(l)).length;
for (const n of FLEET) {
  const file = desired(join(dir, `fleet-${n}.yaml`), fleetZones.slice(0, n));
  const r = await run(zp('plan', file, '--api-url', url, '--verbose'), apiEnv);
  const requests = countRequests(r.stderr);
  const printed = Number(/Read with (\d+) API request/.exec(r.stdout)?.[1] ?? NaN);
  if (printed !== requests)
    throw new Error(`fleet ${n}: the plan says ${printed} reads, the log shows ${requests}`);
  // the first --compare build's count beside this one's
  const before = COMPARE[0]
    ? countRequests((await run([COMPARE[0].bin, 'plan', file, '--api-url', url, '--verbose'], apiEnv)).stderr)
    : undefined;
  fleet.push({ zones: n, requests, before, floor: n + Math.min(n, Math.ceil(visibleZones / 50)) });
}

// the API writes its store as it stops: the directory goes once it has exited
await serve.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });

// --- the table ------------------------------------------------------------------------------------
const ms = (x) => `${x.toFixed(0)} ms`;
const x = (a, b) => `${(a / b).toFixed(2)}x`;
const verdict = (ok) => (ok ? 'ok' : '**over**');
/** A row whose ratio is to the node:http floor (`http`), with the fetch floor's beside it. */
const floorRow = (label, value, http, fetch, limit) => [
  label,
  ms(value),
  `${ms(http)} (fetch: ${ms(fetch)}, ${x(value, fetch)})`,
  x(value, http),
  `${limit}x`,
  verdict(value / http <= limit),
];
const rows = [];
if (m.plan10k !== undefined)
  rows.push(
    floorRow('plan, 10,000 records, no changes, `--api-url`', m.plan10k, m.floor10kHttp, m.floor10k, 1.5),
  );
if (m.floor10kRead !== undefined)
  rows.push([
    'the 10,000-record floor reading the file too (no checks, no planning)',
    ms(m.floor10kRead),
    ms(m.floor10kHttp),
    x(m.floor10kRead, m.floor10kHttp),
    '',
    'the least a plan of this file can take',
  ]);
if (m.plan15 !== undefined)
  rows.push(floorRow('plan, 15 records, `--api-url`', m.plan15, m.floor15Http, m.floor15, 1.3));
if (m.plan15Embedded !== undefined)
  rows.push([
    'plan, 15 records, embedded default',
    ms(m.plan15Embedded),
    `the same plan, \`--api-url\` ${ms(m.plan15)}`,
    x(m.plan15Embedded, m.plan15),
    '1.3x',
    verdict(m.plan15Embedded / m.plan15 <= 1.3),
  ]);
if (m.validate10k !== undefined)
  rows.push(floorRow('validate, 10,000 records', m.validate10k, m.floor10kHttp, m.floor10k, 1.2));
if (m.validate10kJson !== undefined)
  rows.push(
    floorRow('validate, 10,000 records, JSON syntax', m.validate10kJson, m.floor10kHttp, m.floor10k, 1.2),
  );
if (m.validate10kAnchors !== undefined)
  rows.push([
    'validate, 10,000 records with anchors and aliases',
    ms(m.validate10kAnchors),
    `the same file expanded ${ms(m.validate10kExpanded)}`,
    x(m.validate10kAnchors, m.validate10kExpanded),
    '1.5x',
    verdict(m.validate10kAnchors / m.validate10kExpanded <= 1.5),
  ]);
if (m.plan15 !== undefined)
  rows.push([
    'plan, 15 records: exit after last output',
    ms(linger.plan15),
    `floor ${ms(linger.floor15Http)}`,
    '',
    '',
    '',
  ]);
// each --compare build's medians beside this one's, in the same rounds: the gain is how much longer
// the command takes there
for (const { label } of COMPARE)
  for (const c of Object.keys(measured))
    if (m[`${c}@${label}`] !== undefined)
      rows.push([
        `--compare ${label}: ${c}`,
        ms(m[`${c}@${label}`]),
        `this build ${ms(m[c])}`,
        x(m[`${c}@${label}`], m[c]),
        '',
        `${(((m[`${c}@${label}`] - m[c]) / m[c]) * 100).toFixed(1)}% longer there`,
      ]);
if (rss.length > 0)
  rows.push([
    'plan, 100,000 records, whole process: peak RSS (3 runs)',
    rss.map((x) => `${x.toFixed(0)} MB`).join(', '),
    '-',
    '',
    '400 MB',
    verdict(rss.every((x) => x < 400)),
  ]);
const perZone = (requests, zones) => `${(requests / zones).toFixed(2)} per zone`;
for (const f of fleet)
  rows.push([
    `plan, ${f.zones} zone${f.zones > 1 ? 's' : ''} of ${fleetRecords} records (token sees ${visibleZones}): read requests` +
      (f.before === undefined ? '' : ` (--compare: ${f.before}, ${perZone(f.before, f.zones)})`),
    `${f.requests} (${perZone(f.requests, f.zones)})`,
    `${f.floor} (${perZone(f.floor, f.zones)})`,
    `${(f.requests / f.floor).toFixed(2)}x`,
    '1x',
    verdict(f.requests <= f.floor),
  ]);
console.log(
  `node ${process.version}, ${process.platform}/${process.arch}; medians of ${RUNS} interleaved runs after ${WARMUP} warm-up rounds\n`,
);
console.log('| measure | zoneplan | floor: node:http (fetch) | ratio | limit | |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
