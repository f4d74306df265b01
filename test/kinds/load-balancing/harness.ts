/**
 * The test bed of the load_balancing and waf integration tests: the real local API on 127.0.0.1:0
 * over a SQLite file in a temp dir (test/server/helpers.ts), fixtures for what the API cannot create
 * (accounts, pools with legacy e-mails, zones on the previous WAF), desired-state files written into
 * that dir, and the CLI run in-process (test/support/cli.ts) with a token from the fixtures.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../server/helpers.js';
import { runCli, type CliResult } from '../../support/cli.js';
import { startContractProxy, type ContractProxy } from '../../support/contract-proxy.js';

export const ACCOUNT = '0123456789abcdef0123456789abcdef';
export const TOKEN = 'zp-lbwaf-token-3c9e1a7b5d2f4e6a8b0c';

export type { CliResult };

export interface Bed {
  t: TestServer;
  dir: string;
  file(name: string, yaml: string): string;
  cli(args: string[], env?: Record<string, string>): Promise<CliResult>;
  /** the CLI's exchanges, checked against the published schema */
  contract: ContractProxy;
  close(): Promise<void>;
}

export function fixtures(
  extra: { pools?: unknown[]; zones?: Record<string, unknown>[] } = {},
): Record<string, unknown> {
  return {
    accounts: [{ id: ACCOUNT, name: 'Test account', ...(extra.pools ? { pools: extra.pools } : {}) }],
    zones: (extra.zones ?? []).map((z) => ({ account: ACCOUNT, ...z })),
    tokens: [{ value: TOKEN, zones: 'all', accounts: 'all', permissions: 'edit' }],
  };
}

export async function startBed(fixtureDoc: Record<string, unknown>): Promise<Bed> {
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

/** Pools with legacy e-mails, named so that their order is their number. */
export function pools(
  n: number,
  email: (i: number) => string,
): { name: string; notification_email: string }[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `pool-${String(i + 1).padStart(3, '0')}`,
    notification_email: email(i),
  }));
}
