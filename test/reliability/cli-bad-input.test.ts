/**
 * Malformed and hostile desired-state files (seeded mutations of the examples, anchor bombs, deep
 * nesting, invalid UTF-8, 10 MB files) through the built CLI's `validate` and `plan`: never a crash or
 * a stack trace, always an error that says where, within a per-run time limit and a heap cap.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, ROOT, runCli, type CliRun } from '../../bench/soak/processes.js';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { badFiles, type BadFile } from './bad-files.js';

const SEED = Number(process.env.BADFILE_SEED ?? 1337);
const LIMITS = { timeoutMs: 20_000, nodeArgs: ['--max-old-space-size=512'] };
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
function problem(c: { file: string }, run: CliRun): string | null {
  const out = run.stdout + run.stderr;
  if (run.timedOut) return `no answer within ${LIMITS.timeoutMs} ms`;
  if (run.signal) return `killed by ${run.signal}`;
  if (/internal error|\n\s+at [\w.<]|heap out of memory|RangeError|TypeError/.test(out))
    return `a crash: ${out.slice(0, 400)}`;
  if (run.code === 0) return null; // a mutation can be harmless (e.g. a description that became a number-like string)
  if (run.code !== 1) return `exit ${run.code}`;
  if (!out.includes(`${c.file}:`)) return `an error without a location: ${out.slice(0, 300)}`;
  return null;
}

/** Runs each case (4 at a time: mostly waiting on process start) and collects the problems. */
async function check(list: typeof cases, args: (file: string) => string[]): Promise<string[]> {
  const wrong: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const c = list[next++];
      const run = await runCli(args(c.file), {
        cwd: dir,
        env: { CLOUDFLARE_API_TOKEN: server.devToken! },
        ...LIMITS,
      });
      const p = problem(c, run);
      if (p) wrong.push(`${c.file} (${c.name.slice(0, 120)}): ${p}`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return wrong.sort();
}

/**
 * Cases that expose bugs in code this suite does not own: excluded from the loops below and kept as
 * skipped tests, so the lead can fix them and un-skip.
 */
const KNOWN_BUGS: Record<string, string> = {
  // BUG(config, src/config/ loading and schema check): `zones: [{},{},...]` with 350,000 empty entries
  // (a 1 MB file) makes validate and plan run out of a 512 MB heap (SIGABRT after ~15 s) instead of
  // reporting the first problems: memory grows about 1.7 KB per diagnostic and nothing caps the count.
  // Should: stop collecting after a cap (e.g. 1,000 problems, "and N more") in bounded memory.
  'a 1 MB line of flow mapping': 'validate/plan run out of memory on 350,000 empty zones',
  // BUG(config, src/config/ loading and checks): a 9.9 MB file (about 160,000 records, under the 10 MiB
  // limit the loader itself enforces) does not finish: with every 7th TTL wrong, validate runs out of a
  // 512 MB heap (SIGABRT) and with 2 GB was still running after minutes; the same file with no errors
  // takes 36 s and 967 MB peak RSS. Should: validate any file the size limit admits in seconds, within
  // the memory the plan bench allows (400 MB RSS for 100,000 records).
  'a 9.9 MB file of records (every 7th TTL wrong)':
    'validate/plan run out of memory on a file under the size limit',
};
const isKnownBug = (c: BadFile) => c.name in KNOWN_BUGS;

describe(`hostile desired-state files (seed ${SEED}; replay with BADFILE_SEED=${SEED})`, () => {
  it('validate: an error with a location for each, never a crash, in bounded time and memory', async () => {
    expect(cases.length).toBeGreaterThan(35);
    expect(
      await check(
        cases.filter((c) => !isKnownBug(c)),
        (f) => ['validate', f],
      ),
    ).toEqual([]);
  }, 240_000);

  it('plan: the same against a live local API', async () => {
    // every type mutation of one example, and all the raw damage and big files
    const subset = cases.filter((c, i) => !isKnownBug(c) && (i % 3 === 0 || !c.name.includes(': ')));
    expect(await check(subset, (f) => ['plan', f, '--api-url', server.url])).toEqual([]);
  }, 240_000);

  // BUG(config, src/config/yaml-source.ts): invalid UTF-8 is reported at 1:1 ("file is not valid UTF-8
  // text") wherever the bad byte is; it should point at the line and column of the first bad byte.
  it.skip('invalid UTF-8 is reported where the first bad byte is', async () => {
    writeFileSync(
      join(dir, 'utf8.yaml'),
      Buffer.from('version: 1\nzones:\n  - name: a.ex\xff\xfeample\n', 'latin1'),
    );
    const run = await runCli(['validate', 'utf8.yaml'], { cwd: dir, ...LIMITS });
    expect(run.stdout + run.stderr).toMatch(/utf8\.yaml:3:\d+: /);
  });

  // BUG(load-balancing kind, plan-time checks against live pools): planning examples/load-balancing.yaml
  // against an account without those pools fails with `error: accounts[0].load_balancing.notifications[1]
  // .pools[0]: no pool named or with id "eu-primary" ...`: a dotted path but no file:line:col, unlike the
  // logpush kind's plan-time errors (`(logs.yaml:18:11: zones[0].logpush.jobs[1])`). Found by
  // BADFILE_SEED=1. Should: name the file, line and column of the pool reference.
  it.skip('a plan-time error of the load-balancing kind names file:line:col', async () => {
    writeFileSync(join(dir, 'lb.yaml'), readFileSync(join(ROOT, 'examples', 'load-balancing.yaml')));
    const run = await runCli(['plan', 'lb.yaml', '--api-url', server.url], {
      cwd: dir,
      env: { CLOUDFLARE_API_TOKEN: server.devToken! },
      ...LIMITS,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/lb\.yaml:\d+:\d+/);
  });

  for (const [name, what] of Object.entries(KNOWN_BUGS))
    it.skip(`${what} (${name})`, async () => {
      const c = cases.find((x) => x.name === name)!;
      expect(await check([c], (f) => ['validate', f])).toEqual([]);
      expect(await check([c], (f) => ['plan', f, '--api-url', server.url])).toEqual([]);
    });
});
