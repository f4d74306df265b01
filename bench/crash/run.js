#!/usr/bin/env node
// Crash run: `zoneplan apply` killed with SIGKILL at seeded random moments (default 50 rounds), each
// followed by a rerun that must converge, and `zoneplan serve` killed with SIGKILL mid-batch (default
// 20 rounds), after which each batch must be all there or not at all. Prints a table.
// --with-kinds adds Page Shield, Logpush, the WAF migration and notifications, renamed every round.
// Usage: npm run build && node bench/crash/run.js [--runs 50] [--serve-runs 20] [--seed N] [--changes 400] [--with-kinds]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// shared with the suite's short crash test (test/reliability/crash.test.ts)
import { requireBuild, startServe } from '../../test/support/processes.js';
import { applyCrashes, crashFixtures, serverCrashes } from '../../test/support/crash.js';

const args = process.argv.slice(2);
const opt = (name, dflt) => Number(args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const SEED = opt('--seed', Date.now() % 100000);
const RUNS = opt('--runs', 50);
const SERVE_RUNS = opt('--serve-runs', 20);
const CHANGES = opt('--changes', 400);
const WITH_KINDS = args.includes('--with-kinds');

requireBuild();
console.log(
  `seed ${SEED} (replay: node bench/crash/run.js --seed ${SEED} --runs ${RUNS} --serve-runs ${SERVE_RUNS} --changes ${CHANGES}${WITH_KINDS ? ' --with-kinds' : ''})`,
);
const dir = mkdtempSync(join(tmpdir(), 'zoneplan-crash-'));
writeFileSync(join(dir, 'fixtures.yaml'), JSON.stringify(crashFixtures(CHANGES, SEED)));
const serve = await startServe({
  db: join(dir, 'api.db'),
  fixtures: 'fixtures.yaml',
  faults: 'latency=15ms',
  cwd: dir,
});
let failures = 0;
try {
  const t0 = Date.now();
  const apply = await applyCrashes({
    url: serve.url,
    dir,
    seed: SEED,
    runs: RUNS,
    changes: CHANGES,
    withKinds: WITH_KINDS,
    onRound: (r) => {
      if (r.problems.length)
        console.log(`apply round ${r.round} (kill at ${r.killAt} ms): ${r.problems.join('; ')}`);
    },
  });
  const applyMs = Date.now() - t0;
  const serveRows = await serverCrashes({
    seed: SEED,
    runs: SERVE_RUNS,
    size: 3500,
    onRound: (r) => {
      if (r.problems.length)
        console.log(`serve round ${r.round} (kill at ${r.killAt} ms): ${r.problems.join('; ')}`);
    },
  });
  const rows = apply.rows;
  failures = rows.filter((r) => r.problems.length).length + serveRows.filter((r) => r.problems.length).length;
  failures += apply.finalPlanExit === 0 ? 0 : 1;
  const table = [
    [
      'apply killed (SIGKILL) then rerun',
      `${rows.length} rounds, ${rows.filter((r) => r.killed).length} killed mid-run`,
    ],
    ['kill window (one uninterrupted apply)', `${apply.calibrationMs} ms`],
    [
      'kill moments',
      `${Math.min(...rows.map((r) => r.killAt))}..${Math.max(...rows.map((r) => r.killAt))} ms after start`,
    ],
    [
      'reruns that converged',
      `${rows.filter((r) => r.rerunExit === 0 && !r.problems.length).length} of ${rows.length}`,
    ],
    [
      'duplicates / outside-plan changes',
      String(rows.filter((r) => r.problems.some((p) => /duplicate|changed/.test(p))).length),
    ],
    ['final plan', apply.finalPlanExit === 0 ? 'empty (exit 0)' : `exit ${apply.finalPlanExit}`],
    ['apply rounds wall time', `${(applyMs / 1000).toFixed(1)} s`],
    [
      'serve killed mid-batch (3,500 records)',
      `${serveRows.length} rounds, ${serveRows.filter((r) => r.answer !== 200).length} with no answer`,
    ],
    [
      'batches after restart',
      `${serveRows.filter((r) => r.present === 3500).length} whole, ${serveRows.filter((r) => r.present === 0).length} absent, ${serveRows.filter((r) => r.present !== 0 && r.present !== 3500).length} half-written`,
    ],
  ];
  const w = Math.max(...table.map((r) => r[0].length));
  console.log(`| ${'measure'.padEnd(w)} | value |\n|${'-'.repeat(w + 2)}|-------|`);
  for (const [k, v] of table) console.log(`| ${k.padEnd(w)} | ${v} |`);
} finally {
  await serve.stop();
  if (failures === 0) rmSync(dir, { recursive: true, force: true });
  else console.log(`kept ${dir} for inspection`);
}
process.exitCode = failures === 0 ? 0 : 1;
