#!/usr/bin/env node
// Speed of `zoneplan export` against the local API, beside the time of reading what it exports,
// both measured in the same run: a zone of 10,000 records (A, AAAA, TXT, CNAME), exported to YAML
// (DNS only, and every zone kind), against a bare undici fetch of its one DNS list request, with the
// DNS export's phases timed apart (read, exporter with validation, YAML).
// Usage: npm run build && node bench/export/run.js [--runs 5] [--records 10000]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../dist/client/index.js';
import { checkKindValue } from '../../dist/config/check-value.js';
import { VariableRegistry } from '../../dist/core/export/env-names.js';
import { runExport } from '../../dist/core/export/run.js';
import { writeYaml } from '../../dist/core/export/yaml-writer.js';
import { allKinds as registeredKinds } from '../../dist/kinds/index.js';
import { exportDns } from '../../dist/kinds/dns/export.js';
import { readDnsRecords } from '../../dist/kinds/dns/read.js';
import { apiCaller, startServe } from '../../test/support/processes.js';
import { record } from '../plan/records.js';

const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const RUNS = opt('--runs', 5);
const COUNT = opt('--records', 10_000);
const ACCOUNT = '0123456789abcdef0123456789abcdef';
const TOKEN = 'bench-export-token-0123456789abcdef';
const ZONE = 'export.bench';
const dir = mkdtempSync(join(tmpdir(), 'zoneplan-bench-export-'));
// The API runs in its own process (`zoneplan serve`), as a real one would: its CPU and garbage
// collection do not land in the export's figures.
const fixtures = join(dir, 'fixtures.yaml');
writeFileSync(
  fixtures,
  JSON.stringify({
    accounts: [{ id: ACCOUNT, name: 'bench' }],
    // Enterprise: 10,000 records are over the 3,500 a Business zone holds (batches of 3,500 either way)
    zones: [{ name: ZONE, account: ACCOUNT, plan: 'enterprise' }],
    tokens: [{ name: 'bench', value: TOKEN }],
  }),
);
const serve = await startServe({ db: join(dir, 'api.db'), fixtures, cwd: dir });
const server = { url: serve.url, close: () => serve.stop() };
const call = apiCaller(server.url, TOKEN);

const zoneId = (await call('GET', `/zones?name=${ZONE}`)).result[0].id;
for (let i = 0; i < COUNT; i += 3500) {
  const posts = [];
  for (let j = i; j < Math.min(COUNT, i + 3500); j++) posts.push(record(j, ZONE));
  await call('POST', `/zones/${zoneId}/dns_records/batch`, { posts });
}

async function exportOnce(kinds) {
  const log = [];
  const client = new ApiClient({
    baseUrl: server.url,
    auth: { kind: 'token', token: TOKEN },
    log: (l) => log.push(l),
  });
  const t0 = performance.now();
  const out = await runExport({
    registry: registeredKinds(),
    check: checkKindValue,
    schemaRef: 'bench',
    client,
    zones: [ZONE],
    accounts: [],
    kinds,
    source: 'bench',
    now: new Date(),
  });
  const ms = performance.now() - t0;
  await client.close();
  const records = out.counts.get('dns')?.records ?? 0;
  if (records !== COUNT) throw new Error(`exported ${records} records, expected ${COUNT}`);
  return {
    ms,
    bytes: out.text.length,
    lists: log.filter((l) => /dns_records/.test(l)).length,
    requests: log.length,
  };
}

async function readOnce() {
  const t0 = performance.now();
  const env = await call('GET', `/zones/${zoneId}/dns_records?per_page=5000000&page=1`);
  if (env.result.length < COUNT) throw new Error('bare fetch is short');
  return performance.now() - t0;
}

/** The phases of the DNS export, timed one by one: the kind's read, the exporter, the YAML. */
async function phasesOnce() {
  const client = new ApiClient({ baseUrl: server.url, auth: { kind: 'token', token: TOKEN } });
  const t0 = performance.now();
  const live = await readDnsRecords(client, zoneId, ZONE);
  const t1 = performance.now();
  const owner = { scope: 'zone', name: ZONE, id: zoneId };
  const ctx = {
    owner,
    variables: new VariableRegistry(),
    check: (value) => checkKindValue('zone', { name: ZONE }, 'dns', value),
  };
  const result = exportDns(live, ctx);
  const t2 = performance.now();
  const hints = result.layout.map((h) => ({ ...h, path: ['zones', 0, 'dns', ...h.path] }));
  writeYaml({ version: 1, zones: [{ name: ZONE, dns: result.value }] }, hints, 'bench');
  const t3 = performance.now();
  await client.close();
  return { read: t1 - t0, exporter: t2 - t1, yaml: t3 - t2 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
await exportOnce(['dns']);
await exportOnce(undefined);
await readOnce(); // warm every path
await phasesOnce();
const phases = [];
const dnsOnly = [];
const allKinds = [];
const reads = [];
for (let i = 0; i < RUNS; i++) {
  reads.push(await readOnce());
  dnsOnly.push(await exportOnce(['dns']));
  allKinds.push(await exportOnce(undefined));
  phases.push(await phasesOnce());
}
await server.close();
rmSync(dir, { recursive: true, force: true });

const readMs = median(reads);
const dnsMs = median(dnsOnly.map((r) => r.ms));
const allMs = median(allKinds.map((r) => r.ms));
const n = COUNT.toLocaleString('en-US');
const phase = (k) => median(phases.map((p) => p[k]));
const times = (ms) => `${ms.toFixed(0)} ms (${(ms / readMs).toFixed(1)} x read)`;
const rows = [
  [`read: one DNS list request of ${n} records (bare fetch)`, `${readMs.toFixed(0)} ms`],
  ['export --kinds dns, to YAML, end to end', times(dnsMs)],
  ["  phase: the DNS kind's read (client, JSON, normalisation)", times(phase('read'))],
  ['  phase: exporter, every record validated as `zoneplan validate` would', times(phase('exporter'))],
  ['  phase: YAML rendering', times(phase('yaml'))],
  ['export, every zone kind (dns, page_shield, logpush, waf)', times(allMs)],
  ['export --kinds dns: DNS list requests / all requests', `${dnsOnly[0].lists} / ${dnsOnly[0].requests}`],
  ['size of the YAML', `${(dnsOnly[0].bytes / 1024).toFixed(0)} KiB`],
];
console.log(`node ${process.version}, ${process.platform}/${process.arch}\n`);
console.log(
  `${n} records, median of ${RUNS} runs each, local API (zoneplan serve) in another process on loopback\n`,
);
console.log('| measure | value |');
console.log('|---|---|');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
