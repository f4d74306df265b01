/**
 * The built CLI runs from one file: `npm run build` bundles dist/ into dist/bundle/zoneplan.cjs
 * (scripts/bundle.js) and bin/zoneplan.js runs it, so a command loads none of the ~160 modules of
 * dist/cli/ and below. A module loader hook in the child lists every ES module it loads.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validatorHash } from '../../src/config/ajv-setup.js';
import { composeSchema } from '../../src/config/schema.js';
import { startServer } from '../../src/server/index.js';
import { spawnCli } from '../support/processes.js';

const dist = new URL('../../dist/', import.meta.url);
const bundle = fileURLToPath(new URL('bundle/zoneplan.cjs', dist));
const buildInfo = fileURLToPath(new URL('.tsbuildinfo', dist));
const built = existsSync(bundle);

// prints the URL of every ES module the process loads, on stderr
const listModules =
  'data:text/javascript,' +
  encodeURIComponent(
    "import { register } from 'node:module';" +
      "register('data:text/javascript,' + encodeURIComponent(" +
      "'export async function load(url, context, next) { process._rawDebug(`module: ${url}`); return next(url, context); }'));",
  );

// prints every module a CommonJS require() asks for, on stderr
const listRequires =
  'data:text/javascript,' +
  encodeURIComponent(
    "import Module from 'node:module';" +
      'const load = Module._load;' +
      'Module._load = function (request, ...rest) { process._rawDebug(`require: ${request}`); return load.call(this, request, ...rest); };',
  );

// prints, as the process ends, every builtin module it loaded (those of `import` too), on stderr
const listBuiltins =
  'data:text/javascript,' +
  encodeURIComponent(
    "process.on('exit', () => { for (const m of process.moduleLoadList) if (m.startsWith('NativeModule ')) process._rawDebug(`builtin: ${m.slice(13)}`); });",
  );

/** The quick start planned by the built CLI against a local API in its own process; `probe` preloaded. */
async function remotePlan(probe: string) {
  const dir = mkdtempSync(join(tmpdir(), 'zoneplan-bundle-'));
  const server = await startServer({
    db: join(dir, 'api.db'),
    fixtures: {
      accounts: [{ id: '0123456789abcdef0123456789abcdef', name: 'bundle' }],
      zones: [{ name: 'quickstart.example', account: '0123456789abcdef0123456789abcdef' }],
    },
    quiet: true,
  });
  try {
    const example = fileURLToPath(new URL('../../examples/quickstart.yaml', import.meta.url));
    const r = await spawnCli(['plan', example, '--api-url', server.url], {
      cwd: dir,
      env: { CLOUDFLARE_API_TOKEN: server.devToken! },
      nodeArgs: ['--import', probe],
    });
    expect(r.stdout).toMatch(/Plan: \d+ to create/);
    expect(r.code).toBe(0);
    return r;
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `args` run by the built CLI in a directory holding the quick start as q.yaml; `probe` preloaded. */
async function inQuickstartDir(args: string[], probe: string) {
  const dir = mkdtempSync(join(tmpdir(), 'zoneplan-bundle-'));
  try {
    copyFileSync(
      fileURLToPath(new URL('../../examples/quickstart.yaml', import.meta.url)),
      join(dir, 'q.yaml'),
    );
    return await spawnCli(args, { cwd: dir, nodeArgs: ['--import', probe] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The builtins listBuiltins printed, in the order they were loaded. */
const builtinsOf = (stderr: string) => [...stderr.matchAll(/^builtin: (\S+)$/gm)].map((m) => m[1]!);

describe.skipIf(!built)('the bundled CLI', () => {
  it('is newer than the tsc output it was made from, so bin/zoneplan.js runs it', () => {
    expect(statSync(bundle).mtimeMs).toBeGreaterThanOrEqual(statSync(buildInfo).mtimeMs);
  });

  it('runs a command without loading any module of dist/', async () => {
    const example = fileURLToPath(new URL('../../examples/quickstart.yaml', import.meta.url));
    const r = await spawnCli(['validate', example], {
      cwd: process.cwd(),
      nodeArgs: ['--import', listModules],
    });
    expect(r.stdout).toMatch(/^ok: /);
    expect(r.code).toBe(0);
    const modules = [...r.stderr.matchAll(/^module: (\S+)$/gm)].map((m) => m[1]);
    expect(modules.some((url) => url.endsWith('/bin/zoneplan.js'))).toBe(true);
    expect(modules.filter((url) => url.includes('/dist/'))).toEqual([]);
  });

  it('carries the undici parts the client uses: a plan requires nothing of undici from node_modules, nor HTTP/2', async () => {
    // the embedded default: a plan that makes requests with nothing but a file
    const r = await inQuickstartDir(['plan', 'q.yaml'], listRequires);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Plan: \d+ to create/);
    const required = [...r.stderr.matchAll(/^require: (\S+)$/gm)].map((m) => m[1]);
    expect(required).toContain('node:net'); // the hook sees the bundle's requires
    expect(required.filter((x) => x.includes('undici'))).toEqual([]);
    // nor what the bundle loads only on first use (scripts/bundle.js, lazyRequire): undici's
    // HTTP/2 half, commander's programs as subcommands
    expect(required.filter((x) => /http2|child_process/.test(x))).toEqual([]);
  });

  it('validates and plans without node:fs/promises, nor the readline it loads (files are read through node:fs)', async () => {
    for (const [args, output] of [
      [['validate', 'q.yaml'], /^ok: /],
      // the embedded default: the client and the local API too
      [['plan', 'q.yaml'], /Plan: \d+ to create/],
    ] as const) {
      const r = await inQuickstartDir([...args], listBuiltins);
      expect(r.stdout).toMatch(output);
      expect(r.code).toBe(0);
      const builtins = builtinsOf(r.stderr);
      expect(builtins).toContain('fs');
      expect(builtins.filter((m) => /fs\/promises|readline/.test(m))).toEqual([]);
    }
  });

  it('validates without node:crypto (a file is hashed when a saved plan records it)', async () => {
    const r = await inQuickstartDir(['validate', 'q.yaml'], listBuiltins);
    expect(r.stdout).toMatch(/^ok: /);
    expect(r.code).toBe(0);
    const builtins = builtinsOf(r.stderr);
    expect(builtins).toContain('net');
    expect(builtins.filter((m) => /crypto/.test(m))).toEqual([]);
  });

  it('carries the hash of the schema it composes, against which it checks the standalone validator', () => {
    const hash = validatorHash(composeSchema());
    expect(readFileSync(bundle, 'utf8')).toContain(JSON.stringify(hash));
  });

  it('loads the builtins a plan needs before the V8 flags change (bin/v8-flags.js, EARLY_BUILTINS)', async () => {
    const builtins = builtinsOf((await remotePlan(listBuiltins)).stderr);
    // node:v8 is loaded to set the flags: what comes after it was compiled under them
    const afterFlags = builtins.slice(builtins.indexOf('v8') + 1);
    expect(builtins).toContain('v8');
    expect(afterFlags.filter((m) => /^(crypto|os|timers\/promises|net|perf_hooks)$/.test(m))).toEqual([]);
  });

  it('loads the local API builtins before the V8 flags when the run starts the embedded one (LOCAL_API_BUILTINS)', async () => {
    const r = await inQuickstartDir(['plan', 'q.yaml'], listBuiltins);
    expect(r.stdout).toMatch(/Plan: \d+ to create/);
    const builtins = builtinsOf(r.stderr);
    const afterFlags = builtins.slice(builtins.indexOf('v8') + 1);
    expect(builtins).toEqual(expect.arrayContaining(['http', 'cluster']));
    expect(afterFlags.filter((m) => /^(http|cluster|_http_server|child_process|dgram|dns)$/.test(m))).toEqual(
      [],
    );
  });

  it('plans against a remote API without node:http, node:assert or deep-diff (loaded only when needed)', async () => {
    const r = await remotePlan(listRequires);
    const required = [...r.stderr.matchAll(/^require: (\S+)$/gm)].map((m) => m[1]);
    expect(required).toContain('node:net');
    // undici's header size limit and body check, and its assertions (scripts/bundle.js); the
    // field diff of an update (src/core/diff.ts)
    expect(required.filter((x) => /^(node:)?(http|assert)$|deep-diff/.test(x!))).toEqual([]);
  });
});
