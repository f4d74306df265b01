/**
 * V8's code cache of the bundle and of the schema validator (scripts/code-cache.js writes it,
 * bin/bundle-loader.js reads it): taken under the flags bin/zoneplan.js runs with, so V8 uses it;
 * ignored, not an error, when it belongs to another source or V8 rejects it (another Node version:
 * a package built under Node 24 and run under Node 22, or the reverse). That last case needs a
 * second Node: ZONEPLAN_TEST_OTHER_NODE names its binary (.ci/run sets it, each pass to the other
 * supported version); without it those tests skip.
 */
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../support/processes.js';

const bundleDir = fileURLToPath(new URL('../../dist/bundle/', import.meta.url));
const loader = fileURLToPath(new URL('../../bin/bundle-loader.js', import.meta.url));
const flagsModule = fileURLToPath(new URL('../../bin/v8-flags.js', import.meta.url));
const files = ['zoneplan.cjs', 'schema-validator.generated.cjs', 'undici-parts.cjs'];
const built = files.every((f) => existsSync(join(bundleDir, `${f}.cache`)));

const otherNode = process.env.ZONEPLAN_TEST_OTHER_NODE;

/**
 * Loads each file in a fresh node (`node`, this one unless given; with bin's V8 flags,
 * bin/v8-flags.js, unless `flags` says otherwise); whether its cache was used.
 */
async function cacheUsed(dir: string, flags: string[] = [], node = process.execPath): Promise<boolean[]> {
  const script = [
    `const { setV8Flags } = await import(${JSON.stringify(flagsModule)});`,
    'setV8Flags();',
    `const { loadBundled } = await import(${JSON.stringify(loader)});`,
    `const used = ${JSON.stringify(files)}.map((f) => loadBundled(${JSON.stringify(dir)} + '/' + f).cacheUsed);`,
    'console.log(JSON.stringify(used));',
  ].join('\n');
  const r = await promisify(execFile)(node, [...flags, '--input-type=module', '-e', script]);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as boolean[];
}

describe.skipIf(!built)('the code cache of the bundle', () => {
  const copy = mkdtempSync(join(tmpdir(), 'zoneplan-code-cache-'));
  // the bundle requires its packages from node_modules
  symlinkSync(fileURLToPath(new URL('../../node_modules', import.meta.url)), join(copy, 'node_modules'));
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('is used by a run with the flags bin/zoneplan.js sets', async () => {
    expect(await cacheUsed(bundleDir)).toEqual([true, true, true]);
  });

  it('is not used, silently, under other V8 flags', async () => {
    expect(await cacheUsed(bundleDir, ['--no-opt'])).toEqual([false, false, false]);
  });

  it('is not used for another source of the same length (V8 checks only the length)', async () => {
    for (const f of files) {
      const source = readFileSync(join(bundleDir, f), 'utf8');
      // one character changed near the end (the source map comment, the schema's hash, undici's version line): same length
      const at = source.lastIndexOf('a');
      writeFileSync(join(copy, f), source.slice(0, at) + 'b' + source.slice(at + 1));
      copyFileSync(join(bundleDir, `${f}.cache`), join(copy, `${f}.cache`));
    }
    expect(await cacheUsed(copy)).toEqual([false, false, false]);
  });
});

describe.skipIf(!built || !otherNode)('the built CLI under another Node version than the build', () => {
  const node = otherNode!;
  const work = mkdtempSync(join(tmpdir(), 'zoneplan-other-node-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('is another version, and takes the V8 flags of bin/v8-flags.js', async () => {
    const r = await promisify(execFile)(node, ['-p', 'process.version']);
    expect(r.stdout.trim()).not.toBe(process.version);
    expect(await cacheUsed(bundleDir, [], node)).toEqual([false, false, false]);
  });

  it('runs a plan on the embedded default (bundle, validator, client, local API) silently without the cache', async () => {
    const quickstart = fileURLToPath(new URL('../../examples/quickstart.yaml', import.meta.url));
    copyFileSync(quickstart, join(work, 'quickstart.yaml'));
    const r = await spawnCli(['plan', 'quickstart.yaml'], { cwd: work, node });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    // every record is new to the fresh local store
    expect(r.stdout).toMatch(/Plan: \d+ to create, 0 to update, 0 to delete/);
    // the target line and the local account's creation only: no warning, no V8 message
    expect(r.stderr.split('\n').filter((line) => line && !/^(target|created account)/.test(line))).toEqual(
      [],
    );
  });
});
