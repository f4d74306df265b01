/**
 * The test-only routes (/__zoneplan, read from the server's own registration) x the ways they are
 * reached: the flag off; on, without a credential, with an API token (not the admin one), with an
 * unknown one; with the admin credential from a foreign Host or with a cross-site content type;
 * and with the admin credential as intended. Issue 23's reproduction is one of them: a text/plain
 * POST /__zoneplan/fixtures from a foreign Host, with no credential, that created a token. Every
 * refusal leaves the store byte-identical; `GET /__zoneplan/health` is served to anyone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../src/server/app.js';
import { startTestServer, type TestServer } from '../server/helpers.js';
import { ACC_A, MATRIX_FIXTURES, ZONE_A } from './authz-cases.js';
import { rawRequest, type RawAnswer } from './raw-http.js';
import { concretePath, testRouteTable } from './routes.js';
import { dumpStore } from './store-dump.js';

const FULL = { authorization: 'Bearer matrix-full-token-0001' };
const PWN = {
  tokens: [
    { name: 'pwn', value: 'attacker-chosen-token', zones: 'all', accounts: 'all', permissions: 'edit' },
  ],
};

let on: TestServer;
let off: TestServer;
let routes: { method: string; path: string }[];
let zoneA: string;
let total = 0;

beforeAll(async () => {
  on = await startTestServer({ fixtures: MATRIX_FIXTURES });
  off = await startTestServer({ fixtures: MATRIX_FIXTURES, testRoutes: false });
  routes = testRouteTable(new App(on.server.db, []));
  zoneA = (await on.api('GET', `/zones?name=${ZONE_A}`, undefined, FULL)).body.result[0].id;
});
afterAll(async () => {
  console.log(`test-routes matrix: ${total} cases; ${routes.length} test-only routes`);
  await on?.close();
  await off?.close();
});

const origin = (t: TestServer) => t.url.replace(/\/client\/v4$/, '');
const admin = () => ({ authorization: `Bearer ${on.server.testRoutesToken}` });
const isHealth = (r: { method: string; path: string }) => r.method === 'GET' && r.path === '/health';

function send(
  t: TestServer,
  route: { method: string; path: string },
  headers: Record<string, string>,
  contentType = 'application/json',
): Promise<RawAnswer> {
  const path = '/__zoneplan' + concretePath(route, { zone: zoneA, account: ACC_A });
  const body = route.method === 'GET' ? undefined : JSON.stringify(route.path === '/fixtures' ? PWN : {});
  const h = body === undefined ? headers : { 'content-type': contentType, ...headers };
  return rawRequest(origin(t), route.method, path, h, body);
}

interface Condition {
  name: string;
  server: () => TestServer;
  headers: () => Record<string, string>;
  contentType?: string;
  /** the answer every route but health gets */
  status: number;
  code: number;
  message: RegExp;
  /** health is refused too (only the Host check applies to it) */
  health?: boolean;
}

const CONDITIONS: Condition[] = [
  {
    name: 'flag off, no credential',
    server: () => off,
    headers: () => ({}),
    status: 404,
    code: 7000,
    message: /--test-routes/,
  },
  {
    name: 'flag off, API token',
    server: () => off,
    headers: () => FULL,
    status: 404,
    code: 7000,
    message: /--test-routes/,
  },
  {
    name: 'flag on, no credential',
    server: () => on,
    headers: () => ({}),
    status: 400,
    code: 9106,
    message: /test-routes token/,
  },
  {
    name: 'flag on, API token (not admin)',
    server: () => on,
    headers: () => FULL,
    status: 401,
    code: 10000,
    message: /test-routes token/,
  },
  {
    name: 'flag on, unknown token',
    server: () => on,
    headers: () => ({ authorization: 'Bearer zptest_guess' }),
    status: 401,
    code: 10000,
    message: /test-routes token/,
  },
  {
    name: 'flag on, admin, foreign Host',
    server: () => on,
    headers: () => ({ ...admin(), host: 'attacker.example' }),
    status: 400,
    code: 1000,
    message: /Host header/,
    health: true,
  },
  {
    name: 'flag on, admin, text/plain',
    server: () => on,
    headers: admin,
    contentType: 'text/plain',
    status: 400,
    code: 1000,
    message: /text\/plain/,
  },
  {
    name: 'flag on, admin, form',
    server: () => on,
    headers: admin,
    contentType: 'application/x-www-form-urlencoded',
    status: 400,
    code: 1000,
    message: /form-urlencoded/,
  },
  {
    name: 'flag on, admin, multipart',
    server: () => on,
    headers: admin,
    contentType: 'multipart/form-data; boundary=x',
    status: 400,
    code: 1000,
    message: /multipart/,
  },
];

describe('the test-only routes', () => {
  it('are listed from the registry: the core ones and every area’s', () => {
    const names = routes.map((r) => `${r.method} ${r.path}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'GET /health',
        'POST /fixtures',
        'POST /zones/:zone_id/activate',
        'GET /zones/:zone_id/logpush/ownership',
        'POST /accounts/:account_id/load_balancers/pools/:pool_id/health',
        'GET /accounts/:account_id/alerts',
      ]),
    );
  });

  it('refuse every request without the flag, the admin credential, our Host or JSON; nothing changes', async () => {
    const before = { on: dumpStore(on.server.db), off: dumpStore(off.server.db) };
    const wrong: string[] = [];
    let n = 0;
    for (const c of CONDITIONS) {
      for (const route of routes) {
        // a body-less route cannot carry a wrong content type
        if (c.contentType && route.method === 'GET') continue;
        const res = await send(c.server(), route, c.headers(), c.contentType);
        n++;
        if (isHealth(route) && !c.health) {
          if (res.status !== 200) wrong.push(`${c.name}: GET /health -> ${res.status}`);
          continue;
        }
        const code = res.body?.errors?.[0]?.code;
        if (res.status !== c.status || code !== c.code || !c.message.test(res.text))
          wrong.push(`${c.name}: ${route.method} ${route.path} -> ${res.status} ${res.text.slice(0, 160)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(dumpStore(on.server.db)).toEqual(before.on);
    expect(dumpStore(off.server.db)).toEqual(before.off);
    // the token the reproduction tried to create does not exist
    const pwned = await on.api('GET', '/zones', undefined, { authorization: 'Bearer attacker-chosen-token' });
    expect(pwned.status).toBe(401);
    total += n;
  });

  it('serve the admin credential: each route reaches its handler', async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      const res = await send(on, route, admin());
      const code = res.body?.errors?.[0]?.code;
      const refused = res.status === 401 || code === 9106 || code === 7000 || res.status >= 500;
      if (refused || typeof res.body?.success !== 'boolean')
        wrong.push(`${route.method} ${route.path} -> ${res.status} ${res.text.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
    total += routes.length;
  });

  it('accept the dev token as admin while it is a credential, and only then', async () => {
    const t = await startTestServer();
    try {
      const dev = { authorization: `Bearer ${t.token}` };
      const activate = { method: 'POST', path: '/zones/:zone_id/activate' };
      // no zone of that id: the handler answers, so the credential was accepted
      expect((await send(t, activate, dev)).status).toBe(404);
      // fixtures that define credentials retire the dev token, for the API and for these routes
      const loaded = await send(t, { method: 'POST', path: '/fixtures' }, dev);
      expect(loaded.status, loaded.text).toBe(200);
      const after = await send(t, activate, dev);
      expect(after.status, after.text).toBe(401);
      expect((await send(t, activate, { authorization: `Bearer ${t.server.testRoutesToken}` })).status).toBe(
        404,
      );
    } finally {
      await t.close();
    }
    total += 4;
  });
});
