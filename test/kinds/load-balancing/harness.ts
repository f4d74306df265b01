/**
 * The test bed of the load_balancing and waf integration tests: the CLI bed of
 * test/support/cli-bed.ts with fixtures for what the API cannot create (accounts, pools with legacy
 * e-mails, zones on the previous WAF) and a token from them.
 */
import { startCliBed, type CliBed, type CliResult } from '../../support/cli-bed.js';

export const ACCOUNT = '0123456789abcdef0123456789abcdef';
export const TOKEN = 'zp-lbwaf-token-3c9e1a7b5d2f4e6a8b0c';

export type { CliResult };

export type Bed = CliBed;

export function fixtures(
  extra: { pools?: unknown[]; zones?: Record<string, unknown>[] } = {},
): Record<string, unknown> {
  return {
    accounts: [{ id: ACCOUNT, name: 'Test account', ...(extra.pools ? { pools: extra.pools } : {}) }],
    zones: (extra.zones ?? []).map((z) => ({ account: ACCOUNT, ...z })),
    tokens: [{ value: TOKEN, zones: 'all', accounts: 'all', permissions: 'edit' }],
  };
}

export function startBed(fixtureDoc: Record<string, unknown>): Promise<Bed> {
  return startCliBed(fixtureDoc, TOKEN);
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
