#!/usr/bin/env node
// The last step of `npm run build`: bundles the CLI that tsc compiled into dist/ (dist/cli/main.js
// and the two modules bin/zoneplan.js uses beside it) into one CommonJS file,
// dist/bundle/zoneplan.cjs. Node resolves, reads, compiles and links every ES module on its own,
// and a short command spent a good part of its start-up doing that for about 160 of them; one
// CommonJS file is read and compiled once. (An ES module bundle split at every dynamic import
// measured slower: several dozen chunks, each still a module.) What only some commands use (the
// local API, export, apply, rehearsal) is still evaluated only when a command imports it: esbuild
// keeps a dynamically imported module behind a function that runs it on first import.
// Packages stay outside but commander and better-sqlite3's JavaScript (its native addon stays in
// node_modules, where src/server/store/db.ts has the package find it): undici, yaml and ajv are loaded through createRequire from node_modules exactly
// as dist/ loads them, except undici's Agent and request, bundled into a file of their own (see
// the end).
// bin/zoneplan.js runs the bundle unless tsc wrote dist/ after it (a `tsc` without this step).
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const out = `${dist}bundle`;

/**
 * An esbuild plugin that makes require()s of a package's file lazy: each `[line, lazy]` pair's
 * `line`, which must occur exactly once in the file, becomes `lazy`. For modules loaded at start-up
 * for a feature zoneplan never uses; the build fails rather than bundle a package that no longer
 * reads as this expects.
 */
function lazyRequire(file, ...replacements) {
  return {
    name: `lazy-require:${file}`,
    setup(b) {
      const sep = '[\\\\/]'; // either separator
      const parts = ['node_modules', ...file.split('/')].map((p) => p.replaceAll('.', '\\.'));
      const filter = new RegExp(`${sep}${parts.join(sep)}$`);
      b.onLoad({ filter }, ({ path }) => {
        let source = readFileSync(path, 'utf8');
        for (const [line, lazy] of replacements) {
          if (source.split(line).length !== 2)
            throw new Error(`${path}: not one \`${line}\` line; see lazyRequire in scripts/bundle.js`);
          source = source.replace(line, lazy);
        }
        return { contents: source, loader: 'js' };
      });
    },
  };
}

rmSync(out, { recursive: true, force: true });
// the hash of the schema the bundled code composes, from the same dist/ (src/config/schema-validator.ts)
const { composeSchema } = await import(new URL('../dist/config/schema.js', import.meta.url).href);
const { validatorHash } = await import(new URL('../dist/config/ajv-setup.js', import.meta.url).href);
const schemaHash = validatorHash(composeSchema());
const betterSqliteVersion = JSON.parse(
  readFileSync(new URL('../node_modules/better-sqlite3/package.json', import.meta.url), 'utf8'),
).version;
/** What every file of dist/bundle/ is: one CommonJS file for Node 22 and later, no licence comments kept. */
const nodeCjs = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
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
  external: ['undici', 'undici/*', 'yaml', 'ajv', 'ajv/*', 'ajv-formats', 'ajv-formats/*', 'deep-diff'],
  // commander loads node:child_process as it starts, for subcommands that are programs of their
  // own (zoneplan has none): loaded on first use, every command starts without it
  plugins: [
    lazyRequire('commander/lib/command.js', [
      "const childProcess = require('node:child_process');",
      "const childProcess = { get spawn() { return require('node:child_process').spawn; } };",
    ]),
  ],
  // ES modules are strict; the bundle stays so
  banner: {
    js: "'use strict';\nconst __bundleUrl = require('node:url').pathToFileURL(__filename).href;",
  },
  // dist/bundle/ is one folder deep, as dist/cli/ is: the paths the code reads relative to its own
  // file (../../package.json, ../../schema/) hold unchanged
  // and which better-sqlite3's JavaScript it holds (src/server/store/db.ts compares it with the
  // installed package's before pairing it with that package's native addon)
  // and the hash of its schema, against which it checks the standalone validator beside it
  define: {
    'import.meta.url': '__bundleUrl',
    BUNDLED_BETTER_SQLITE3: JSON.stringify(betterSqliteVersion),
    BUNDLED_SCHEMA_HASH: JSON.stringify(schemaHash),
  },
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
  // on first use, a request starts without them. node:http (Node's own HTTP stack, some ten
  // modules) is loaded for two things only: the default header size limit, which
  // src/client/undici-parts.ts gives the Agent itself, and a check of a request body that is an
  // incoming message, which the client never sends; both load it when they are reached.
  plugins: [
    lazyRequire(
      'undici/lib/dispatcher/client.js',
      [
        "const connectH2 = require('./client-h2.js')",
        "let loadedH2; const connectH2 = (...args) => (loadedH2 ??= require('./client-h2.js'))(...args)",
      ],
      ["const http = require('node:http')", ''],
      [
        [
          'const getDefaultNodeMaxHeaderSize = http &&',
          '  http.maxHeaderSize &&',
          '  Number.isInteger(http.maxHeaderSize) &&',
          '  http.maxHeaderSize > 0',
          '  ? () => http.maxHeaderSize',
          "  : () => { throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid') }",
        ].join('\n'),
        [
          'const getDefaultNodeMaxHeaderSize = () => {',
          "  const size = require('node:http').maxHeaderSize",
          '  if (Number.isInteger(size) && size > 0) return size',
          "  throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid')",
          '}',
        ].join('\n'),
      ],
    ),
    lazyRequire(
      'undici/lib/core/util.js',
      ["const { IncomingMessage } = require('node:http')", ''],
      [
        'Object.getPrototypeOf(stream).constructor === IncomingMessage',
        "Object.getPrototypeOf(stream).constructor === require('node:http').IncomingMessage",
      ],
    ),
  ],
  // which undici it holds (a line the code cache test may change without touching the code)
  footer: { js: `// the parts of undici ${undiciVersion} that src/client/undici-parts.ts loads` },
  ...nodeCjs,
});
{
  // undici asserts its invariants with node:assert, which loads Node's assertion machinery (error
  // diffs, colours) as undici starts; only a failed assertion needs it. Each
  // `var assert = require("node:assert");` becomes a function that checks the value and calls
  // node:assert only when it fails: an AssertionError as before (without a message of undici's,
  // Node words it from the failing line, now this function's), and a failed assertion is a bug in
  // undici either way. The build fails if undici takes node:assert in any other form or uses
  // another of its methods, which would need the real module.
  const file = `${out}/undici-parts.cjs`;
  const code = readFileSync(file, 'utf8');
  const plain = code.split('var assert = require("node:assert");').length - 1;
  const any = code.split('require("node:assert")').length - 1;
  if (any === 0 || plain !== any || /\bassert\.[A-Za-z]/.test(code))
    throw new Error(`${file}: undici no longer takes node:assert as this expects; see scripts/bundle.js`);
  const lazy = code.replaceAll('require("node:assert")', '__lazyAssert');
  const helper =
    'function __lazyAssert(value, message) {\n  if (!value) require("node:assert")(value, message);\n}\n';
  writeFileSync(file, helper + lazy);
}
