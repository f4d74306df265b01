#!/usr/bin/env node
// The last step of `npm run build`: bundles the CLI that tsc compiled into dist/ (dist/cli/main.js
// and the two modules bin/zoneplan.js uses beside it) into one CommonJS file,
// dist/bundle/zoneplan.cjs. Node resolves, reads, compiles and links every ES module on its own,
// and a short command spent a good part of its start-up doing that for about 160 of them; one
// CommonJS file is read and compiled once. (An ES module bundle split at every dynamic import
// measured slower: several dozen chunks, each still a module.) What only some commands use (the
// local API, export, apply, rehearsal) is still evaluated only when a command imports it: esbuild
// keeps a dynamically imported module behind a function that runs it on first import.
// Packages stay outside but commander: better-sqlite3 is native, and undici, yaml and ajv are
// loaded through createRequire from node_modules exactly as dist/ loads them, except undici's
// Agent and request, bundled into a file of their own (see the end).
// bin/zoneplan.js runs the bundle unless tsc wrote dist/ after it (a `tsc` without this step).
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const out = `${dist}bundle`;

/**
 * An esbuild plugin that makes one require() of a package's file lazy: `line`, which must occur
 * exactly once in the file, becomes `lazy`. For modules loaded at start-up for a feature zoneplan
 * never uses; the build fails rather than bundle a package that no longer reads as this expects.
 */
function lazyRequire(file, line, lazy) {
  return {
    name: `lazy-require:${file}`,
    setup(b) {
      const sep = '[\\\\/]'; // either separator
      const parts = ['node_modules', ...file.split('/')].map((p) => p.replaceAll('.', '\\.'));
      const filter = new RegExp(`${sep}${parts.join(sep)}$`);
      b.onLoad({ filter }, ({ path }) => {
        const source = readFileSync(path, 'utf8');
        if (source.split(line).length !== 2)
          throw new Error(`${path}: not one \`${line}\` line; see lazyRequire in scripts/bundle.js`);
        return { contents: source.replace(line, lazy), loader: 'js' };
      });
    },
  };
}

rmSync(out, { recursive: true, force: true });
/** What every file of dist/bundle/ is: one CommonJS file for Node 20, no licence comments kept. */
const nodeCjs = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
};
await build({
  stdin: {
    contents: [
      "export { main, processIo } from './main.js';",
      "export { dropOutputOnClosedPipe } from './closed-pipe.js';",
      "export { installInterruptHandlers } from './interrupt.js';",
      // the loader of the files beside the bundle: the schema validator and undici's parts
      "export { useCommonJsLoader } from '../commonjs-loader.js';",
    ].join('\n'),
    resolveDir: `${dist}cli`,
    sourcefile: 'zoneplan-entry.js',
  },
  outfile: `${out}/zoneplan.cjs`,
  ...nodeCjs,
  // commander is in the bundle, so in its code cache (scripts/code-cache.js): every command parses
  // its arguments with it. The other packages stay outside (see above).
  external: [
    'better-sqlite3',
    'undici',
    'undici/*',
    'yaml',
    'ajv',
    'ajv/*',
    'ajv-formats',
    'ajv-formats/*',
    'deep-diff',
  ],
  // commander loads node:child_process as it starts, for subcommands that are programs of their
  // own (zoneplan has none): loaded on first use, every command starts without it
  plugins: [
    lazyRequire(
      'commander/lib/command.js',
      "const childProcess = require('node:child_process');",
      "const childProcess = { get spawn() { return require('node:child_process').spawn; } };",
    ),
  ],
  // ES modules are strict; the bundle stays so
  banner: {
    js: "'use strict';\nconst __bundleUrl = require('node:url').pathToFileURL(__filename).href;",
  },
  // dist/bundle/ is one folder deep, as dist/cli/ is: the paths the code reads relative to its own
  // file (../../package.json, ../../schema/) hold unchanged
  define: { 'import.meta.url': '__bundleUrl' },
  // tsc's source maps are read, so this one points into src/; like dist's, it is not published
  sourcemap: 'linked',
  sourcesContent: false,
});
// bin/bundle-loader.js runs the bundle as a vm.Script (to hand V8 its code cache), and a script has
// no loader for import(): the few dynamic imports of packages and builtins that esbuild keeps
// become require() (the same modules; `await` of a value is that value)
const bundle = `${out}/zoneplan.cjs`;
const code = readFileSync(bundle, 'utf8').replace(/\bawait import\(("[^"]+")\)/g, 'require($1)');
if (/\bimport\(/.test(code)) throw new Error(`${bundle}: an import() the bundle cannot keep`);
writeFileSync(bundle, code);
// the standalone schema validator is loaded from beside the code that asks for it; its hash is
// checked before use (src/config/schema-validator.ts), so a stale copy is never the one that runs.
// The few ajv runtime helpers it requires go inside it, so inside its code cache.
await build({
  entryPoints: [`${dist}config/schema-validator.generated.cjs`],
  // as written by ajv: one long line (esbuild would otherwise lay it out at half as long again)
  minifyWhitespace: true,
  outfile: `${out}/schema-validator.generated.cjs`,
  ...nodeCjs,
});
// undici's Agent and request (src/client/undici-parts.ts loads this file when it makes the first
// client, from beside the code that asks for it): about 25 of undici's modules, which took a good
// part of a plan's start-up loaded one by one from node_modules, here in one file with a code cache
// of its own, which commands that make no request never read. undici is MIT, as is the llhttp
// parser it embeds.
const undiciVersion = JSON.parse(
  readFileSync(new URL('../node_modules/undici/package.json', import.meta.url), 'utf8'),
).version;
await build({
  stdin: {
    contents: [
      "exports.Agent = require('undici/lib/dispatcher/agent.js');",
      "exports.request = require('undici/lib/api/api-request.js');",
    ].join('\n'),
    resolveDir: dist,
    sourcefile: 'undici-parts-entry.js',
  },
  outfile: `${out}/undici-parts.cjs`,
  // undici's client loads its HTTP/2 half (and node:http2 with it) as it starts, for connections
  // that negotiate h2, which the API's client, on undici's default of HTTP/1.1, never does: loaded
  // on first use, a request starts without them
  plugins: [
    lazyRequire(
      'undici/lib/dispatcher/client.js',
      "const connectH2 = require('./client-h2.js')",
      "let loadedH2; const connectH2 = (...args) => (loadedH2 ??= require('./client-h2.js'))(...args)",
    ),
  ],
  // which undici it holds (a line the code cache test may change without touching the code)
  footer: { js: `// the parts of undici ${undiciVersion} that src/client/undici-parts.ts loads` },
  ...nodeCjs,
});
