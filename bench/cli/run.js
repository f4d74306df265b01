#!/usr/bin/env node
// The command as users run it: whole `zoneplan` child processes, timed side by side with their
// floor in the same run (docs/reference/design.md section 8). The floor is a fresh `node` that looks the zone up and fetches
// and parses the same DNS pages (bench/cli/floor.js), once with Node's fetch and once with node:http.
// Commands run interleaved (one of each per round, in a rotating order) after warm-up rounds, so a
// loaded machine slows every column alike; ratios are medians of the same run.
// Usage: npm run build && node bench/cli/run.js [--runs 9] [--no-rss] [--no-fleet] [--compare DIR]
// --compare DIR: another built checkout (e.g. the main branch): its plan and validate run in the same
// rounds, and the table gives its ratios beside these (a before/after from one run).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { stringify } from 'yaml';
import { record } from '../plan/records.js';
import { startServe } from '../../test/support/processes.js';

const args = process.argv.slice(2);
const RUNS = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 9;
const WARMUP = 2;
const here = fileURLToPath(new URL('.', import.meta.url));
const BIN = join(here, '../../bin/zoneplan.js');
const FLOOR = join(here, 'floor.js');
const COMPARE = args.includes('--compare')
  ? join(args[args.indexOf('--compare') + 1], 'bin/zoneplan.js')
  : undefined;
const PROBE = join(here, 'rss-probe.js');
const ACCOUNT = '0123456789abcdef0123456789abcdef';
const TOKEN = 'bench-token-0123456789abcdef';
const dir = mkdtempSync(join(tmpdir(), 'zoneplan-bench-cli-'));
const FLEET = args.includes('--no-fleet') ? [] : [1, 50, 500];
const fleetZones = Array.from({ length: Math.max(0, ...FLEET) }, (_, i) => `f${i}.fleet`);
const sized = { 'ten.cli': 10_000, 'fifteen.cli': 15, 'hundred.cli': 100_000 };
if (args.includes('--no-rss')) delete sized['hundred.cli'];

// --- the API, as its own process, as a remote API would be ---------------------------------------
const fixtures = join(dir, 'fixtures.yaml');
writeFileSync(
  fixtures,
  JSON.stringify({
    accounts: [{ id: ACCOUNT, name: 'bench' }],
    zones: [...Object.keys(sized), ...fleetZones].map((name) => ({ name, account: ACCOUNT, plan: 'pro' })),
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
/**
 * A desired file naming `zones`, each with exactly its live records: a plan with no changes. Block
 * style as `yaml` writes it; with `flow`, one flow mapping per record as `zoneplan export` writes
 * them (a 100,000-record zone in block style is over the 10 MiB limit of a desired-state file).
 */
function writeDesired(file, zones, flow = false) {
  const recordsFor = (name) =>
    Array.from({ length: recordsOf(name) }, (_, i) => {
      const { name: full, type, content, ttl, proxied } = record(i, name);
      return { name: full.slice(0, -(name.length + 1)), type, content, ttl, proxied };
    });
  if (flow) {
    const q = (s) => `'${s.replaceAll("'", "''")}'`;
    const lines = ['version: 1', 'zones:'];
    for (const name of zones) {
      lines.push(`  - name: ${name}`, `    account: '${ACCOUNT}'`, '    dns:', '      records:');
      for (const r of recordsFor(name))
        lines.push(
          `        - { name: ${r.name}, type: ${r.type}, content: ${q(r.content)}, ttl: ${r.ttl}, proxied: ${r.proxied} }`,
        );
    }
    writeFileSync(file, lines.join('\n') + '\n');
    return file;
  }
  const doc = {
    version: 1,
    zones: zones.map((name) => ({ name, account: ACCOUNT, dns: { records: recordsFor(name) } })),
  };
  writeFileSync(file, stringify(doc));
  return file;
}
const tenFile = writeDesired(join(dir, 'ten.yaml'), ['ten.cli']);
const fifteenFile = writeDesired(join(dir, 'fifteen.yaml'), ['fifteen.cli']);
// the embedded default keeps its store in .zoneplan/ beside the file: a directory of its own
mkdirSync(join(dir, 'embedded'));
const embeddedFile = writeDesired(join(dir, 'embedded', 'fifteen.yaml'), ['fifteen.cli']);

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
const commands = {
  plan10k: () => run(zp('plan', tenFile, '--api-url', url), apiEnv),
  floor10k: () => run([FLOOR, url, TOKEN, 'fetch', 'ten.cli'], baseEnv),
  floor10kHttp: () => run([FLOOR, url, TOKEN, 'http', 'ten.cli'], baseEnv),
  plan15: () => run(zp('plan', fifteenFile, '--api-url', url), apiEnv),
  floor15: () => run([FLOOR, url, TOKEN, 'fetch', 'fifteen.cli'], baseEnv),
  floor15Http: () => run([FLOOR, url, TOKEN, 'http', 'fifteen.cli'], baseEnv),
  plan15Embedded: () => run(zp('plan', embeddedFile), baseEnv),
  validate10k: () => run(zp('validate', tenFile), baseEnv),
};
if (COMPARE) {
  commands.plan10kCompare = () => run([COMPARE, 'plan', tenFile, '--api-url', url], apiEnv);
  commands.plan15Compare = () => run([COMPARE, 'plan', fifteenFile, '--api-url', url], apiEnv);
  commands.validate10kCompare = () => run([COMPARE, 'validate', tenFile], baseEnv);
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
  const hundredFile = writeDesired(join(dir, 'hundred.yaml'), ['hundred.cli'], true);
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
  const file = writeDesired(join(dir, `fleet-${n}.yaml`), fleetZones.slice(0, n));
  const r = await run(zp('plan', file, '--api-url', url, '--verbose'), apiEnv);
  const requests = countRequests(r.stderr);
  const printed = Number(/Read with (\d+) API request/.exec(r.stdout)?.[1] ?? NaN);
  if (printed !== requests)
    throw new Error(`fleet ${n}: the plan says ${printed} reads, the log shows ${requests}`);
  const before = COMPARE
    ? countRequests((await run([COMPARE, 'plan', file, '--api-url', url, '--verbose'], apiEnv)).stderr)
    : undefined;
  fleet.push({ zones: n, requests, before, floor: n + Math.min(n, Math.ceil(visibleZones / 50)) });
}

serve.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });

// --- the table ------------------------------------------------------------------------------------
const ms = (x) => `${x.toFixed(0)} ms`;
const verdict = (ok) => (ok ? 'ok' : '**over**');
const ratioRow = (label, value, floorLabel, floor, limit) => [
  label,
  ms(value),
  `${floorLabel} ${ms(floor)}`,
  `${(value / floor).toFixed(2)}x`,
  `${limit}x`,
  verdict(value / floor <= limit),
];
const rows = [
  ratioRow('plan, 10,000 records, no changes, `--api-url`', m.plan10k, 'node + bare fetch', m.floor10k, 1.5),
  [
    '(same floor over node:http)',
    '',
    ms(m.floor10kHttp),
    `${(m.plan10k / m.floor10kHttp).toFixed(2)}x`,
    '',
    '',
  ],
  ratioRow('plan, 15 records, `--api-url`', m.plan15, 'node + bare fetch', m.floor15, 1.3),
  ['(same floor over node:http)', '', ms(m.floor15Http), `${(m.plan15 / m.floor15Http).toFixed(2)}x`, '', ''],
  ratioRow(
    'plan, 15 records, embedded default',
    m.plan15Embedded,
    'the same plan, `--api-url`',
    m.plan15,
    1.3,
  ),
  ratioRow('validate, 10,000 records', m.validate10k, '10,000-record floor', m.floor10k, 1.2),
  ['plan, 15 records: exit after last output', ms(linger.plan15), `floor ${ms(linger.floor15)}`, '', '', ''],
];
if (COMPARE) {
  const x = (a, b) => `${(a / b).toFixed(2)}x`;
  rows.push(
    [
      '--compare: plan, 10,000 records',
      ms(m.plan10kCompare),
      `fetch ${x(m.plan10kCompare, m.floor10k)}, node:http ${x(m.plan10kCompare, m.floor10kHttp)}`,
      '',
      '',
      '',
    ],
    [
      '--compare: plan, 15 records',
      ms(m.plan15Compare),
      `fetch ${x(m.plan15Compare, m.floor15)}, node:http ${x(m.plan15Compare, m.floor15Http)}`,
      '',
      '',
      '',
    ],
    [
      '--compare: validate, 10,000 records',
      ms(m.validate10kCompare),
      `fetch ${x(m.validate10kCompare, m.floor10k)}`,
      '',
      '',
      '',
    ],
    ['--compare: plan, 15 records: exit after last output', ms(linger.plan15Compare), '', '', '', ''],
  );
}
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
console.log('| measure | zoneplan | floor | ratio | limit | |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
