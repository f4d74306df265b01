#!/usr/bin/env node
// Makes a copy of this checkout's build with one speed mechanism switched off, for
// `node bench/cli/run.js --compare DIR` (docs/benchmarks.md, "Mechanisms that pay for themselves"):
// the with/without run of that mechanism, in the same interleaved rounds.
// Usage: npm run build && node bench/cli/without.js MECHANISM DIR
// The copy holds bin/, dist/, scripts/, schema/, examples/ and package.json, and a link to this
// checkout's node_modules. A mechanism is switched off in tsc's output (dist/) by making its
// entry point give up as it does on input it does not take, then the bundle and its code cache are
// made again from that output, as `npm run build` makes them: the rest of the build is the same.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const [mechanism, dir] = process.argv.slice(2);

/** `line` of dist/FILE (exactly once) becomes `line` followed by `then`: the mechanism gives up at once. */
const giveUpAt = (file, line, then) => ({ file, line, then });
const rebuilt = {
  // the control: the bundle and its code cache made again, nothing switched off (what a copy and a
  // rebuild cost a run, apart from any mechanism)
  none: undefined,
  'yaml-fast-path': giveUpAt(
    'config/yaml-fast-path.js',
    'export function parseBlockYamlFast(text, maxDepth) {',
    'return undefined;',
  ),
  'json-fast-path': giveUpAt(
    'config/json-fast-path.js',
    'export function parseJsonFast(text, maxDepth) {',
    'return undefined;',
  ),
  certify: giveUpAt('kinds/dns/certify.js', 'export function certify(e, zone, index) {', 'return undefined;'),
  'schema-view': giveUpAt(
    'config/schema-view.js',
    'export function schemaViewOf(document) {',
    'return document;',
  ),
  'early-scan': giveUpAt(
    'cli/pipeline/early-scan.js',
    'export function scanOwners(text) {',
    'return undefined;',
  ),
  'early-reads': giveUpAt(
    'cli/pipeline/early-reads.js',
    '    static start(values, selection, kinds, client, auth, concurrency) {',
    'return undefined;',
  ),
};
/** Mechanisms of the build itself: files of the build left out (each of them optional by design). */
const removed = {
  // bin/zoneplan.js runs dist/cli/ module by module when there is no bundle
  bundle: ['dist/bundle'],
  // bin/bundle-loader.js runs the bundle without a cache when there is none
  'code-cache': [
    'dist/bundle/zoneplan.cjs.cache',
    'dist/bundle/schema-validator.generated.cjs.cache',
    'dist/bundle/undici-parts.cjs.cache',
  ],
  // src/config/schema-validator.ts compiles the schema at run time when there is no standalone code
  'ajv-standalone': [
    'dist/config/schema-validator.generated.cjs',
    'dist/bundle/schema-validator.generated.cjs',
    'dist/bundle/schema-validator.generated.cjs.cache',
  ],
};
if (!dir || !(mechanism in rebuilt || mechanism in removed)) {
  console.error(`usage: node bench/cli/without.js MECHANISM DIR; MECHANISM is one of:`);
  console.error(`  ${[...Object.keys(removed), ...Object.keys(rebuilt)].join(', ')}`);
  process.exit(2);
}

rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
// preserveTimestamps: bin/zoneplan.js compares the bundle's time with tsc's build info
for (const part of ['bin', 'dist', 'scripts', 'schema', 'examples', 'package.json'])
  cpSync(join(root, part), join(dir, part), { recursive: true, preserveTimestamps: true });
symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));

if (mechanism in removed) {
  for (const part of removed[mechanism]) {
    if (!existsSync(join(dir, part))) throw new Error(`${part}: not in the build`);
    rmSync(join(dir, part), { recursive: true });
  }
} else {
  if (rebuilt[mechanism]) {
    const { file, line, then } = rebuilt[mechanism];
    const path = join(dir, 'dist', file);
    const code = readFileSync(path, 'utf8');
    if (code.split(line).length !== 2) throw new Error(`dist/${file}: not one \`${line}\` line`);
    writeFileSync(path, code.replace(line, `${line} ${then}`));
  }
  for (const script of ['scripts/bundle.js', 'scripts/code-cache.js'])
    execFileSync(process.execPath, [script], { cwd: dir, stdio: 'inherit' });
}
console.log(`${dir}: this build without ${mechanism}`);
