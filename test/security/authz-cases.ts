/**
 * The authz matrix's credentials and its oracle: what each credential must reach, written out by
 * hand from the table in docs/local-api.md ("Credentials and what they reach"), never derived from
 * the server's own checks, so a server that widens a scope disagrees with it.
 */
import type { RouteInfo } from './routes.js';

export const ACC_A = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
export const ACC_B = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
export const ZONE_A = 'a1.matrix.test';
export const ZONE_B = 'b1.matrix.test';
const EMAIL = 'ops@matrix.test';
const KEY = 'matrix-global-key-0001';

export const MATRIX_FIXTURES = {
  accounts: [
    { id: ACC_A, name: 'A', pools: [{ name: 'a-pool', notification_email: 'a@matrix.test' }] },
    { id: ACC_B, name: 'B', pools: [{ name: 'b-pool', notification_email: 'b@matrix.test' }] },
  ],
  zones: [
    {
      name: ZONE_A,
      account: ACC_A,
      plan: 'enterprise',
      records: [{ name: '@', type: 'A', content: '192.0.2.1' }],
    },
    {
      name: ZONE_B,
      account: ACC_B,
      plan: 'enterprise',
      records: [{ name: '@', type: 'A', content: '192.0.2.2' }],
    },
  ],
  tokens: [
    { name: 'full', value: 'matrix-full-token-0001', zones: 'all', accounts: 'all', permissions: 'edit' },
    // the shapes of issue 23: only zones, only accounts (the fixtures fill in the other side)
    { name: 'zone-a', value: 'matrix-zone-a-token-01', zones: [ZONE_A], permissions: 'edit' },
    { name: 'account-a', value: 'matrix-account-a-tok-1', accounts: [ACC_A], permissions: 'edit' },
    { name: 'read-a', value: 'matrix-read-a-token-01', accounts: [ACC_A], permissions: 'read' },
    // names a zone of B but only account A: the zone is not reached through any account it names
    { name: 'b-zone-a-account', value: 'matrix-mismatch-token1', zones: [ZONE_B], accounts: [ACC_A] },
  ],
  keys: [{ email: EMAIL, key: KEY, accounts: [ACC_A], permissions: 'edit' }],
};

export interface Credential {
  name: string;
  headers: Record<string, string>;
  /** unknown: a well-formed token nobody issued; missing: no credential headers at all */
  kind: 'token' | 'key' | 'unknown' | 'missing';
  level: 'read' | 'edit';
  /** zone names and account ids the credential must reach, and nothing else */
  zones: string[];
  accounts: string[];
}

const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

export const CREDENTIALS: Credential[] = [
  {
    name: 'full',
    headers: bearer('matrix-full-token-0001'),
    kind: 'token',
    level: 'edit',
    zones: [ZONE_A, ZONE_B],
    accounts: [ACC_A, ACC_B],
  },
  {
    name: 'zone-scoped',
    headers: bearer('matrix-zone-a-token-01'),
    kind: 'token',
    level: 'edit',
    zones: [ZONE_A],
    accounts: [],
  },
  {
    name: 'account-scoped',
    headers: bearer('matrix-account-a-tok-1'),
    kind: 'token',
    level: 'edit',
    zones: [ZONE_A],
    accounts: [ACC_A],
  },
  {
    name: 'read-only',
    headers: bearer('matrix-read-a-token-01'),
    kind: 'token',
    level: 'read',
    zones: [ZONE_A],
    accounts: [ACC_A],
  },
  {
    name: 'zone-outside-account',
    headers: bearer('matrix-mismatch-token1'),
    kind: 'token',
    level: 'edit',
    zones: [],
    accounts: [ACC_A],
  },
  {
    name: 'key pair',
    headers: { 'x-auth-email': EMAIL, 'x-auth-key': KEY },
    kind: 'key',
    level: 'edit',
    zones: [ZONE_A],
    accounts: [ACC_A],
  },
  {
    name: 'unknown',
    headers: bearer('matrix-nobody-issued-this'),
    kind: 'unknown',
    level: 'edit',
    zones: [],
    accounts: [],
  },
  { name: 'missing', headers: {}, kind: 'missing', level: 'edit', zones: [], accounts: [] },
];

/** What the server must answer: the handler is reached, or this status and code. */
export type Expected = 'reached' | { status: number; code: number };

const FORBIDDEN = { status: 403, code: 10000 } as const;

/** The oracle: a route (with its zone or account target) called with a credential. */
export function expected(
  c: Credential,
  route: RouteInfo,
  target: { zone?: { name: string; account: string }; account?: string },
): Expected {
  if (route.area === 'public') return 'reached';
  if (c.kind === 'missing') return { status: 400, code: 9106 };
  if (c.kind === 'unknown') return { status: 401, code: 10000 };
  if (c.kind === 'key' && route.tokenOnly) return FORBIDDEN;
  if (route.area !== 'any' && route.access === 'edit' && c.level === 'read') return FORBIDDEN;
  if (route.scope === 'zone' && !c.zones.includes(target.zone!.name)) return FORBIDDEN;
  if (route.scope === 'account' && !c.accounts.includes(target.account!)) return FORBIDDEN;
  return 'reached';
}

/** The handler answered: not refused by authentication or scope, and no crash. */
export function wasReached(status: number, body: any, text: string): boolean {
  if (status === 204 && text === '') return true;
  const code = body?.errors?.[0]?.code;
  if (status === 401 || status === 403 || status >= 500) return false;
  if (status === 400 && code === 9106) return false;
  return typeof body?.success === 'boolean';
}
