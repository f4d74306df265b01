#!/usr/bin/env node
// Requests per second of the local API (`zoneplan serve`, run as its own process) beside a bare
// node:http server returning responses of the same size, on a zone of 10,000 records.
// Usage: npm run build && node bench/server/run.js [--seconds 2] [--connections 16]
// Prints a markdown table. Client and servers are separate processes; numbers are per machine.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const SECONDS = opt('seconds', 2);
const CONNECTIONS = opt('connections', 16);
const RECORDS = opt('records', 10000);
const TOKEN = 'bench-token-0000000001';
const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'zoneplan-bench-'));

function startChild(cmd, argv, pattern) {
  const child = spawn(process.execPath, [cmd, ...argv], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = pattern.exec(out);
      if (m) resolve({ child, match: m });
    });
    child.on('exit', (code) => reject(new Error(`${cmd} exited with ${code}`)));
  });
}

async function call(pool, method, path, body) {
  const res = await pool.request({
    method,
    path,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`);
  return text;
}

/** CPU time (user + system) of a process in microseconds, from /proc; null where there is no /proc. */
function cpuMicros(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
  } catch {
    return null;
  }
}

/**
 * Runs `make()` requests from CONNECTIONS workers for SECONDS; returns requests per second and the
 * server's CPU microseconds per request. On a shared machine the rate swings with the neighbours'
 * load; CPU per request does not, so the ratio column is computed from it.
 */
async function rate(pool, make, seconds, pid) {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  const start = performance.now();
  const cpu0 = cpuMicros(pid);
  const workers = CONNECTIONS;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < end) {
        const { method, path, body } = make();
        await call(pool, method, path, body);
        done++;
      }
    }),
  );
  const cpu1 = cpuMicros(pid);
  return {
    rps: done / ((performance.now() - start) / 1000),
    cpu: cpu0 === null ? null : (cpu1 - cpu0) / done,
    done,
  };
}

async function bare(bytes) {
  const file = join(dir, `bare-${Math.random()}.json`);
  writeFileSync(file, bytes);
  const { child, match } = await startChild(join(root, 'bench/server/bare.js'), [file], /listening (\d+)/);
  const pool = new Pool(`http://127.0.0.1:${match[1]}`, { connections: CONNECTIONS });
  return { pool, pid: child.pid, stop: async () => (await pool.close(), child.kill('SIGTERM')) };
}

const fixtures = join(dir, 'fixtures.yaml');
writeFileSync(
  fixtures,
  `accounts: [{ name: bench }]\nzones: [{ name: bench.test, plan: enterprise }]\ntokens: [{ value: ${TOKEN} }]\n`,
);
const { child: server, match } = await startChild(
  join(root, 'bin/zoneplan.js'),
  ['serve', '--port', '0', '--db', join(dir, 'bench.db'), '--fixtures', fixtures, '--quiet'],
  /listening on (http:\/\/[^/]+)(\/client\/v4)/,
);
const pool = new Pool(match[1], { connections: CONNECTIONS });
const api = match[2];
try {
  const zone = JSON.parse(await call(pool, 'GET', `${api}/zones?name=bench.test`)).result[0].id;
  const recs = `${api}/zones/${zone}/dns_records`;
  for (let i = 0; i < RECORDS; i += 2500) {
    const posts = Array.from({ length: Math.min(2500, RECORDS - i) }, (_, j) => ({
      type: 'A',
      name: `h${i + j}`,
      content: `192.0.${((i + j) >> 8) & 255}.${(i + j) & 255}`,
    }));
    await call(pool, 'POST', `${recs}/batch`, { posts });
  }
  const one = JSON.parse(await call(pool, 'GET', `${recs}?per_page=1&name=h5000.bench.test`)).result[0].id;
  let n = 0;
  // settle after the seeding (JIT, garbage, WAL checkpoint) so the first case is not penalised
  await rate(pool, () => ({ method: 'GET', path: `${recs}/${one}` }), 1, server.pid);
  const cases = [
    ['GET one record', () => ({ method: 'GET', path: `${recs}/${one}` })],
    ['list 100', () => ({ method: 'GET', path: `${recs}?per_page=100&page=3` })],
    ['list 5,000', () => ({ method: 'GET', path: `${recs}?per_page=5000` })],
    [
      'POST one',
      () => ({ method: 'POST', path: recs, body: { type: 'TXT', name: `p${n++}`, content: 'bench' } }),
    ],
    [
      'batch of 1,000 posts',
      () => {
        const k = n++;
        return {
          method: 'POST',
          path: `${recs}/batch`,
          body: {
            posts: Array.from({ length: 1000 }, (_, j) => ({
              type: 'TXT',
              name: `b${k}-${j}`,
              content: 'bench',
            })),
          },
        };
      },
    ],
  ];
  const rows = [];
  for (const [label, make] of cases) {
    const sample = make();
    const bytes = await call(pool, sample.method, sample.path, sample.body);
    // alternate short rounds, so a neighbour's load on a shared machine hits both sides alike
    const ref = await bare(bytes);
    // warm both (JIT, caches, the garbage of the seeding) before measuring
    await rate(pool, make, 0.3, server.pid);
    await rate(ref.pool, make, 0.3, ref.pid);
    const ours = { rps: 0, cpu: 0, done: 0 };
    const theirs = { rps: 0, cpu: 0, done: 0 };
    for (let round = 0; round < 2; round++) {
      for (const [acc, p, pid] of [
        [ours, pool, server.pid],
        [theirs, ref.pool, ref.pid],
      ]) {
        const r = await rate(p, make, SECONDS / 2, pid);
        acc.rps += r.rps / 2;
        acc.cpu = r.cpu === null ? null : acc.cpu + r.cpu * r.done;
        acc.done += r.done;
      }
    }
    const cpuOurs = ours.cpu === null ? null : ours.cpu / ours.done;
    const cpuBare = theirs.cpu === null ? null : theirs.cpu / theirs.done;
    await ref.stop();
    const fmt = (v) => (v === null ? 'n/a' : v.toFixed(0));
    const ratio = cpuOurs && cpuBare ? `${((cpuBare / cpuOurs) * 100).toFixed(0)}%` : 'n/a';
    rows.push(
      `| ${label} | ${ours.rps.toFixed(0)} | ${theirs.rps.toFixed(0)} | ${fmt(cpuOurs)} | ${fmt(cpuBare)} | ${ratio} | ${bytes.length} |`,
    );
  }
  // one batch of 1,000 creates against one list of 1,000, sequentially: wall time and server CPU
  const timeIt = async (make, times) => {
    const t0 = performance.now();
    const c0 = cpuMicros(server.pid);
    for (let i = 0; i < times; i++) {
      const { method, path, body } = make();
      await call(pool, method, path, body);
    }
    const c1 = cpuMicros(server.pid);
    return { ms: (performance.now() - t0) / times, cpuMs: c0 === null ? null : (c1 - c0) / 1000 / times };
  };
  const batch = await timeIt(cases[4][1], 10);
  // a different page each time: a list the response cache has not seen
  let listPage = 0;
  const list = await timeIt(() => ({ method: 'GET', path: `${recs}?per_page=1000&page=${++listPage}` }), 20);
  const total = JSON.parse(await call(pool, 'GET', `${recs}?per_page=1`)).result_info.total_count;
  console.log(
    `Zone of ${RECORDS.toLocaleString('en')} records (${total.toLocaleString('en')} at the end); ${CONNECTIONS} connections, ${SECONDS}s per case; CPU from /proc.\n`,
  );
  console.log(
    '| request | zoneplan req/s | bare req/s | zoneplan CPU µs/req | bare CPU µs/req | bare/zoneplan CPU | response bytes |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) console.log(r);
  const cpuPart =
    batch.cpuMs === null
      ? ''
      : `; server CPU ${batch.cpuMs.toFixed(1)} ms vs ${list.cpuMs.toFixed(1)} ms (${(batch.cpuMs / list.cpuMs).toFixed(1)}x)`;
  console.log(
    `\nbatch of 1,000 creates vs one list of 1,000: ${batch.ms.toFixed(1)} ms vs ${list.ms.toFixed(1)} ms wall (${(batch.ms / list.ms).toFixed(1)}x)${cpuPart}; target < 10x`,
  );
} finally {
  await pool.close();
  server.kill('SIGTERM');
  await new Promise((r) => server.on('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
