#!/usr/bin/env node
// The last step of `npm run build`: bundles the CLI that tsc compiled into dist/ (dist/cli/main.js
// and the two modules bin/zoneplan.js uses beside it) into one CommonJS file,
// dist/bundle/zoneplan.cjs. Node resolves, reads, compiles and links every ES module on its own,
// and a short command spent a good part of its start-up doing that for about 160 of them; one
// CommonJS file is read and compiled once. (An ES module bundle split at every dynamic import
// measured slower: several dozen chunks, each still a module.) What only some commands use (the
// local API, export, apply, rehearsal) is still evaluated only when a command imports it: esbuild
// keeps a dynamically imported module behind a function that runs it on first import.
// Packages stay outside but commander and undici's Agent and request (src/client/undici-parts.ts):
// better-sqlite3 is native, and yaml and ajv are loaded through createRequire from node_modules
// exactly as dist/ loads them.
// bin/zoneplan.js runs the bundle unless tsc wrote dist/ after it (a `tsc` without this step).
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const out = `${dist}bundle`;

rmSync(out, { recursive: true, force: true });
await build({
  stdin: {
    contents: [
      "export { main, processIo } from './main.js';",
      "export { dropOutputOnClosedPipe } from './closed-pipe.js';",
      "export { installInterruptHandlers } from './interrupt.js';",
      "export { useCommonJsLoader } from '../config/schema-validator.js';",
    ].join('\n'),
    resolveDir: `${dist}cli`,
    sourcefile: 'zoneplan-entry.js',
  },
  outfile: `${out}/zoneplan.cjs`,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // commander is in the bundle, so in its code cache (scripts/code-cache.js): every command parses
  // its arguments with it; so are undici's Agent and request, which every command that reads the
  // API loads (about 25 of undici's modules; MIT, as is the llhttp parser it embeds). The other
  // packages stay outside (see above).
  external: ['better-sqlite3', 'yaml', 'ajv', 'ajv/*', 'ajv-formats', 'ajv-formats/*', 'deep-diff'],
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
  legalComments: 'none',
  logLevel: 'warning',
});
// bin/bundle-loader.js runs the bundle as a vm.Script (to hand V8 its code cache), and a script has
// no loader for import(): the few dynamic imports of packages and builtins that esbuild keeps
// become require() (the same modules; `await` of a value is that value)
const bundle = `${out}/zoneplan.cjs`;
const code = readFileSync(bundle, 'utf8').replace(/\bawait import\(("[^"]+")\)/g, 'require($1)');
// (undici's JSDoc names types as `{import('./client.js')}`: a comment, not a call)
if (/(?<!\{)\bimport\(/.test(code)) throw new Error(`${bundle}: an import() the bundle cannot keep`);
writeFileSync(bundle, code);
// the standalone schema validator is loaded from beside the code that asks for it; its hash is
// checked before use (src/config/schema-validator.ts), so a stale copy is never the one that runs.
// The few ajv runtime helpers it requires go inside it, so inside its code cache.
await build({
  entryPoints: [`${dist}config/schema-validator.generated.cjs`],
  // as written by ajv: one long line (esbuild would otherwise lay it out at half as long again)
  minifyWhitespace: true,
  outfile: `${out}/schema-validator.generated.cjs`,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
});
