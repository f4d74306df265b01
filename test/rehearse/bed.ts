/**
 * The set-up every rehearsal test shares: a `serve` standing in for production (one enterprise
 * zone, example.com, in one account), stopped after each test, and the CLI run while the proxy on
 * the target's wire records what reached it, so a test can hold that a rehearsal only read.
 */
import { afterEach } from 'vitest';
import { ACCOUNT, cliAt, startBed, writeYaml, type Bed, type CliResult } from '../cli-reconcile/helpers.js';

/** Production's fixtures: example.com in the account, with `zone` adding its id and its contents. */
export function productionFixtures(zone: Record<string, unknown>): Record<string, unknown> {
  return {
    accounts: [{ id: ACCOUNT, name: 'Example Corp' }],
    zones: [{ name: 'example.com', account: ACCOUNT, plan: 'enterprise', ...zone }],
  };
}

/** Production's apex A record and its www CNAME, which most scenarios hold. */
export const APEX_A = {
  id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa01',
  name: '@',
  type: 'A',
  content: '192.0.2.10',
  proxied: true,
};
export const WWW_CNAME = {
  id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa02',
  name: 'www',
  type: 'CNAME',
  content: 'example.com',
  ttl: 300,
};

/**
 * Writes a desired-state file for example.com into `dir` and returns its path: `zoneBody` is the
 * zone entry's YAML below its name (indented four spaces: `    dns:` ...).
 */
export function exampleZoneFile(dir: string, name: string, zoneBody: string): string {
  return writeYaml(dir, name, `version: 1\nzones:\n  - name: example.com\n${zoneBody}`);
}

/** `export --as fixtures` of example.com into `copy.json` in the bed's dir. */
export function exportCopy(bed: Bed, env: Record<string, string> = {}): Promise<CliResult> {
  return cliAt(bed, ['export', '--as', 'fixtures', '--zone', 'example.com', '--out', 'copy.json'], env);
}

/** Registers this file's clean-up and returns a start that every bed it makes is stopped by. */
export function bedsClosedAfterEach(): (opts: Parameters<typeof startBed>[0]) => Promise<Bed> {
  const beds: Bed[] = [];
  afterEach(async () => {
    while (beds.length > 0) await beds.pop()!.close();
  });
  return async (opts) => {
    const bed = await startBed(opts);
    beds.push(bed);
    return bed;
  };
}

/** `METHOD url` (with its query) of every request the production stand-in received during `run`. */
async function urlsSeen(bed: Bed, run: () => Promise<unknown>): Promise<string[]> {
  const from = bed.contract.exchanges.length;
  await run();
  return bed.contract.exchanges.slice(from).map((x) => `${x.method} ${x.url}`);
}

/**
 * The CLI run against `bed`, with what reached the target meanwhile: each request's method, its
 * `METHOD path` (`requests`) and its `METHOD url` with the query (`urls`).
 */
export async function cliWatched(
  bed: Bed,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ result: CliResult; methods: string[]; requests: string[]; urls: string[] }> {
  let result: CliResult | undefined;
  const urls = await urlsSeen(bed, async () => {
    result = await cliAt(bed, args, env);
  });
  return {
    result: result!,
    methods: urls.map((x) => x.slice(0, x.indexOf(' '))),
    requests: urls.map((x) => x.split('?')[0]!),
    urls,
  };
}
