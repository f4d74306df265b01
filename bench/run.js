#!/usr/bin/env node
// Runs every benchmark in turn (after `npm run build`) and prints their tables. Each benchmark
// measures its figures beside their limit in the same run, so ratios stay meaningful on a loaded
// machine. Pass names to run a subset: `node bench/run.js server plan`.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const all = ['cli', 'server', 'plan', 'export', 'soak'];
const chosen = process.argv.slice(2).length > 0 ? process.argv.slice(2) : all;
let failed = 0;
for (const name of chosen) {
  if (!all.includes(name)) {
    process.stderr.write(`unknown benchmark ${name}; choose from ${all.join(', ')}\n`);
    process.exit(1);
  }
  process.stdout.write(`\n## bench/${name}\n\n`);
  const script = fileURLToPath(new URL(`./${name}/run.js`, import.meta.url));
  const r = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
