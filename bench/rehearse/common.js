// What the rehearsal benches share: their numeric options, the built CLI, and `plan` timed as a whole
// process against `zoneplan serve` (only PATH, the token and NO_COLOR in its environment, so nothing of
// the bench's own environment changes what it measures).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = join(fileURLToPath(new URL('.', import.meta.url)), '../../bin/zoneplan.js');
export const ACCOUNT = '0123456789abcdef0123456789abcdef';
export const TOKEN = 'bench-token-0123456789abcdef';

const args = process.argv.slice(2);
/** The number after `name` on the command line, or `fallback`. */
export const arg = (name, fallback) =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
/** The text after `name` on the command line, or undefined. */
export const textArg = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** `plan desired --api-url url ...extra` run by `bin`: its wall time in ms and its stderr. */
export function timedPlan({ bin = BIN, desired, url, extra }) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [bin, 'plan', desired, '--api-url', url, ...extra], {
      env: { PATH: process.env.PATH, CLOUDFLARE_API_TOKEN: TOKEN, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (code !== 0) reject(new Error(`plan ${extra.join(' ')} exited ${code}:\n${err}`));
      else resolve({ ms, err });
    });
  });
}

/**
 * Writes the bench's two files into `dir`: `fixtures.json` (the bench account, `zones` in it, the
 * token) and `zones.json` (the desired state: `desiredZones`). Returns their paths.
 */
export function writeBenchFiles(dir, { zones, desiredZones }) {
  const fixtures = join(dir, 'fixtures.json');
  writeFileSync(
    fixtures,
    JSON.stringify({
      accounts: [{ id: ACCOUNT, name: 'bench' }],
      zones: zones.map((z) => ({ account: ACCOUNT, ...z })),
      tokens: [{ name: 'bench', value: TOKEN }],
    }),
  );
  const desired = join(dir, 'zones.json');
  writeFileSync(desired, JSON.stringify({ version: 1, zones: desiredZones }));
  return { fixtures, desired };
}
