#!/usr/bin/env node
// Runs the compiled CLI. `npm ci` builds dist/ through the `prepare` script, so `npx zoneplan` works
// straight after a clean install; a missing build is reported instead of a stack trace.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  process.stderr.write('zoneplan: the build is missing (dist/). Run `npm run build` first.\n');
  process.exit(1);
}
await import(main.href);
