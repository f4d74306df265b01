/**
 * The authz matrix: every route of the local API (read from the server's registry) x every shape of
 * credential (full, zone-scoped, account-scoped, read-only, a zone outside its account, key pair,
 * unknown, missing) x its own and the other account's zone or account, with each route's method,
 * through real HTTP. The expected answer comes from the hand-written oracle in authz-cases.ts. Every
 * refused request must leave the SQLite store byte-identical. Then the guards every route shares:
 * foreign Host names and the cross-site content types. The test-only routes have their own matrix
 * (test-routes-matrix.test.ts). Prints the case counts quoted in the closing note of issue 23.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../src/server/app.js';
import { AREA_MODULES } from '../../src/server/areas/index.js';
import { Router } from '../../src/server/http/router.js';
import { startTestServer, type TestServer } from '../server/helpers.js';
import {
  ACC_A,
  ACC_B,
  CREDENTIALS,
  MATRIX_FIXTURES,
  ZONE_A,
  ZONE_B,
  expected,
  wasReached,
  type Credential,
  type Expected,
} from './authz-cases.js';
import { rawRequest } from './raw-http.js';
import { concretePath, routeName, routeTable, type RouteInfo } from './routes.js';
import { dumpStore } from './store-dump.js';

let t: TestServer;
let routes: RouteInfo[];
const zoneIds = new Map<string, string>();
const counts: Record<string, number> = {};
const count = (group: string, n: number) => (counts[group] = (counts[group] ?? 0) + n);

beforeAll(async () => {
  t = await startTestServer({ fixtures: MATRIX_FIXTURES, allowedHosts: ['zoneplan.matrix.internal'] });
  routes = routeTable(new App(t.server.db, AREA_MODULES));
  const full = CREDENTIALS[0]!.headers;
  for (const z of (await t.api('GET', '/zones?per_page=50', undefined, full)).body.result)
    zoneIds.set(z.name, z.id);
});
afterAll(async () => {
  // one line for the closing note: how many cases each group ran
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  console.log(
    `authz matrix: ${total} cases (${Object.entries(counts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}); ${routes.length} routes x ${CREDENTIALS.length} credentials`,
  );
  await t?.close();
});

interface Case {
  cred: Credential;
  route: RouteInfo;
  zone?: { name: string; account: string };
  account?: string;
  expect: Expected;
}

/** Every route x credential x target (own account A's side and the other account B's side). */
function cases(): Case[] {
  const out: Case[] = [];
  const sides = [
    { zone: { name: ZONE_A, account: ACC_A }, account: ACC_A },
    { zone: { name: ZONE_B, account: ACC_B }, account: ACC_B },
  ];
  for (const route of routes) {
    for (const cred of CREDENTIALS) {
      for (const side of route.scope === 'none' ? sides.slice(0, 1) : sides) {
        // deleting the zone itself would end the test bed; its refusals are still checked
        const e = expected(cred, route, side);
        if (e === 'reached' && route.method === 'DELETE' && route.path === '/zones/:zone_id') continue;
        out.push({ cred, route, ...side, expect: e });
      }
    }
  }
  return out;
}

async function call(c: Case) {
  const path = concretePath(c.route, { zone: c.zone && zoneIds.get(c.zone.name), account: c.account });
  const body = c.route.method === 'GET' || c.route.method === 'DELETE' ? undefined : {};
  return t.api(c.route.method, path, body, c.cred.headers);
}

const describeCase = (c: Case) =>
  `${c.cred.name} -> ${routeName(c.route)} on ${c.zone?.name ?? ''}/${c.account?.slice(0, 1) ?? ''}`;

describe('the authz matrix', () => {
  it('refuses every request the oracle refuses, with its status and code, and changes nothing', async () => {
    const refused = cases().filter((c) => c.expect !== 'reached');
    const before = dumpStore(t.server.db);
    const wrong: string[] = [];
    for (const c of refused) {
      const res = await call(c);
      const want = c.expect as { status: number; code: number };
      if (
        res.status !== want.status ||
        res.body?.errors?.[0]?.code !== want.code ||
        res.body.success !== false ||
        res.body.result !== null
      )
        wrong.push(
          `${describeCase(c)}: want ${want.status}/${want.code}, got ${res.status} ${res.text.slice(0, 140)}`,
        );
    }
    expect(wrong).toEqual([]);
    expect(dumpStore(t.server.db)).toEqual(before);
    expect(refused.length).toBeGreaterThan(500);
    count('refused', refused.length);
  });

  it('lists exactly the zones and accounts each credential reaches', async () => {
    let n = 0;
    for (const cred of CREDENTIALS.filter((c) => c.kind === 'token' || c.kind === 'key')) {
      const zones = await t.api('GET', '/zones?per_page=50', undefined, cred.headers);
      expect(
        zones.body.result.map((z: { name: string }) => z.name),
        `${cred.name} GET /zones`,
      ).toEqual(cred.zones);
      for (const name of [ZONE_A, ZONE_B]) {
        const byName = await t.api('GET', `/zones?name=${name}`, undefined, cred.headers);
        expect(byName.body.result.length, `${cred.name} GET /zones?name=${name}`).toBe(
          cred.zones.includes(name) ? 1 : 0,
        );
      }
      const accounts = await t.api('GET', '/accounts', undefined, cred.headers);
      expect(
        accounts.body.result.map((a: { id: string }) => a.id).sort(),
        `${cred.name} GET /accounts`,
      ).toEqual([...cred.accounts].sort());
      n += 4;
    }
    count('listings', n);
  });

  it('creates a zone only in an account the credential reaches, with edit rights', async () => {
    const before = dumpStore(t.server.db);
    let n = 0;
    const made: string[] = [];
    for (const cred of CREDENTIALS) {
      for (const account of [ACC_A, ACC_B]) {
        const name = `${cred.name.replace(/[^a-z]/g, '')}-${account.slice(0, 1)}.new.matrix.test`;
        const res = await t.api('POST', '/zones', { name, account: { id: account } }, cred.headers);
        const allowed = cred.level === 'edit' && cred.accounts.includes(account);
        const want = cred.kind === 'missing' ? 400 : cred.kind === 'unknown' ? 401 : allowed ? 200 : 403;
        expect(res.status, `${cred.name} POST /zones in ${account.slice(0, 1)}: ${res.text}`).toBe(want);
        if (allowed) made.push(name);
        n++;
      }
    }
    const after = dumpStore(t.server.db);
    // the allowed creations are the only change
    expect(after.zones.length - before.zones.length).toBe(made.length);
    expect(made.length).toBeGreaterThan(0);
    count('zone creation', n);
  });

  it('lets every request the oracle allows reach its handler (never 401/403, never 500)', async () => {
    const reached = cases().filter((c) => c.expect === 'reached');
    const wrong: string[] = [];
    for (const c of reached) {
      const res = await call(c);
      if (!wasReached(res.status, res.body, res.text))
        wrong.push(`${describeCase(c)}: got ${res.status} ${res.text.slice(0, 140)}`);
    }
    expect(wrong).toEqual([]);
    count('reached', reached.length);
  });
});

describe('methods a path does not declare', () => {
  it('answer 404 code 7000 for every credential, and change nothing', async () => {
    const byPath = new Map<string, Set<string>>();
    const router = new Router();
    for (const r of routes) {
      byPath.set(r.path, (byPath.get(r.path) ?? new Set()).add(r.method));
      router.add({ method: r.method, path: r.path, area: 'public', handler: () => ({}) });
    }
    const before = dumpStore(t.server.db);
    const wrong: string[] = [];
    let n = 0;
    for (const [path, declared] of byPath) {
      const concrete = concretePath({ path }, { zone: zoneIds.get(ZONE_A), account: ACC_A });
      // `GET .../dns_records/batch` is the record route with the id "batch": another route's case
      const undeclared = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).filter(
        (m) => !declared.has(m) && router.match(m, concrete) === null,
      );
      for (const method of undeclared) {
        for (const cred of [CREDENTIALS[0]!, CREDENTIALS[1]!, CREDENTIALS[7]!]) {
          const res = await t.api(method, concrete, method === 'GET' ? undefined : {}, cred.headers);
          n++;
          if (res.status !== 404 || res.body?.errors?.[0]?.code !== 7000)
            wrong.push(`${cred.name}: ${method} ${path} -> ${res.status} ${res.text.slice(0, 120)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(dumpStore(t.server.db)).toEqual(before);
    count('undeclared methods', n);
  });
});

describe('the guards every route shares', () => {
  const origin = () => t.url.replace(/\/client\/v4$/, '');
  const full = () => CREDENTIALS[0]!.headers;

  it('refuses a foreign Host name on every route, before anything else, and changes nothing', async () => {
    const before = dumpStore(t.server.db);
    const wrong: string[] = [];
    for (const route of routes) {
      const path = '/client/v4' + concretePath(route, { zone: zoneIds.get(ZONE_A), account: ACC_A });
      for (const host of ['attacker.example', `rebind.attacker.example:${t.server.port}`]) {
        const body = route.method === 'GET' ? undefined : '{}';
        const res = await rawRequest(
          origin(),
          route.method,
          path,
          { ...full(), host, 'content-type': 'application/json' },
          body,
        );
        if (res.status !== 400 || res.body?.errors?.[0]?.code !== 1000 || !/Host header/.test(res.text))
          wrong.push(`${host} ${routeName(route)} -> ${res.status} ${res.text.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(dumpStore(t.server.db)).toEqual(before);
    count('foreign Host', routes.length * 2);
  });

  it('refuses the cross-site content types on every route that takes a body, and changes nothing', async () => {
    const before = dumpStore(t.server.db);
    const wrong: string[] = [];
    let n = 0;
    for (const route of routes.filter((r) => r.method !== 'GET')) {
      const path = '/client/v4' + concretePath(route, { zone: zoneIds.get(ZONE_A), account: ACC_A });
      for (const type of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        undefined,
      ]) {
        const headers: Record<string, string> = { ...full() };
        if (type) headers['content-type'] = type;
        const res = await rawRequest(origin(), route.method, path, headers, '{"name":"x"}');
        const named = type ? `"${type}"` : 'No Content-Type';
        if (
          res.status !== 400 ||
          res.body?.errors?.[0]?.code !== 1000 ||
          !res.text.includes(named.replace(/"/g, '\\"'))
        )
          wrong.push(`${type} ${routeName(route)} -> ${res.status} ${res.text.slice(0, 120)}`);
        n++;
      }
    }
    expect(wrong).toEqual([]);
    expect(dumpStore(t.server.db)).toEqual(before);
    count('content type', n);
  });

  it('accepts IP addresses, localhost and allowed names as Host, and JSON with parameters', async () => {
    const port = t.server.port;
    const hosts = [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LocalHost:${port}`,
      'localhost',
      `[::1]:${port}`,
      `zoneplan.matrix.internal:${port}`,
      'ZonePlan.Matrix.Internal',
    ];
    for (const host of hosts) {
      const res = await rawRequest(origin(), 'GET', '/client/v4/zones', { ...full(), host });
      expect(res.status, `${host}: ${res.text}`).toBe(200);
    }
    for (const host of [
      'localhost.attacker.example',
      `127.0.0.1.nip.io:${port}`,
      'zoneplan.matrix.internal.evil',
    ]) {
      const res = await rawRequest(origin(), 'GET', '/client/v4/zones', { ...full(), host });
      expect(res.status, `${host}: ${res.text}`).toBe(400);
    }
    const zone = zoneIds.get(ZONE_A)!;
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON;charset=UTF-8',
    ]) {
      const res = await rawRequest(
        origin(),
        'POST',
        `/client/v4/zones/${zone}/dns_records`,
        { ...full(), 'content-type': type },
        JSON.stringify({ type: 'TXT', name: `ct-${hosts.length}-${type.length}`, content: 'json' }),
      );
      expect(res.status, `${type}: ${res.text}`).toBe(200);
    }
    // a body-less write needs no content type
    const empty = await rawRequest(
      origin(),
      'DELETE',
      `/client/v4/zones/${zone}/dns_records/${'f'.repeat(32)}`,
      full(),
    );
    expect(empty.status).toBe(404);
    count('accepted Host and types', hosts.length + 4 + 3 + 1);
  });
});
