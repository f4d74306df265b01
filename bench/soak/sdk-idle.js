#!/usr/bin/env node
// `zoneplan serve` kept busy by the official TypeScript SDK (npm `cloudflare`, pointed at the local
// API by its baseURL) for --minutes, in bursts with idle pauses between them: a process that
// aborts when garbage (prepared statements among it) is collected outside a request shows it in
// the pauses, when the collector runs with nothing else to do. The bursts create, list with
// varied filters (each combination is its own SQL text, so the store's statement cache fills,
// is dropped and becomes garbage), read, edit and delete DNS records from several clients at
// once. At the end the server must still be up, every answer must have been a success, and the
// zone must hold exactly the records the run left. Prints a table, one row a minute.
// Usage: npm run build && node bench/soak/sdk-idle.js [--minutes 5] [--seed 1] [--clients 6]
// The server listens on 127.0.0.1 only, on a free port, over a temporary SQLite file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Cloudflare from 'cloudflare';
import { requireBuild, startServe } from '../../test/support/processes.js';
import { rng } from '../../test/support/scenario.js';

const args = process.argv.slice(2);
const opt = (name, dflt) => Number(args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
// bounded: a mistyped --minutes must not keep a machine busy for a day
const MINUTES = Math.min(Math.max(opt('--minutes', 5), 0.1), 60);
const SEED = opt('--seed', 1);
const CLIENTS = Math.min(Math.max(opt('--clients', 6), 1), 32);
const BUSY_MS = 20_000;
const IDLE_MS = [3_000, 8_000, 15_000];
const TOKEN = 'sdk-idle-token-00000000001';
const ZONE = 'sdk-idle.example';

requireBuild();
// seeded: the same --seed makes the same requests
const random = rng(SEED);
const pick = (list) => list[Math.floor(random() * list.length)];

const dir = mkdtempSync(join(tmpdir(), 'zoneplan-sdk-idle-'));
writeFileSync(
  join(dir, 'fixtures.yaml'),
  JSON.stringify({
    accounts: [{ id: '0123456789abcdef0123456789abcdef', name: 'SDK' }],
    zones: [{ name: ZONE, account: 'SDK', status: 'active', plan: 'enterprise' }],
    tokens: [{ name: 'sdk', value: TOKEN, zones: 'all', accounts: 'all', permissions: 'edit' }],
  }),
);
const serve = await startServe({ db: join(dir, 'api.db'), fixtures: 'fixtures.yaml', cwd: dir });
if (!serve.url.startsWith('http://127.0.0.1:')) throw new Error(`not on loopback: ${serve.url}`);
let exited;
const watch = setInterval(() => {
  try {
    process.kill(serve.pid, 0);
  } catch {
    exited ??= `gone at ${new Date().toISOString()}`;
  }
}, 500);
const rssMb = () => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${serve.pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return NaN;
  }
};

const cf = new Cloudflare({ baseURL: serve.url, apiToken: TOKEN, maxRetries: 0 });
const zoneId = (await cf.zones.list({ name: ZONE })).result[0].id;
const live = new Map(); // id -> content: what the run has left in the zone
let serial = 0;

/** A list query of a random filter combination: the store prepares one statement per combination. */
function listFilter() {
  const f = { zone_id: zoneId, per_page: pick([5, 20, 50, 100]) };
  if (random() < 0.5) f.type = pick(['A', 'TXT', 'AAAA', 'CNAME']);
  if (random() < 0.4)
    f.name = { [pick(['contains', 'startswith', 'endswith'])]: `n${Math.floor(random() * 40)}` };
  if (random() < 0.3) f.content = { [pick(['contains', 'startswith'])]: String(Math.floor(random() * 200)) };
  if (random() < 0.2) f.comment = { present: '' };
  if (random() < 0.2) f.tag = { present: pick(['team', 'env']) };
  if (random() < 0.4) f.order = pick(['type', 'name', 'content', 'ttl', 'proxied']);
  if (random() < 0.3) f.direction = pick(['asc', 'desc']);
  if (random() < 0.3) f.match = pick(['any', 'all']);
  return f;
}

/** One SDK operation; returns its kind. */
async function operate() {
  const roll = random();
  if (roll < 0.3 || live.size < 50) {
    const n = serial++;
    const rec = await cf.dns.records.create({
      zone_id: zoneId,
      type: 'TXT',
      name: `n${n % 40}-${n}.${ZONE}`,
      content: `v${n}`,
      ttl: 1,
      comment: n % 3 === 0 ? 'sdk' : undefined,
      tags: n % 4 === 0 ? ['team:edge'] : undefined,
    });
    live.set(rec.id, rec.content);
    return 'create';
  }
  if (roll < 0.6) {
    let seen = 0;
    // the SDK's own page iterator, stopped after three pages
    for await (const _ of cf.dns.records.list(listFilter())) if (++seen >= 300) break;
    return 'list';
  }
  const ids = [...live.keys()];
  const id = pick(ids);
  // another client may have taken this one for its edit or delete: skip, no failure
  live.delete(id);
  if (roll < 0.75) {
    const rec = await cf.dns.records.get(id, { zone_id: zoneId });
    live.set(id, rec.content);
    return 'get';
  }
  if (roll < 0.9) {
    const content = `e${serial++}`;
    await cf.dns.records.edit(id, {
      zone_id: zoneId,
      type: 'TXT',
      name: `edited-${id.slice(0, 8)}.${ZONE}`,
      content,
    });
    live.set(id, content);
    return 'edit';
  }
  await cf.dns.records.delete(id, { zone_id: zoneId });
  return 'delete';
}

const rows = [];
let minute = { ops: 0, errors: 0, busyMs: 0, idleMs: 0 };
const started = performance.now();
const deadline = started + MINUTES * 60_000;
let nextRow = started + 60_000;
const failures = [];
const closeRow = () => {
  rows.push({ ...minute, rss: rssMb(), at: ((performance.now() - started) / 60_000).toFixed(1) });
  minute = { ops: 0, errors: 0, busyMs: 0, idleMs: 0 };
};
while (performance.now() < deadline && !exited) {
  const busyEnd = Math.min(deadline, performance.now() + BUSY_MS);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < busyEnd && !exited) {
        try {
          await operate();
          minute.ops++;
        } catch (err) {
          minute.errors++;
          if (failures.length < 5) failures.push(String(err?.message ?? err).slice(0, 200));
        }
      }
    }),
  );
  minute.busyMs += performance.now() - t0;
  const idle = Math.min(pick(IDLE_MS), Math.max(0, deadline - performance.now()));
  await new Promise((resolve) => setTimeout(resolve, idle));
  minute.idleMs += idle;
  if (performance.now() >= nextRow) {
    closeRow();
    nextRow += 60_000;
  }
}
if (minute.ops + minute.errors > 0) closeRow();
clearInterval(watch);

// the end state through the SDK: the zone holds exactly the records the run left
let stored = 0;
let upAtEnd = false;
let stateMatches = false;
if (!exited) {
  const contents = new Map();
  for await (const r of cf.dns.records.list({ zone_id: zoneId, per_page: 5000 }))
    contents.set(r.id, r.content);
  stored = contents.size;
  upAtEnd = true;
  stateMatches = contents.size === live.size && [...live].every(([id, c]) => contents.get(id) === c);
}
const result = exited ? await serve.kill() : await serve.stop();

console.log(
  `serve under the official SDK (cloudflare), ${CLIENTS} clients, busy ${BUSY_MS / 1000} s then idle ${IDLE_MS.map((ms) => ms / 1000).join('/')} s, ` +
    `${MINUTES} min, seed ${SEED}; node ${process.version}\n`,
);
console.log('| up to minute | SDK operations | failed | busy s | idle s | server RSS MB |');
console.log('|---:|---:|---:|---:|---:|---:|');
for (const r of rows)
  console.log(
    `| ${r.at} | ${r.ops} | ${r.errors} | ${(r.busyMs / 1000).toFixed(0)} | ${(r.idleMs / 1000).toFixed(0)} | ${r.rss.toFixed(0)} |`,
  );
const total = rows.reduce((a, r) => ({ ops: a.ops + r.ops, errors: a.errors + r.errors }), {
  ops: 0,
  errors: 0,
});
console.log(
  `\ntotal ${total.ops} operations, ${total.errors} failed; server ${exited ? `DIED (${exited})` : 'up to the end'}, ` +
    `stopped with ${result.code ?? result.signal}; zone holds ${stored} records, ${stateMatches ? 'exactly' : 'NOT'} the run's ${live.size}`,
);
for (const f of failures) console.log(`failure: ${f}`);
if (exited) console.log(serve.output().slice(-2000));
rmSync(dir, { recursive: true, force: true });
process.exitCode = !exited && upAtEnd && stateMatches && total.errors === 0 && result.code === 0 ? 0 : 1;
