/**
 * The test bed of the reconcile CLI tests: the real local API on 127.0.0.1:0 over a SQLite file in
 * a temp dir, the CLI run in-process (test/support/cli.ts), and a direct API reader for assertions
 * on stored state.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { runCli, type CliResult } from '../support/cli.js';

export type { CliResult };
import { startContractProxy, type ContractProxy } from '../support/contract-proxy.js';

export const ROOT = resolve(import.meta.dirname, '../..');

export const ACCOUNT = '0123456789abcdef0123456789abcdef';

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'zp-cli-'));
}

export interface Bed {
  dir: string;
  db: string;
  server: RunningServer;
  token: string;
  /** the CLI's way in: a proxy checking every exchange against the published schema */
  contract: ContractProxy;
  close(): Promise<void>;
}

/** A server over `dir/api.db` with fixtures (a paid zone can be seeded this way). */
export async function startBed(
  opts: { dir?: string; fixtures?: Record<string, unknown>; faults?: string } = {},
): Promise<Bed> {
  const dir = opts.dir ?? tempDir();
  const db = join(dir, 'api.db');
  const server = await startServer({
    db,
    fixtures: opts.fixtures,
    faults: opts.faults,
    ensureAccounts: [ACCOUNT],
    quiet: true,
    testRoutes: true,
  });
  const contract = await startContractProxy(server.url);
  return {
    dir,
    db,
    server,
    token: server.devToken!,
    contract,
    close: async () => {
      try {
        await contract.close();
      } finally {
        await server.close();
      }
    },
  };
}

/** Runs the CLI; env is replaced (credentials only from `env`) so the host's never leak in. */
export function cli(args: string[], opts: { cwd: string; env?: Record<string, string> }): Promise<CliResult> {
  return runCli(args, opts);
}

/** The CLI against a bed: --api-url and its dev token. */
export function cliAt(bed: Bed, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return cli([...args, '--api-url', bed.contract.url], {
    cwd: bed.dir,
    env: { CLOUDFLARE_API_TOKEN: bed.token, ...env },
  });
}

export function writeYaml(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** GET/PATCH/... on the bed's API as the dev token, returning the envelope's result. */
export async function api<T = unknown>(bed: Bed, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(bed.server.url + path, {
    method,
    headers: { authorization: `Bearer ${bed.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const env = (await res.json()) as { success: boolean; result: T; errors: unknown[] };
  if (!env.success) throw new Error(`${method} ${path}: ${JSON.stringify(env.errors)}`);
  return env.result;
}

export interface ApiRecord {
  id: string;
  name: string;
  type: string;
  content: string;
  ttl: number;
  proxied: boolean;
  meta?: Record<string, unknown>;
}

export async function zoneRecords(bed: Bed, zone: string): Promise<ApiRecord[]> {
  const zones = await api<{ id: string }[]>(bed, 'GET', `/zones?name=${zone}`);
  if (zones.length === 0) return [];
  const all = await api<ApiRecord[]>(bed, 'GET', `/zones/${zones[0].id}/dns_records?per_page=50000`);
  return all.filter((r) => !(r.type === 'NS' && r.name === zone));
}

/** A desired-state file of one zone with the given record lines (YAML flow mappings). */
export function zoneFile(zone: string, records: string[], extra = ''): string {
  return [
    'version: 1',
    'zones:',
    `  - name: ${zone}`,
    `    account: ${ACCOUNT}`,
    '    dns:',
    extra ? `      ${extra}` : '',
    '      records:',
    ...records.map((r) => `        - ${r}`),
    '',
  ]
    .filter((l) => l !== '')
    .join('\n');
}
