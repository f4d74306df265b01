/**
 * Shared by the page_shield and logpush integration tests: the CLI bed of test/support/cli-bed.ts
 * (real local API, desired-state files in its temp dir, the CLI in-process) with this token.
 */
import type { TestServer } from '../../server/helpers.js';
import { startCliBed, type CliBed, type CliResult } from '../../support/cli-bed.js';

export const ACCOUNT = '0123456789abcdef0123456789abcdef';
export const TOKEN = 'zp-test-token-6a1f0c9d2b7e4a3c8f5d';

export type { CliResult };

export type Harness = CliBed;

/** Fixtures with one account, a token with every right, and the zones given (with their sections). */
export function fixtures(zones: Record<string, unknown>[]): Record<string, unknown> {
  return {
    accounts: [{ id: ACCOUNT, name: 'Test account' }],
    zones: zones.map((z) => ({ account: ACCOUNT, plan: 'enterprise', ...z })),
    tokens: [{ value: TOKEN, zones: 'all', accounts: 'all', permissions: 'edit' }],
  };
}

export function harness(fixtureDoc: Record<string, unknown>): Promise<Harness> {
  return startCliBed(fixtureDoc, TOKEN);
}

/** The zone id of a fixture zone, looked up by name through the API. */
export async function zoneId(t: TestServer, name: string): Promise<string> {
  const res = await t.api('GET', `/zones?name=${name}`);
  const zone = res.body.result?.[0];
  if (!zone) throw new Error(`zone ${name} not found: ${res.text}`);
  return zone.id as string;
}
