/**
 * Regenerates schema/zoneplan.schema.json from the kinds' fragments:
 *   npx tsc -p tsconfig.build.json && node dist/config/write-schema.js
 * Prints the path it wrote; `--check` exits 1 instead of writing when the file is out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { schemaText } from './schema.js';

const target = fileURLToPath(new URL('../../schema/zoneplan.schema.json', import.meta.url));
const wanted = schemaText();
let current = '';
try {
  current = readFileSync(target, 'utf8');
} catch {
  // missing: written below
}
if (process.argv.includes('--check')) {
  if (current !== wanted) {
    process.stderr.write(`${target} is out of date; run: npm run schema\n`);
    process.exitCode = 1;
  }
} else if (current !== wanted) {
  writeFileSync(target, wanted);
  process.stdout.write(`wrote ${target}\n`);
} else {
  process.stdout.write(`${target} is up to date\n`);
}
