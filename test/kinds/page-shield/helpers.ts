/**
 * Shared by the page_shield and logpush integration tests: a real local API on 127.0.0.1:0 over a
 * SQLite file in a temp dir (test/server/helpers.ts), desired-state files written into that dir,
 * and the CLI run in-process (test/support/cli.ts) against it with a token from the fixtures.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../server/helpers.js';
import { runCli, type CliResult } from '../../support/cli.js';
import { startContractProxy, type ContractProxy } from '../../support/contract-proxy.js';

export const ACCOUNT = '0123456789abcdef0123456789abcdef';
export const TOKEN = 'zp-test-token-6a1f0c9d2b7e4a3c8f5d';

export type { CliResult };

export interface Harness {
  t: TestServer;
  dir: string;
  /** writes a desired-state file into the temp dir and returns its path */
  file(name: string, yaml: string): string;
  /** runs the built CLI against the server with the fixtures' token */
  cli(args: string[], env?: Record<string, string>): Promise<CliResult>;
  /** the CLI's exchanges, checked against the published schema */
  contract: ContractProxy;
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
  const t = await startTestServer({ fixtures: fixtureDoc });
  t.token = TOKEN;
  // the CLI talks through a proxy that checks every exchange against the published schema
  const contract = await startContractProxy(t.url);
  return {
    t,
    contract,
    dir: t.dir,
    file(name, yaml) {
      const path = join(t.dir, name);
      writeFileSync(path, yaml);
      return path;
    },
    cli(args, env = {}) {
      return runCli([...args, '--api-url', contract.url], {
        cwd: t.dir,
        env: { CLOUDFLARE_API_TOKEN: TOKEN, ...env },
      });
    },
    close: async () => {
      try {
        await contract.close();
      } finally {
        await t.close();
      }
    },
  };
}

/** The zone id of a fixture zone, looked up by name through the API. */
export async function zoneId(t: TestServer, name: string): Promise<string> {
  const res = await t.api('GET', `/zones?name=${name}`);
  const zone = res.body.result?.[0];
  if (!zone) throw new Error(`zone ${name} not found: ${res.text}`);
  return zone.id as string;
}
