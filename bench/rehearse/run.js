#!/usr/bin/env node
// The cost of a rehearsal (issue 16, point 4): whole `zoneplan` processes, `plan` and
// `plan --rehearse` side by side, on a 10,000-record zone whose file changes 1,000 of them, against
// `zoneplan serve` as its own process. Interleaved runs; medians of the same run.
// Usage: npm run build && node bench/rehearse/run.js [--runs 5] [--records 10000] [--changes 1000]
//   [--compare DIR]
// --compare DIR: another built checkout (e.g. the main branch): its plan and plan --rehearse run in
// the same rounds, against the same serve, so both ratios come from the same machine and moment.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe } from '../../test/support/processes.js';
import { BIN, arg, median, textArg, timedPlan, writeBenchFiles } from './common.js';

const RUNS = arg('--runs', 5);
const RECORDS = arg('--records', 10_000);
const CHANGES = arg('--changes', 1_000);
const COMPARE = textArg('--compare') && join(textArg('--compare'), 'bin/zoneplan.js');
const dir = mkdtempSync(join(tmpdir(), 'zoneplan-bench-rehearse-'));
const ip = (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

const records = Array.from({ length: RECORDS }, (_, i) => ({
  name: `h${i}`,
  type: 'A',
  content: ip(i),
  ttl: 300,
}));
// the file: every record, the first CHANGES with a new ttl (updates)
const { fixtures, desired } = writeBenchFiles(dir, {
  zones: [{ name: 'rehearse.bench', plan: 'enterprise', records }],
  desiredZones: [
    {
      name: 'rehearse.bench',
      dns: {
        records: records.map((r, i) => ({
          name: r.name,
          type: 'A',
          content: r.content,
          ttl: i < CHANGES ? 600 : 300,
        })),
      },
    },
  ],
});

// `zoneplan serve` as its own process, the way the soak and the tests start it
const serve = await startServe({ db: join(dir, 'api.db'), fixtures, cwd: dir });
process.on('exit', () => void serve.kill('SIGTERM'));
const url = serve.url;

const run = (extra, bin = BIN) => timedPlan({ bin, desired, url, extra });

const kinds = COMPARE ? ['plan', 'rehearse', 'plan@compare', 'rehearse@compare'] : ['plan', 'rehearse'];
const times = Object.fromEntries(kinds.map((k) => [k, []]));
const verdicts = {};
await run([]); // warm-up
if (COMPARE) await run([], COMPARE);
for (let i = 0; i < RUNS; i++) {
  // each round in another order, so neither side always runs first (or right after the other)
  const order = kinds.map((_, j) => kinds[(i + j) % kinds.length]);
  if (i % 2 === 1) order.reverse();
  for (const which of order) {
    const [mode, where] = which.split('@');
    const r = await run(mode === 'rehearse' ? ['--rehearse'] : [], where ? COMPARE : BIN);
    times[which].push(r.ms);
    if (mode === 'rehearse')
      verdicts[which] = r.err.split('\n').find((l) => l.startsWith('rehearsed:')) ?? '';
  }
}
console.log(`${RECORDS} records, ${CHANGES} changes, ${RUNS} runs (medians, whole process)`);
for (const suffix of COMPARE ? ['', '@compare'] : ['']) {
  const plan = median(times['plan' + suffix]);
  const rehearse = median(times['rehearse' + suffix]);
  const label = suffix ? `--compare ${COMPARE.replace(/\/bin\/zoneplan\.js$/, '')}: ` : '';
  console.log(`${label}plan             ${plan.toFixed(0)} ms`);
  console.log(
    `${label}plan --rehearse  ${rehearse.toFixed(0)} ms  (${(rehearse / plan).toFixed(2)}x; budget 2x)`,
  );
  console.log(`${label}${verdicts['rehearse' + suffix]}`);
}
serve.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });
