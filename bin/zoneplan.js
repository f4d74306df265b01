#!/usr/bin/env node
// Runs the compiled CLI. `npm ci` builds dist/ through the `prepare` script, so `npx zoneplan` works
// straight after a clean install; a missing build is reported instead of a stack trace.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// undici parses HTTP with WebAssembly (llhttp). V8 compiles it at once with its baseline compiler
// and then again, optimised, on background threads; a short command ended before that finished and
// then waited for it (about a third of a 15-record plan's time, after its last output). The baseline
// code parses a 10,000-record answer no slower. Set before anything compiles WebAssembly.
setFlagsFromString('--liftoff-only');

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('zoneplan: the build is missing (dist/). Run `npm run build` first.\n');
  process.exitCode = 1;
} else {
  const { main, processIo } = await import(entry.href);
  const { dropOutputOnClosedPipe } = await import(
    new URL('../dist/cli/closed-pipe.js', import.meta.url).href
  );
  // `zoneplan plan x.yaml | head -1`: a reader that goes away is no reason for a stack trace
  dropOutputOnClosedPipe();
  // Ctrl-C or a CI cancel: apply finishes what is in flight and reports; other commands stop at once
  const { installInterruptHandlers } = await import(
    new URL('../dist/cli/interrupt.js', import.meta.url).href
  );
  installInterruptHandlers();
  // main returns the exit code and never exits itself: pending output drains before node ends.
  // The one run of this process keeps its secrets in the process-wide list (no AsyncLocalStorage).
  process.exitCode = await main(process.argv.slice(2), processIo(), { wholeProcess: true });
}
