#!/usr/bin/env node
// Runs the compiled CLI. `npm ci` builds dist/ through the `prepare` script, so `npx zoneplan` works
// straight after a clean install; a missing build is reported instead of a stack trace.
import { setV8Flags } from './v8-flags.js';
import { loadBundled } from './bundle-loader.js';

// before anything compiles: the flags the code cache was made under (bin/v8-flags.js)
setV8Flags(process.argv.slice(2), process.env);

// builtins by process.getBuiltinModule, not `import` (see bin/bundle-loader.js)
const { existsSync, statSync } = process.getBuiltinModule('node:fs');
const { fileURLToPath } = process.getBuiltinModule('node:url');

const dist = new URL('../dist/', import.meta.url);
const mtime = (file) => statSync(new URL(file, dist), { throwIfNoEntry: false })?.mtimeMs;

/**
 * `npm run build` bundles tsc's output into one file, dist/bundle/zoneplan.cjs (scripts/bundle.js),
 * which loads much faster than the ~160 modules of dist/cli/, and writes V8's code cache of it
 * (scripts/code-cache.js). tsc alone (a developer's
 * `tsc -p tsconfig.build.json`) leaves the bundle older than its build info, and then dist/cli/
 * runs: never a stale bundle.
 */
async function loadCli() {
  const bundled = mtime('bundle/zoneplan.cjs');
  const compiled = mtime('.tsbuildinfo');
  if (bundled !== undefined && (compiled === undefined || bundled >= compiled)) {
    // with V8's code cache the build made (bin/bundle-loader.js)
    const cli = loadBundled(fileURLToPath(new URL('bundle/zoneplan.cjs', dist))).exports;
    cli.useCommonJsLoader((file) => loadBundled(file).exports);
    return cli;
  }
  const [main, closedPipe, interrupt] = await Promise.all(
    ['main', 'closed-pipe', 'interrupt'].map((name) => import(new URL(`cli/${name}.js`, dist).href)),
  );
  return { ...main, ...closedPipe, ...interrupt };
}

if (!existsSync(fileURLToPath(new URL('cli/main.js', dist)))) {
  process.stderr.write('zoneplan: the build is missing (dist/). Run `npm run build` first.\n');
  process.exitCode = 1;
} else {
  const { main, processIo, dropOutputOnClosedPipe, installInterruptHandlers } = await loadCli();
  // `zoneplan plan x.yaml | head -1`: a reader that goes away is no reason for a stack trace
  dropOutputOnClosedPipe();
  // Ctrl-C or a CI cancel: apply finishes what is in flight and reports; other commands stop at once
  installInterruptHandlers();
  // main returns the exit code and never exits itself: pending output drains before node ends.
  // The one run of this process keeps its secrets in the process-wide list (no AsyncLocalStorage).
  process.exitCode = await main(process.argv.slice(2), processIo(), { wholeProcess: true });
}
