#!/usr/bin/env node
// The step of `npm run build` after the bundle: writes V8's code cache of dist/bundle/zoneplan.cjs
// and of the files it loads from beside it, the schema validator and undici's parts (FILE.cache),
// read by bin/bundle-loader.js. V8 compiles
// a function when it first runs, so the cache is taken after the CLI has run in this process: a
// `validate` of each example (the reading, the schema, every kind's rules), a `plan` of the quick
// start against a local API run from dist/server/ (the client, the planner, the rendering), and
// the same plan on the embedded default, whose local API is the bundle's (a new user's first
// command); what runs only elsewhere (apply, export, serve) is compiled on demand as before.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { loadBundled } from '../bin/bundle-loader.js';
import { setV8Flags } from '../bin/v8-flags.js';

// the flags bin/zoneplan.js runs with: V8 rejects a cache made under other flags
setV8Flags();

const root = fileURLToPath(new URL('../', import.meta.url));
const bundle = loadBundled(`${root}dist/bundle/zoneplan.cjs`);
// the files the bundle loads from beside it: the schema validator, undici's parts
const besides = new Map();
bundle.exports.useCommonJsLoader((file) => {
  if (!besides.has(file)) besides.set(file, loadBundled(file));
  return besides.get(file).exports;
});

const examples = `${root}examples/`;
const desired = readdirSync(examples)
  .filter((name) => name.endsWith('.yaml') && !name.startsWith('fixtures'))
  .map((name) => examples + name);
const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });
// the examples' `${env:NAME}` references, set so that every file is valid
const env = Object.fromEntries(
  desired
    .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\$\{env:(\w+)\}/g)])
    .map(([, name]) => [name, 'warm-up-value']),
);
const work = mkdtempSync(join(tmpdir(), 'zoneplan-code-cache-'));
const run = async (argv, expected, extraEnv = {}) => {
  const io = { stdout: sink(), stderr: sink(), stdin: undefined, env: { ...env, ...extraEnv }, cwd: work };
  const code = await bundle.exports.main(argv, io, { wholeProcess: true });
  if (code !== expected) throw new Error(`code cache: the warm-up \`${argv.join(' ')}\` exited with ${code}`);
};

try {
  // one file a run: several examples declare the same zone
  for (const file of desired) await run(['validate', file], 0);

  const quickstart = readFileSync(`${examples}quickstart.yaml`, 'utf8');
  const zone = /^ {2}- name: (\S+)$/m.exec(quickstart)[1];
  const account = /^ {4}account: (\S+)$/m.exec(quickstart)[1];
  const { startServer } = await import(`${root}dist/server/index.js`);
  const server = await startServer({
    db: join(work, 'api.db'),
    fixtures: { accounts: [{ id: account, name: 'warm-up' }], zones: [{ name: zone, account, plan: 'pro' }] },
    quiet: true,
  });
  try {
    // a plan of creates: every record is new to this store
    await run(['plan', `${examples}quickstart.yaml`, '--api-url', server.url], 0, {
      CLOUDFLARE_API_TOKEN: server.devToken,
    });
  } finally {
    await server.close();
  }
  // the same plan on the embedded default (no token, no --api-url): the local API the bundle
  // starts in-process, its store and its answers, for a new user's first command
  writeFileSync(join(work, 'quickstart.yaml'), quickstart);
  await run(['plan', join(work, 'quickstart.yaml')], 0);
} finally {
  rmSync(work, { recursive: true, force: true });
}

for (const [file, loaded] of [[`${root}dist/bundle/zoneplan.cjs`, bundle], ...besides]) {
  writeFileSync(`${file}.cache`, loaded.cachedData());
}
// each file the bundle loads from beside it has its cache: a warm-up that missed one is a build error
for (const name of ['schema-validator.generated.cjs', 'undici-parts.cjs'])
  if (!besides.has(`${root}dist/bundle/${name}`))
    throw new Error(`code cache: the warm-up never loaded dist/bundle/${name}`);
