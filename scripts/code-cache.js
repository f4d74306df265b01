#!/usr/bin/env node
// The step of `npm run build` after the bundle: writes V8's code cache of dist/bundle/zoneplan.cjs
// and of the schema validator beside them (FILE.cache), read by bin/bundle-loader.js. V8 compiles
// a function when it first runs, so the cache is taken after the CLI has run in this process: a
// `validate` of the examples, which runs the reading, the schema and every kind's rules. What runs
// only later (a plan's requests and rendering) is compiled on demand as before.
import { Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadBundled } from '../bin/bundle-loader.js';

// the flags bin/zoneplan.js runs with: V8 rejects a cache made under other flags
setFlagsFromString('--liftoff-only');

const root = fileURLToPath(new URL('../', import.meta.url));
const bundle = loadBundled(`${root}dist/bundle/zoneplan.cjs`);
const validator = loadBundled(`${root}dist/bundle/schema-validator.generated.cjs`);
bundle.exports.useCommonJsLoader(() => validator.exports);

const desired = readdirSync(`${root}examples`)
  .filter((name) => name.endsWith('.yaml') && !name.startsWith('fixtures'))
  .map((name) => `${root}examples/${name}`);
const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });
// the examples' `${env:NAME}` references, set so that every file is valid
const env = Object.fromEntries(
  desired
    .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\$\{env:(\w+)\}/g)])
    .map(([, name]) => [name, 'warm-up-value']),
);
const io = { stdout: sink(), stderr: sink(), stdin: undefined, env, cwd: root };
// one file a run: several examples declare the same zone
for (const file of desired) {
  const code = await bundle.exports.main(['validate', file], io, { wholeProcess: true });
  if (code !== 0) throw new Error(`code cache: the warm-up validate of ${file} exited with ${code}`);
}

for (const [file, loaded] of [
  ['zoneplan.cjs', bundle],
  ['schema-validator.generated.cjs', validator],
])
  writeFileSync(`${root}dist/bundle/${file}.cache`, loaded.cachedData());
