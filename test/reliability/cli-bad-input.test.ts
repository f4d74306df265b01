/**
 * Malformed and hostile desired-state files (seeded mutations of the examples, anchor bombs, deep
 * nesting, invalid UTF-8, 10 MB files) through the CLI's `validate` and `plan`: never a crash or a
 * stack trace, always an error that says where. The files that attack memory, time or the stack
 * (bombs, deep nesting, megabytes) run in the built CLI as a child process, within a per-run time
 * limit and a heap cap; the small ones run in-process (the same code, without a process start each).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { requireBuild, ROOT, spawnCli, type CliRun } from '../support/processes.js';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { badFiles, type BadFile } from './bad-files.js';

const SEED = Number(process.env.BADFILE_SEED ?? 1337);
const LIMITS = { timeoutMs: 20_000, nodeArgs: ['--max-old-space-size=512'] };
/**
 * Files near the 10 MiB size limit (about 150,000 records, or 350,000 list entries): the YAML
 * library's tree of such a file needs about 1 GB and 10-20 s on this 2-core machine (docs/reliability.md,
 * "Big files"); the bound is that they finish with located errors within these limits.
 */
const BIG_LIMITS = { timeoutMs: 120_000, nodeArgs: ['--max-old-space-size=2048'] };
const ACCOUNT = '0123456789abcdef0123456789abcdef';

let dir: string;
let server: RunningServer;
let cases: (BadFile & { file: string })[];

beforeAll(async () => {
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), 'zp-badfile-'));
  server = await startServer({ db: join(dir, 'api.db'), ensureAccounts: [ACCOUNT], quiet: true });
  cases = badFiles(ROOT, SEED).map((c, i) => {
    const file = `case-${String(i).padStart(3, '0')}.yaml`;
    writeFileSync(join(dir, file), c.bytes);
    return { ...c, file };
  });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What is wrong with a run on a bad file, or null. */
function problem(c: { file: string; big?: boolean }, run: CliRun): string | null {
  const out = run.stdout + run.stderr;
  if (run.timedOut) return `no answer within ${(c.big ? BIG_LIMITS : LIMITS).timeoutMs} ms`;
  if (run.signal) return `killed by ${run.signal}`;
  if (/internal error|\n\s+at [\w.<]|heap out of memory|RangeError|TypeError/.test(out))
    return `a crash: ${out.slice(0, 400)}`;
  if (run.code === 0) return null; // a mutation can be harmless (e.g. a description that became a number-like string)
  if (run.code !== 1) return `exit ${run.code}`;
  if (!out.includes(`${c.file}:`)) return `an error without a location: ${out.slice(0, 300)}`;
  return null;
}

/**
 * A file whose harm is to memory, time or the stack: it runs in a child process under the heap cap
 * and time limit (in-process it could only take the test runner down with it). Everything else is a
 * file of a few kilobytes whose harm is to the checks' logic, which the in-process CLI runs the same.
 */
const needsProcess = (c: BadFile) =>
  c.big === true || c.bytes.length > 100_000 || /anchor bomb|nesting/.test(c.name);

/**
 * Runs each case and collects the problems: the child processes as many at a time as there are
 * cores (each is CPU-bound), the in-process runs one after another (test/support/cli.ts queues them).
 */
async function check(list: typeof cases, args: (file: string) => string[]): Promise<string[]> {
  const wrong: string[] = [];
  const env = { CLOUDFLARE_API_TOKEN: server.devToken! };
  const report = (c: (typeof cases)[number], run: CliRun) => {
    const p = problem(c, run);
    if (p) wrong.push(`${c.file} (${c.name.slice(0, 120)}): ${p}`);
  };
  const spawned = list.filter(needsProcess);
  let next = 0;
  const worker = async () => {
    while (next < spawned.length) {
      const c = spawned[next++];
      report(c, await spawnCli(args(c.file), { cwd: dir, env, ...(c.big ? BIG_LIMITS : LIMITS) }));
    }
  };
  const inProcess = async () => {
    for (const c of list.filter((x) => !needsProcess(x))) {
      const started = Date.now();
      const run = await runCli(args(c.file), { cwd: dir, env });
      report(c, { ...run, signal: null, timedOut: false, ms: Date.now() - started });
    }
  };
  await Promise.all([inProcess(), ...Array.from({ length: Math.min(4, availableParallelism()) }, worker)]);
  return wrong.sort();
}

describe(`hostile desired-state files (seed ${SEED}; replay with BADFILE_SEED=${SEED})`, () => {
  // validate and plan run side by side: each has one near-limit file that takes most of its time
  it.concurrent(
    'validate: an error with a location for each, never a crash, in bounded time and memory',
    async () => {
      expect(cases.length).toBeGreaterThan(35);
      // all but the 9.9 MB file of records, which plan runs: plan's loadDesiredFiles runs validate's
      // checkFiles on it, then reports the same diagnostics
      const subset = cases.filter((c) => !c.name.startsWith('a 9.9 MB file'));
      expect(await check(subset, (f) => ['validate', f])).toEqual([]);
    },
    240_000,
  );

  it.concurrent(
    'plan: the same against a live local API',
    async () => {
      // every type mutation of one example, and all the raw damage and big files but the 1 MB flow
      // line: its work is the YAML parse and the file checks, which plan shares with validate
      // (loadDesiredFiles runs checkFiles) and validate already gives it in full
      const subset = cases.filter(
        (c, i) => (i % 3 === 0 || !c.name.includes(': ')) && !c.name.startsWith('a 1 MB line'),
      );
      expect(await check(subset, (f) => ['plan', f, '--api-url', server.url])).toEqual([]);
    },
    240_000,
  );

  it('invalid UTF-8 is reported where the first bad byte is', async () => {
    writeFileSync(
      join(dir, 'utf8.yaml'),
      Buffer.from('version: 1\nzones:\n  - name: a.ex\xff\xfeample\n', 'latin1'),
    );
    const run = await spawnCli(['validate', 'utf8.yaml'], { cwd: dir, ...LIMITS });
    expect(run.stdout + run.stderr).toMatch(/utf8\.yaml:3:15: file is not valid UTF-8 text: byte 0xff/);
  });

  // planning examples/load-balancing.yaml against an account without those pools is a plan-time error
  // (found by BADFILE_SEED=1): it must point at the pool reference, like validation errors do
  it('a plan-time error of the load-balancing kind names file:line:col', async () => {
    writeFileSync(join(dir, 'lb.yaml'), readFileSync(join(ROOT, 'examples', 'load-balancing.yaml')));
    const run = await spawnCli(['plan', 'lb.yaml', '--api-url', server.url], {
      cwd: dir,
      env: { CLOUDFLARE_API_TOKEN: server.devToken! },
      ...LIMITS,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/lb\.yaml:\d+:\d+/);
  });
});
