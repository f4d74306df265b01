/**
 * Shared by the page_shield and logpush integration tests: a real local API on 127.0.0.1:0 over a
 * SQLite file in a temp dir (test/server/helpers.ts), desired-state files written into that dir,
 * and the built CLI (bin/zoneplan.js, after `npx tsc -p tsconfig.build.json`) run as a child process
 * against it with a token from the fixtures.
 */
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../../server/helpers.js';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../../../bin/zoneplan.js', import.meta.url));
const built = fileURLToPath(new URL('../../../dist/cli/main.js', import.meta.url));

export const ACCOUNT = '0123456789abcdef0123456789abcdef';
export const TOKEN = 'zp-test-token-6a1f0c9d2b7e4a3c8f5d';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Harness {
  t: TestServer;
  dir: string;
  /** writes a desired-state file into the temp dir and returns its path */
  file(name: string, yaml: string): string;
  /** runs the built CLI against the server with the fixtures' token */
  cli(args: string[], env?: Record<string, string>): Promise<CliResult>;
  close(): Promise<void>;
}

/** Fixtures with one account, a token with every right, and the zones given (with their sections). */
export function fixtures(zones: Record<string, unknown>[]): Record<string, unknown> {
  return {
    accounts: [{ id: ACCOUNT, name: 'Test account' }],
    zones: zones.map((z) => ({ account: ACCOUNT, plan: 'enterprise', ...z })),
    tokens: [{ value: TOKEN, zones: 'all', accounts: 'all', permissions: 'edit' }],
  };
}

export async function harness(fixtureDoc: Record<string, unknown>): Promise<Harness> {
  if (!existsSync(built)) throw new Error('dist/ is missing: run `npx tsc -p tsconfig.build.json` first');
  const t = await startTestServer({ fixtures: fixtureDoc });
  t.token = TOKEN;
  return {
    t,
    dir: t.dir,
    file(name, yaml) {
      const path = join(t.dir, name);
      writeFileSync(path, yaml);
      return path;
    },
    async cli(args, env = {}) {
      try {
        const { stdout, stderr } = await run(process.execPath, [bin, ...args, '--api-url', t.url], {
          cwd: t.dir,
          env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CLOUDFLARE_API_TOKEN: TOKEN, ...env },
        });
        return { code: 0, stdout, stderr };
      } catch (err) {
        const e = err as { code: number; stdout: string; stderr: string };
        return {
          code: typeof e.code === 'number' ? e.code : 1,
          stdout: e.stdout ?? '',
          stderr: e.stderr ?? '',
        };
      }
    },
    close: () => t.close(),
  };
}

/** The zone id of a fixture zone, looked up by name through the API. */
export async function zoneId(t: TestServer, name: string): Promise<string> {
  const res = await t.api('GET', `/zones?name=${name}`);
  const zone = res.body.result?.[0];
  if (!zone) throw new Error(`zone ${name} not found: ${res.text}`);
  return zone.id as string;
}
