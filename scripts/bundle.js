#!/usr/bin/env node
// The last step of `npm run build`: bundles the CLI that tsc compiled into dist/ (dist/cli/main.js
// and the two modules bin/zoneplan.js loads beside it) into dist/bundle/, a few files instead of
// about 160 modules. Node resolves, reads, compiles and links every ES module on its own, and a
// short command spent a good part of its start-up doing that. Code that only some commands need
// (the local API, export, apply, rehearsal) stays in chunks of its own, loaded by the same dynamic
// imports as before. Packages stay outside (better-sqlite3 is native; undici, yaml and ajv are
// loaded through createRequire), so node_modules is resolved exactly as it is for dist/.
// bin/zoneplan.js runs the bundle unless tsc wrote dist/ after it (a `tsc` without this step).
import { build } from 'esbuild';
import { copyFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const out = `${dist}bundle`;

rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: ['main', 'closed-pipe', 'interrupt'].map((name) => `${dist}cli/${name}.js`),
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  // dist/ is one folder deep, as dist/cli/ is: paths read from import.meta.url
  // (../../package.json, ../../schema/) hold unchanged
  chunkNames: 'chunk-[hash]',
  // tsc's source maps are read, so these point into src/; like dist's, they are not published
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  logLevel: 'warning',
});
// the standalone schema validator is loaded from beside the code that asks for it; its hash is
// checked before use (src/config/schema-validator.ts), so this copy can never be a stale one that runs
copyFileSync(`${dist}config/schema-validator.generated.cjs`, `${out}/schema-validator.generated.cjs`);
