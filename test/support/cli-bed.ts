/**
 * The test bed of the kinds' integration tests: the real local API on 127.0.0.1:0 over a SQLite
 * file in a temp dir (test/server/helpers.ts), desired-state files written into that dir, and the
 * CLI run in-process (test/support/cli.ts) through a proxy that checks every exchange against the
 * published schema, with the given token (one the fixtures grant).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../server/helpers.js';
import { runCli, type CliResult } from './cli.js';
import { startContractProxy, type ContractProxy } from './contract-proxy.js';

export type { CliResult };

export interface CliBed {
  t: TestServer;
  dir: string;
  /** writes a desired-state file into the temp dir and returns its path */
  file(name: string, yaml: string): string;
  /** runs the CLI against the server (through the contract proxy) with the bed's token */
  cli(args: string[], env?: Record<string, string>): Promise<CliResult>;
  /** the CLI's exchanges, checked against the published schema */
  contract: ContractProxy;
  close(): Promise<void>;
}

export async function startCliBed(fixtureDoc: Record<string, unknown>, token: string): Promise<CliBed> {
  const t = await startTestServer({ fixtures: fixtureDoc });
  t.token = token;
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
        env: { CLOUDFLARE_API_TOKEN: token, ...env },
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
