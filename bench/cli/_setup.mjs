#!/usr/bin/env node
// The command as users run it: whole `zoneplan` child processes, timed side by side with their
// floor in the same run (DESIGN 8). The floor is a fresh `node` that looks the zone up and fetches
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
const tenFile = writeDesired('/tmp/prof/ten.yaml', ['ten.cli']);
writeDesired('/tmp/prof/fifteen.yaml', ['fifteen.cli']);
writeFileSync('/tmp/prof/url', url);
console.log(url, dir);
await new Promise(() => {});
