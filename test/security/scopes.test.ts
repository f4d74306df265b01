/**
 * Scopes, as a table test over every route of the local API (read from the server's registry):
 * - a token for zone A reaches nothing of zone B and no account resource;
 * - a token for account A reaches no zone and nothing of account B;
 * - a read-only token cannot write anywhere;
 * - an e-mail/key pair cannot reach the token-only areas (Page Shield, WAF, rulesets, load balancers).
 * Every refusal is 403 code 10000 in the envelope, and the whole store is byte-identical after all the
 * refused requests (nothing was half-done before the refusal).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../src/server/app.js';
import { AREA_MODULES } from '../../src/server/areas/index.js';
import { startTestServer, type TestServer } from '../server/helpers.js';
import { concretePath, routeName, routeTable, type RouteInfo } from './routes.js';
import { dumpStore } from './store-dump.js';

const ACC_A = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const ACC_B = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const FULL = 'scope-full-token-000001';
const ZONE_A = 'scope-zone-a-token-0001';
const READ_A = 'scope-read-a-token-0001';
const ACCOUNT_A = 'scope-account-a-token-1';
const EMAIL = 'ops@scope.example';
const KEY = 'scope-global-key-000001';

const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
const KEY_AUTH = { 'x-auth-email': EMAIL, 'x-auth-key': KEY };

let t: TestServer;
let routes: RouteInfo[];
let zoneA: string;
let zoneB: string;

beforeAll(async () => {
  t = await startTestServer({
    fixtures: {
      accounts: [
        { id: ACC_A, name: 'A' },
        { id: ACC_B, name: 'B', pools: [{ name: 'b-pool', notification_email: 'b@scope.example' }] },
      ],
      zones: [
        {
          name: 'a.scope.example',
          account: ACC_A,
          plan: 'enterprise',
          records: [{ name: '@', type: 'A', content: '192.0.2.1' }],
        },
        {
          name: 'b.scope.example',
          account: ACC_B,
          plan: 'enterprise',
          records: [{ name: '@', type: 'A', content: '192.0.2.2' }],
        },
      ],
      tokens: [
        { name: 'full', value: FULL, zones: 'all', accounts: 'all', permissions: 'edit' },
        { name: 'zone-a', value: ZONE_A, zones: ['a.scope.example'], accounts: [], permissions: 'edit' },
        { name: 'read-a', value: READ_A, zones: ['a.scope.example'], accounts: [ACC_A], permissions: 'read' },
        { name: 'account-a', value: ACCOUNT_A, zones: [], accounts: [ACC_A], permissions: 'edit' },
      ],
      keys: [{ email: EMAIL, key: KEY, zones: 'all', accounts: 'all', permissions: 'edit' }],
    },
  });
  routes = routeTable(new App(t.server.db, AREA_MODULES)).filter((r) => r.area !== 'public');
  const zones = (await t.api('GET', '/zones?per_page=50', undefined, bearer(FULL))).body.result as {
    id: string;
    name: string;
  }[];
  zoneA = zones.find((z) => z.name === 'a.scope.example')!.id;
  zoneB = zones.find((z) => z.name === 'b.scope.example')!.id;
});
afterAll(() => t?.close());

interface Case {
  who: string;
  auth: Record<string, string>;
  route: RouteInfo;
  zone?: string;
  account?: string;
}

async function call(c: Case) {
  const path = concretePath(c.route, { zone: c.zone, account: c.account });
  const body = c.route.method === 'GET' || c.route.method === 'DELETE' ? undefined : {};
  return t.api(c.route.method, path, body, c.auth);
}

/** The requests that must be refused, per credential. */
function forbiddenCases(): Case[] {
  const cases: Case[] = [];
  for (const route of routes) {
    if (route.scope === 'zone') {
      cases.push({ who: 'zone-A token on zone B', auth: bearer(ZONE_A), route, zone: zoneB });
      cases.push({ who: 'account-A token on zone A', auth: bearer(ACCOUNT_A), route, zone: zoneA });
    }
    if (route.scope === 'account') {
      cases.push({ who: 'zone-A token on account A', auth: bearer(ZONE_A), route, account: ACC_A });
      cases.push({ who: 'zone-A token on account B', auth: bearer(ZONE_A), route, account: ACC_B });
      cases.push({ who: 'account-A token on account B', auth: bearer(ACCOUNT_A), route, account: ACC_B });
    }
    if (route.access === 'edit' && route.scope !== 'none')
      cases.push({ who: 'read-only token', auth: bearer(READ_A), route, zone: zoneA, account: ACC_A });
    if (route.tokenOnly)
      cases.push({ who: 'e-mail/key pair', auth: KEY_AUTH, route, zone: zoneA, account: ACC_A });
  }
  return cases;
}

describe('the route table', () => {
  it('is read from the registry and declares what the spec requires of each path', () => {
    expect(routes.length).toBeGreaterThan(50);
    for (const r of routes) {
      // the areas the spec reserves for tokens, judged from the path, not from the route's own claim
      const tokenOnlyByPath =
        /\/(page_shield|waf_migration|firewall\/waf|rulesets|load_balancers)(\/|$)/.test(r.path);
      expect(r.tokenOnly, `${routeName(r)} token-only`).toBe(tokenOnlyByPath);
      if (r.method !== 'GET') expect(r.access, `${routeName(r)} is a write`).toBe('edit');
      if (r.path.startsWith('/zones/:zone_id/')) expect(r.scope).toBe('zone');
      if (r.path.startsWith('/accounts/:account_id/')) expect(r.scope).toBe('account');
    }
  });
});

describe('refused requests', () => {
  it('answer 403 code 10000 on every route, for every credential out of scope, and change nothing', async () => {
    const before = dumpStore(t.server.db);
    const cases = forbiddenCases();
    expect(cases.length).toBeGreaterThan(150);
    const wrong: string[] = [];
    for (const c of cases) {
      const res = await call(c);
      const code = res.body?.errors?.[0]?.code;
      if (res.status !== 403 || code !== 10000 || res.body.success !== false || res.body.result !== null)
        wrong.push(`${c.who}: ${routeName(c.route)} -> ${res.status} ${res.text.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
    expect(dumpStore(t.server.db)).toEqual(before);
  });

  it('a zone-A token lists only zone A and no account; it cannot create a zone in any account', async () => {
    // the scoped credentials do work where they reach, so the 403s above are about scope
    expect((await t.api('GET', `/zones/${zoneA}/dns_records`, undefined, bearer(ZONE_A))).status).toBe(200);
    expect(
      (await t.api('GET', `/accounts/${ACC_A}/load_balancers/pools`, undefined, bearer(ACCOUNT_A))).status,
    ).toBe(200);
    expect((await t.api('GET', `/zones/${zoneA}/dns_records`, undefined, bearer(READ_A))).status).toBe(200);
    const zones = await t.api('GET', '/zones?per_page=50', undefined, bearer(ZONE_A));
    expect(zones.body.result.map((z: { name: string }) => z.name)).toEqual(['a.scope.example']);
    const byName = await t.api('GET', '/zones?name=b.scope.example', undefined, bearer(ZONE_A));
    expect(byName.body.result).toEqual([]);
    const accounts = await t.api('GET', '/accounts', undefined, bearer(ZONE_A));
    expect(accounts.body.result).toEqual([]);
    for (const account of [ACC_A, ACC_B]) {
      const res = await t.api(
        'POST',
        '/zones',
        { name: `new-${account.slice(0, 1)}.scope.example`, account: { id: account } },
        bearer(ZONE_A),
      );
      expect(res.status, res.text).toBe(403);
    }
    const accountB = await t.api(
      'POST',
      '/zones',
      { name: 'new.scope.example', account: { id: ACC_B } },
      bearer(ACCOUNT_A),
    );
    expect(accountB.status, accountB.text).toBe(403);
  });
});

describe('allowed requests', () => {
  it('reach the handler (never 403, never 500) for a credential in scope', async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      if (route.scope === 'none') continue;
      const allowed: Case[] = [{ who: 'full token', auth: bearer(FULL), route, zone: zoneA, account: ACC_A }];
      if (route.access === 'read')
        allowed.push({ who: 'read-only token', auth: bearer(READ_A), route, zone: zoneA, account: ACC_A });
      if (!route.tokenOnly)
        allowed.push({ who: 'e-mail/key pair', auth: KEY_AUTH, route, zone: zoneA, account: ACC_A });
      for (const c of allowed) {
        // DELETE of the zone itself would end the test bed
        if (route.method === 'DELETE' && route.path === '/zones/:zone_id') continue;
        const res = await call(c);
        if (res.status === 403 || res.status >= 500 || typeof res.body?.success !== 'boolean')
          if (!(res.status === 204 && res.text === ''))
            wrong.push(`${c.who}: ${routeName(route)} -> ${res.status} ${res.text.slice(0, 160)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
