/**
 * Bad input against every route of the local API (the route list comes from the server's registry):
 * malformed JSON, wrong types and hostile values in bodies, bad ids in every path parameter, odd
 * query strings, a body over the 10 MB limit. The answer is never a 500 and always the envelope
 * (`success` false with coded errors and `result` null), and the server keeps serving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../src/server/app.js';
import { AREA_MODULES } from '../../src/server/areas/index.js';
import { concretePath, routeName, routeTable, type RouteInfo } from '../security/routes.js';
import { startTestServer, type TestServer } from '../server/helpers.js';
import {
  BAD_IDS,
  BAD_JSON_TEXTS,
  HOSTILE_VALUES,
  hostileBody,
  ODD_QUERIES,
  pick,
  seeded,
} from './hostile.js';

const SEED = Number(process.env.FUZZ_SEED ?? 8008);
const ACCOUNT = '0123456789abcdef0123456789abcdef';

let t: TestServer;
let routes: RouteInfo[];
let zone: string;

beforeAll(async () => {
  t = await startTestServer({
    fixtures: {
      accounts: [
        { id: ACCOUNT, name: 'Fuzz', pools: [{ name: 'p1', notification_email: 'a@fuzz.example' }] },
      ],
      zones: [
        {
          name: 'fuzz.example',
          account: ACCOUNT,
          plan: 'enterprise',
          records: [{ name: '@', type: 'A', content: '192.0.2.1' }],
          waf: {
            migration_state: 'default',
            packages: [{ name: 'pkg', groups: [{ name: 'g', rules: [{ description: 'r' }] }] }],
          },
        },
      ],
    },
  });
  routes = routeTable(new App(t.server.db, AREA_MODULES)).filter(
    // deleting the only zone would turn every later case into a 404
    (r) => !(r.method === 'DELETE' && r.path === '/zones/:zone_id'),
  );
  zone = (await t.api('GET', '/zones?name=fuzz.example')).body.result[0].id;
});
afterAll(() => t?.close());

interface Outcome {
  status: number;
  text: string;
}

/** What is wrong with an answer, or null: no 500, and a well-formed envelope (or a 204 delete). */
function problem(res: Outcome): string | null {
  if (res.status >= 500) return `status ${res.status}`;
  if (res.status === 204) return res.text === '' ? null : '204 with a body';
  let body: any;
  try {
    body = JSON.parse(res.text);
  } catch {
    return 'not JSON';
  }
  if (typeof body?.success !== 'boolean' || !Array.isArray(body.errors) || !Array.isArray(body.messages))
    return 'not the envelope';
  if (!body.success) {
    if (body.result !== null) return 'failure with a result';
    if (
      body.errors.length === 0 ||
      body.errors.some((e: any) => !Number.isInteger(e?.code) || typeof e?.message !== 'string')
    )
      return 'failure without coded errors';
    if (res.status < 400) return `failure with status ${res.status}`;
  }
  return null;
}

async function send(method: string, path: string, body?: string): Promise<Outcome> {
  const res = await fetch(t.url + path, {
    method,
    headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
    body,
  });
  return { status: res.status, text: await res.text() };
}

const writes = () => routes.filter((r) => r.method !== 'GET');
const path = (r: RouteInfo) => concretePath(r, { zone, account: ACCOUNT });

/** Runs the cases 8 at a time (the order does not matter: each must be answered soundly on its own). */
async function expectAllSound(cases: [string, () => Promise<Outcome>][]): Promise<void> {
  const wrong: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const [name, run] = cases[next++];
      const p = problem(await run());
      if (p) wrong.push(`${name}: ${p}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  expect(wrong.sort()).toEqual([]);
  expect((await fetch(t.url.replace(/\/client\/v4$/, '/__zoneplan/health'))).status).toBe(200);
}

describe(`the local API under bad input (seed ${SEED}; replay with FUZZ_SEED=${SEED})`, () => {
  it('malformed and non-object JSON bodies on every write route', async () => {
    const cases: [string, () => Promise<Outcome>][] = [];
    for (const r of writes())
      for (const text of BAD_JSON_TEXTS)
        cases.push([
          `${routeName(r)} body ${JSON.stringify(text.slice(0, 20))}`,
          () => send(r.method, path(r), text),
        ]);
    await expectAllSound(cases);
  }, 60_000);

  it('wrong types and hostile values in the fields every write route reads', async () => {
    const random = seeded(SEED);
    const cases: [string, () => Promise<Outcome>][] = [];
    for (const r of writes())
      for (let i = 0; i < 25; i++) {
        const body = JSON.stringify(hostileBody(random));
        cases.push([`${routeName(r)} #${i} ${body.slice(0, 80)}`, () => send(r.method, path(r), body)]);
      }
    await expectAllSound(cases);
  }, 60_000);

  it('valid bodies with one field at a time replaced by a hostile value (reaches the deep checks)', async () => {
    const random = seeded(SEED + 1);
    const z = `/zones/${zone}`;
    const baselines: [string, string, Record<string, unknown>][] = [
      [
        'POST',
        `${z}/dns_records`,
        { name: 'www', type: 'A', content: '192.0.2.7', ttl: 300, proxied: false },
      ],
      [
        'POST',
        `${z}/dns_records`,
        { name: '_sip._tcp', type: 'SRV', data: { priority: 1, weight: 2, port: 3, target: 'x.example' } },
      ],
      [
        'POST',
        `${z}/dns_records/batch`,
        { posts: [{ name: 'b', type: 'TXT', content: 'x' }], deletes: [], patches: [], puts: [] },
      ],
      ['PUT', `${z}/page_shield`, { enabled: true }],
      [
        'POST',
        `${z}/page_shield/policies`,
        {
          description: 'd',
          action: 'log',
          expression: 'http.host eq "fuzz.example"',
          enabled: true,
          value: "script-src 'self'",
        },
      ],
      [
        'POST',
        `${z}/logpush/jobs`,
        {
          name: 'j',
          dataset: 'http_requests',
          destination_conf: 'https://c.example/x',
          output_options: { field_names: ['ClientIP'] },
          filter: '{"where":{"and":[{"key":"ClientIP","operator":"eq","value":"1"}]}}',
        },
      ],
      ['POST', `${z}/logpush/ownership`, { destination_conf: 's3://b/p?region=us-east-1' }],
      [
        'POST',
        `${z}/firewall/waf/overrides`,
        { urls: ['fuzz.example/*'], rules: { '100000': 'block' }, description: 'o' },
      ],
      [
        'PUT',
        `${z}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=pending&phase_two=1`,
        {
          name: 'n',
          rules: [
            {
              action: 'execute',
              expression: 'true',
              action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' },
            },
          ],
        },
      ],
      [
        'POST',
        `/accounts/${ACCOUNT}/load_balancers/pools`,
        { name: 'p2', origins: [{ name: 'o', address: '192.0.2.9' }] },
      ],
      ['PATCH', `/accounts/${ACCOUNT}/load_balancers/pools`, { notification_email: '' }],
      [
        'POST',
        `/accounts/${ACCOUNT}/alerting/v3/policies`,
        {
          name: 'n',
          alert_type: 'load_balancing_health_alert',
          enabled: true,
          mechanisms: { email: [{ id: 'a@fuzz.example' }] },
          filters: { new_health: ['Healthy'] },
        },
      ],
      ['POST', '/zones', { name: 'new.fuzz.example', account: { id: ACCOUNT }, type: 'full' }],
    ];
    const cases: [string, () => Promise<Outcome>][] = [];
    for (const [method, p, base] of baselines)
      for (const key of Object.keys(base))
        for (let i = 0; i < 6; i++) {
          const body = JSON.stringify({ ...base, [key]: pick(random, HOSTILE_VALUES) });
          cases.push([`${method} ${p} ${key}=${body.slice(0, 60)}`, () => send(method, p, body)]);
        }
    await expectAllSound(cases);
  }, 60_000);

  it('bad ids in every path parameter of every route', async () => {
    const cases: [string, () => Promise<Outcome>][] = [];
    for (const r of routes) {
      const params = r.path.match(/:[a-z_]+/g) ?? [];
      for (const param of params)
        for (const bad of BAD_IDS) {
          const p = path(r).split('/');
          const at = r.path.split('/').indexOf(param);
          p[at] = bad;
          const body = r.method === 'GET' ? undefined : '{}';
          cases.push([
            `${routeName(r)} ${param}=${bad.slice(0, 20)}`,
            () => send(r.method, p.join('/'), body),
          ]);
        }
    }
    await expectAllSound(cases);
  }, 60_000);

  it('odd query strings on every route', async () => {
    const cases: [string, () => Promise<Outcome>][] = [];
    for (const r of routes)
      for (const q of ODD_QUERIES) {
        const body = r.method === 'GET' ? undefined : '{}';
        cases.push([`${routeName(r)}?${q.slice(0, 30)}`, () => send(r.method, `${path(r)}?${q}`, body)]);
      }
    await expectAllSound(cases);
  }, 60_000);

  it('odd credentials on every route: refused in the envelope, never a 500, never a success', async () => {
    const variants: Record<string, string>[] = [
      {},
      { authorization: 'Bearer' },
      { authorization: 'Bearer ' },
      { authorization: `Bearer ${t.token} extra` },
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: `bearer${t.token}` },
      { authorization: `Bearer ${'x'.repeat(8000)}` },
      { authorization: 'Bearer \u00e9\u00e9' },
      { 'x-auth-email': 'ops@example.com' },
      { 'x-auth-key': 'k' },
      { 'x-auth-email': '', 'x-auth-key': '' },
      { 'x-auth-email': 'nobody@example.com', 'x-auth-key': 'wrong-key-0000' },
    ];
    const wrong: string[] = [];
    for (const r of routes.filter((x) => x.area !== 'public'))
      for (const headers of variants) {
        let res: Response;
        try {
          res = await fetch(t.url + path(r), {
            method: r.method,
            headers: { ...headers, 'content-type': 'application/json' },
            body: r.method === 'GET' ? undefined : '{}',
          });
        } catch {
          continue; // a header value fetch itself refuses to send never reaches the server
        }
        const out = { status: res.status, text: await res.text() };
        const p = problem(out) ?? (out.status < 400 ? `accepted with status ${out.status}` : null);
        if (p) wrong.push(`${routeName(r)} ${JSON.stringify(headers).slice(0, 60)}: ${p}`);
      }
    expect(wrong).toEqual([]);
  }, 60_000);

  it('a body over 10 MB is refused with 413 in the envelope', async () => {
    const r = routes.find((x) => x.method === 'POST' && x.path === '/zones/:zone_id/dns_records')!;
    const res = await send(
      'POST',
      path(r),
      JSON.stringify({ name: 'x', type: 'TXT', content: 'a'.repeat(11 * 1024 * 1024) }),
    );
    expect(problem(res)).toBeNull();
    expect(res.status).toBe(413);
  });

  it('unknown routes and methods answer 404 code 7000 in the envelope', async () => {
    for (const [method, p] of [
      ['GET', '/nope'],
      ['PATCH', '/zones'],
      ['GET', `/zones/${zone}/dns_records/a/b/c`],
      ['POST', '/ips'],
    ]) {
      const res = await send(method, p, method === 'GET' ? undefined : '{}');
      expect(problem(res), `${method} ${p}`).toBeNull();
      expect(res.status).toBe(404);
    }
  });
});
