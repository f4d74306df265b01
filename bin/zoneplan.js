#!/usr/bin/env node
// Runs the compiled CLI. `npm ci` builds dist/ through the `prepare` script, so `npx zoneplan` works
// straight after a clean install; a missing build is reported instead of a stack trace.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';

// A larger young generation: reading a big desired-state file (the YAML library allocates millions
// of short-lived nodes) spends most of its time in scavenges with V8's default 16 MB semi-space; at
// 64 MB a 10 MB file of 100,000 records parses in about a third of the time (bench/config). Only
// when the user has not chosen a size already.
if (!/--max-semi-space-size/.test(process.env.NODE_OPTIONS ?? '')) {
  v8.setFlagsFromString('--max-semi-space-size=64');
}

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  process.stderr.write('zoneplan: the build is missing (dist/). Run `npm run build` first.\n');
  process.exit(1);
}
await import(main.href);
