/**
 * Issue 23's reproduction against the built CLI: `zoneplan serve` with fixtures that define
 * tokens, and the curl that created a token of the attacker's choosing (text/plain, a foreign
 * Host, no credential). Without `--test-routes` the route is not served; with it, only the token
 * serve prints at start opens it, and only from our Host with a JSON body. `--allowed-host` adds a
 * name to the Host check.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, spawnCli, startServe, type Serve } from '../support/processes.js';
import { rawRequest } from './raw-http.js';

const FIXTURES = `accounts:
  - { id: 0123456789abcdef0123456789abcdef, name: Team }
zones:
  - { name: serve.test, account: Team }
tokens:
  - { name: ci, value: serve-ci-token-000001, permissions: edit }
`;
const PWN = JSON.stringify({
  tokens: [
    { name: 'pwn', value: 'attacker-chosen-token', zones: 'all', accounts: 'all', permissions: 'edit' },
  ],
});

let dir: string;
const running: Serve[] = [];
beforeAll(() => {
  requireBuild();
  dir = mkdtempSync(join(tmpdir(), 'zoneplan-serve-routes-'));
  writeFileSync(join(dir, 'fixtures.yaml'), FIXTURES);
});
afterAll(async () => {
  for (const s of running) await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function serve(name: string, extraArgs: string[] = []): Promise<{ s: Serve; origin: string }> {
  const s = await startServe({ db: join(dir, `${name}.db`), fixtures: 'fixtures.yaml', cwd: dir, extraArgs });
  running.push(s);
  return { s, origin: s.url.replace(/\/client\/v4$/, '') };
}

/** The curl: text/plain, a foreign Host, no credential, a token of the attacker's choosing. */
const attack = (origin: string, extra: Record<string, string> = {}, host = 'attacker.example') =>
  rawRequest(origin, 'POST', '/__zoneplan/fixtures', { 'content-type': 'text/plain', host, ...extra }, PWN);

const pwnedToken = (origin: string) =>
  rawRequest(origin, 'GET', '/client/v4/zones', { authorization: 'Bearer attacker-chosen-token' });

describe('zoneplan serve and the test-only routes', () => {
  it('without --test-routes: the reproduction gets 404 from any Host, and no token is made', async () => {
    const { s, origin } = await serve('off');
    const port = new URL(origin).port;
    for (const host of ['attacker.example', `127.0.0.1:${port}`]) {
      const res = await attack(origin, { 'content-type': 'application/json' }, host);
      expect(res.status, res.text).toBe(host.startsWith('127') ? 404 : 400);
    }
    const own = await rawRequest(
      origin,
      'POST',
      '/__zoneplan/fixtures',
      { 'content-type': 'application/json' },
      PWN,
    );
    expect(own.status).toBe(404);
    expect(own.body.errors[0]).toMatchObject({ code: 7000 });
    expect(own.body.errors[0].message).toMatch(/zoneplan serve --test-routes/);
    expect((await pwnedToken(origin)).status).toBe(401);
    // health needs neither the flag nor a credential
    expect((await rawRequest(origin, 'GET', '/__zoneplan/health')).status).toBe(200);
    expect(s.output()).not.toMatch(/test-routes token/);
  });

  it('with --test-routes: only the printed token, our Host and JSON load fixtures', async () => {
    const { s, origin } = await serve('on', ['--test-routes', '--allowed-host', 'zoneplan.dev.internal']);
    // the token line follows the listening line
    for (let i = 0; i < 100 && !/test-routes token/.test(s.output()); i++)
      await new Promise((r) => setTimeout(r, 20));
    const token =
      /^test-routes token \(Authorization: Bearer, for \/__zoneplan; this run only\): (zptest_[0-9a-f]+)$/m.exec(
        s.output(),
      )?.[1];
    expect(token, s.output()).toBeDefined();
    const admin = { authorization: `Bearer ${token}` };

    const refusals = [
      { res: await attack(origin), status: 400, message: /Host header "attacker\.example"/ },
      { res: await attack(origin, {}, new URL(origin).host), status: 400, message: /Missing Authorization/ },
      {
        res: await attack(origin, admin, new URL(origin).host),
        status: 400,
        message: /"text\/plain" is not accepted/,
      },
      {
        res: await attack(
          origin,
          { authorization: 'Bearer serve-ci-token-000001', 'content-type': 'application/json' },
          new URL(origin).host,
        ),
        status: 401,
        message: /test-routes token/,
      },
    ];
    for (const r of refusals) {
      expect(r.res.status, r.res.text).toBe(r.status);
      expect(r.res.body.errors[0].message).toMatch(r.message);
    }
    expect((await pwnedToken(origin)).status).toBe(401);

    const loaded = await rawRequest(
      origin,
      'POST',
      '/__zoneplan/fixtures',
      { ...admin, 'content-type': 'application/json' },
      PWN,
    );
    expect(loaded.status, loaded.text).toBe(200);
    expect(loaded.body.result).toMatchObject({ credentials: 1 });
    expect((await pwnedToken(origin)).status).toBe(200);

    // a name given with --allowed-host passes the Host check; others do not
    const port = new URL(origin).port;
    const ci = { authorization: 'Bearer serve-ci-token-000001' };
    expect(
      (await rawRequest(origin, 'GET', '/client/v4/zones', { ...ci, host: `zoneplan.dev.internal:${port}` }))
        .status,
    ).toBe(200);
    expect(
      (await rawRequest(origin, 'GET', '/client/v4/zones', { ...ci, host: `other.internal:${port}` })).status,
    ).toBe(400);
    // the token is a secret: serve printed it once, on its own line
    expect(s.output().split(token!).length - 1).toBe(1);
  });

  it('refuses an --allowed-host that is not a host name, with one clear line', async () => {
    const run = await spawnCli(
      ['serve', '--port', '0', '--db', ':memory:', '--allowed-host', 'http://x.test:80'],
      { cwd: dir },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /--allowed-host must be a host name \(letters, digits, hyphens and dots, no port or scheme\), not "http:\/\/x\.test:80"/,
    );
  });
});
