/**
 * The hostile bodies and queries of the adversarial probe, as a repeatable test through real HTTP
 * against a local API on 127.0.0.1:0: bodies nested thousands of levels deep in the fields that
 * stored them (a pool's notification_filter, an origin's extra field, DNS settings, a ruleset's
 * action_parameters), hundreds of tag filters, lone UTF-16 surrogates and bytes that are not UTF-8,
 * client-made fields on pools, a query over the header limit, malformed requests, and HEAD. Each is
 * answered with the error envelope (never a 500, never an empty body), refused requests leave the
 * store byte for byte as it was, and the server keeps serving.
 */
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerClientErrors } from '../../src/server/http/protocol.js';
import { MAX_FILTER_VALUES } from '../../src/server/http/query-limits.js';
import { MAX_NESTING_DEPTH } from '../../src/rules/shared/nesting.js';
import { startTestServer, type ApiResponse, type TestServer } from '../server/helpers.js';
import { dumpStore } from './store-dump.js';

const ACCOUNT = '0123456789abcdef0123456789abcdef';

let t: TestServer;
let zone: string;
let pool: string;

beforeAll(async () => {
  t = await startTestServer({
    fixtures: {
      accounts: [
        { id: ACCOUNT, name: 'Hostile', pools: [{ name: 'p1', notification_email: 'a@h.example' }] },
      ],
      zones: [
        {
          name: 'hostile.example',
          account: ACCOUNT,
          plan: 'enterprise',
          records: [
            { name: '@', type: 'A', content: '192.0.2.1', tags: ['team:web'] },
            { name: 'www', type: 'CNAME', content: 'hostile.example', tags: ['team:web', 'tier:1'] },
          ],
          waf: {
            migration_state: 'default',
            packages: [{ name: 'pkg', groups: [{ name: 'g', rules: [{ description: 'r' }] }] }],
          },
        },
      ],
    },
  });
  zone = (await t.api('GET', '/zones?name=hostile.example')).body.result[0].id;
  pool = (await t.api('GET', `/accounts/${ACCOUNT}/load_balancers/pools`)).body.result[0].id;
});
afterAll(() => t?.close());

/** `{"a":{"a":...1...}}` as text, `levels` objects deep (built as text: JSON.stringify would overflow). */
const deepText = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

/** The answer is the error envelope with this status, and the server still answers the next request. */
async function expectRefused(res: ApiResponse, status: number): Promise<void> {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.body).toMatchObject({ success: false, result: null, messages: [] });
  expect(res.body.errors.length).toBeGreaterThan(0);
  const health = await fetch(t.url.replace(/\/client\/v4$/, '/__zoneplan/health'));
  expect(health.status).toBe(200);
}

describe('bodies nested past the limit', () => {
  const z = () => `/zones/${zone}`;
  const origin = '{"name":"o","address":"192.0.2.9"}';
  const cases: [string, string, () => string, (deep: string) => string, string][] = [
    [
      "a pool's notification_filter",
      'POST',
      () => `/accounts/${ACCOUNT}/load_balancers/pools`,
      (deep) => `{"name":"deep1","origins":[${origin}],"notification_filter":${deep}}`,
      '/notification_filter/a/a',
    ],
    [
      "an origin's extra field",
      'POST',
      () => `/accounts/${ACCOUNT}/load_balancers/pools`,
      (deep) => `{"name":"deep2","origins":[{"name":"o","address":"192.0.2.9","extra":${deep}}]}`,
      '/origins/0/extra/a/a',
    ],
    [
      'DNS settings',
      'POST',
      () => `${z()}/dns_records`,
      (deep) => `{"name":"deep","type":"A","content":"192.0.2.5","settings":${deep}}`,
      '/settings/a/a',
    ],
    [
      "a ruleset rule's action_parameters",
      'PUT',
      () => `${z()}/rulesets/phases/http_request_firewall_custom/entrypoint`,
      (deep) => `{"rules":[{"action":"skip","expression":"true","action_parameters":${deep}}]}`,
      '/rules/0/action_parameters/a/a',
    ],
  ];

  for (const [what, method, path, body, pointerStart] of cases) {
    it(`5,000 levels in ${what}: 400 naming the limit and where, nothing stored`, async () => {
      const before = dumpStore(t.server.db);
      const res = await t.raw(method, path(), body(deepText(5000)));
      await expectRefused(res, 400);
      const [error] = res.body.errors;
      expect(error.code).toBe(1000);
      expect(error.message).toContain(`limit of ${MAX_NESTING_DEPTH} levels`);
      expect(error.source.pointer.startsWith(pointerStart)).toBe(true);
      // the first value past the limit: the body is level 1, so its pointer has MAX_NESTING_DEPTH steps
      expect(error.source.pointer.split('/').length - 1).toBe(MAX_NESTING_DEPTH);
      expect(error.message).toContain(error.source.pointer);
      expect(dumpStore(t.server.db)).toEqual(before);
    });
  }

  it("the limit is the CLI files' one: a value at level 64 passes the check, at level 65 it does not", async () => {
    // description must be a string: both bodies are refused, but only the deeper one for nesting
    const atLimit = await t.raw(
      'POST',
      `/accounts/${ACCOUNT}/load_balancers/pools`,
      `{"name":"x","origins":[${origin}],"description":${deepText(MAX_NESTING_DEPTH - 2)}}`,
    );
    expect(atLimit.status).toBe(400);
    expect(atLimit.text).not.toContain('nests deeper');
    expect(atLimit.body.errors[0].source.pointer).toBe('/description');
    const past = await t.raw(
      'POST',
      `/accounts/${ACCOUNT}/load_balancers/pools`,
      `{"name":"x","origins":[${origin}],"description":${deepText(MAX_NESTING_DEPTH - 1)}}`,
    );
    await expectRefused(past, 400);
    expect(past.body.errors[0].message).toContain('nests deeper');
  });

  it('a whole body of 5,000,000 brackets is refused on the text, quickly', async () => {
    const started = Date.now();
    const res = await t.raw('POST', `${z()}/dns_records`, '['.repeat(5_000_000));
    await expectRefused(res, 400);
    expect(res.body.errors[0].source.pointer).toBe('/0'.repeat(MAX_NESTING_DEPTH));
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('list filters with many values', () => {
  const records = () => `/zones/${zone}/dns_records`;
  const tags = (n: number, param = 'tag') => Array.from({ length: n }, (_, i) => `${param}=t${i}`).join('&');

  it('934 tag filters (a 500 from SQLite before): 400 naming tag and the limit', async () => {
    const res = await t.api('GET', `${records()}?${tags(934)}`);
    await expectRefused(res, 400);
    expect(res.body.errors[0].code).toBe(1000);
    expect(res.body.errors[0].message).toMatch(
      new RegExp(`^The query parameter tag .* has 934 values; at most ${MAX_FILTER_VALUES} are accepted\\.$`),
    );
  });

  it(`${MAX_FILTER_VALUES} tag filters still work; one more of any tag form is refused`, async () => {
    const all = await t.api('GET', `${records()}?${tags(MAX_FILTER_VALUES)}&tag_match=any`);
    expect(all.status).toBe(200);
    const webOnly = await t.api(
      'GET',
      `${records()}?${tags(MAX_FILTER_VALUES - 1)}&tag=team:web&tag_match=any`,
    );
    expect(webOnly.body.result_info.total_count).toBe(2);
    const mixed = await t.api('GET', `${records()}?${tags(60)}&${tags(41, 'tag.present')}`);
    await expectRefused(mixed, 400);
    expect(mixed.body.errors[0].message).toContain('has 101 values');
  });

  it('a type list over the limit, and Page Shield comma lists over it: 400 naming the parameter', async () => {
    const types = Array.from({ length: MAX_FILTER_VALUES + 1 }, () => 'A').join(',');
    const res = await t.api('GET', `${records()}?type=${types}`);
    await expectRefused(res, 400);
    expect(res.body.errors[0].message).toBe(
      `The query parameter type has ${MAX_FILTER_VALUES + 1} values; at most ${MAX_FILTER_VALUES} are accepted.`,
    );
    const hosts = Array.from({ length: MAX_FILTER_VALUES + 1 }, (_, i) => `h${i}.example`).join(',');
    for (const list of ['scripts', 'connections', 'cookies']) {
      const ps = await t.api('GET', `/zones/${zone}/page_shield/${list}?hosts=${hosts}`);
      await expectRefused(ps, 400);
      expect(ps.body.errors[0].message, list).toContain('The query parameter hosts has 101 values');
    }
  });
});

describe('text that is not Unicode', () => {
  const records = () => `/zones/${zone}/dns_records`;

  it('a lone surrogate escape in a string or a key: 400 naming where, nothing stored', async () => {
    const before = dumpStore(t.server.db);
    const value = await t.raw('POST', records(), '{"name":"s","type":"TXT","content":"ab\\ud800cd"}');
    await expectRefused(value, 400);
    expect(value.body.errors[0].code).toBe(6007);
    expect(value.body.errors[0].source.pointer).toBe('/content');
    expect(value.body.errors[0].message).toContain('surrogate');
    const low = await t.raw('POST', records(), '{"name":"s","type":"TXT","content":"\\udc00\\ud800"}');
    expect(low.body.errors[0].source.pointer).toBe('/content');
    const key = await t.raw(
      'POST',
      records(),
      '{"name":"s","type":"TXT","content":"x","tags":{"\\ud800":1}}',
    );
    await expectRefused(key, 400);
    expect(key.body.errors[0].source.pointer).toBe('/tags/\ud800');
    expect(dumpStore(t.server.db)).toEqual(before);
  });

  it('a surrogate pair is one character: stored and read back the same in every column', async () => {
    const res = await t.raw('POST', records(), '{"name":"emoji","type":"TXT","content":"\\ud83d\\ude00 ok"}');
    expect(res.status, res.text).toBe(200);
    expect(res.body.result.content).toBe('😀 ok');
    const row = t.server.db
      .prepare('SELECT content, json FROM dns_records WHERE id = ?')
      .get(res.body.result.id) as { content: string; json: string };
    expect(row.content).toBe('😀 ok');
    expect(JSON.parse(row.json).content).toBe('😀 ok');
    // an escaped backslash before "ud800" is text, not an escape
    const text = await t.raw('POST', records(), '{"name":"slash","type":"TXT","content":"x\\\\ud800"}');
    expect(text.status, text.text).toBe(200);
    expect(text.body.result.content).toBe('x\\ud800');
  });

  it('bytes that are not UTF-8: 400 naming the offset, nothing stored', async () => {
    const before = dumpStore(t.server.db);
    const head = Buffer.from('{"name":"b","type":"TXT","content":"');
    const body = Buffer.concat([head, Buffer.from([0x61, 0xed, 0xa0, 0x80, 0x62]), Buffer.from('"}')]);
    const res = await fetch(t.url + records(), {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body,
    });
    const parsed = { status: res.status, headers: res.headers, text: await res.text() } as ApiResponse;
    parsed.body = JSON.parse(parsed.text);
    await expectRefused(parsed, 400);
    expect(parsed.body.errors[0].code).toBe(6007);
    expect(parsed.body.errors[0].message).toContain(`offset ${head.length + 1}`);
    expect(dumpStore(t.server.db)).toEqual(before);
  });
});

describe('pools keep only the fields of the API schema', () => {
  const pools = `/accounts/${ACCOUNT}/load_balancers/pools`;

  it('POST, PUT and PATCH drop fields a client made up, at every level, and keep the known ones', async () => {
    const created = await t.api('POST', pools, {
      name: 'made-up',
      evil: { nested: true },
      id: 'f'.repeat(32),
      created_on: '1999-01-01T00:00:00Z',
      origins: [
        { name: 'o', address: '192.0.2.9', secret_extra: 'x', header: { Host: ['h.example'], X: 1 } },
      ],
      origin_steering: { policy: 'hash', other: 1 },
      notification_filter: { origin: { disable: true, noise: 2 }, extra: {} },
      check_regions: ['WEU'],
    });
    expect(created.status, created.text).toBe(200);
    const id = created.body.result.id as string;
    expect(id).not.toBe('f'.repeat(32));
    const read = await t.api('GET', `${pools}/${id}`);
    for (const doc of [created.body.result, read.body.result]) {
      expect(doc.evil).toBeUndefined();
      expect(doc.created_on).not.toBe('1999-01-01T00:00:00Z');
      expect(doc.origins).toEqual([
        { name: 'o', address: '192.0.2.9', enabled: true, weight: 1, header: { Host: ['h.example'] } },
      ]);
      expect(doc.origin_steering).toEqual({ policy: 'hash' });
      expect(doc.notification_filter).toEqual({ origin: { disable: true } });
      expect(doc.check_regions).toEqual(['WEU']);
    }
    const patched = await t.api('PATCH', `${pools}/${id}`, { description: 'd', sneaky: 1 });
    expect(patched.body.result.sneaky).toBeUndefined();
    expect(patched.body.result.description).toBe('d');
    const put = await t.api('PUT', `${pools}/${pool}`, {
      name: 'p1',
      origins: [{ name: 'o', address: '192.0.2.1' }],
      notification_email: 'a@h.example',
      also: 'dropped',
    });
    expect(put.body.result.also).toBeUndefined();
    const stored = t.server.db.prepare('SELECT data FROM lb_pools').all() as { data: string }[];
    for (const field of ['evil', 'secret_extra', 'sneaky', 'also', '"X"', 'noise', '"other"'])
      expect(stored.map((r) => r.data).join('\n')).not.toContain(field);
  });
});

describe('requests node:http refuses before the API sees them', () => {
  /** Sends raw bytes and reads the whole answer until the server closes the connection. */
  function rawRequest(text: string, port = Number(new URL(t.url).port)): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(text));
      let out = '';
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => (out += d));
      socket.on('end', () => resolve(out));
      socket.on('error', reject);
    });
  }

  it('a query over the header limit (16 KB): 431 with the envelope, and the server keeps serving', async () => {
    const res = await fetch(`${t.url}/zones/${zone}/dns_records?name=${'x'.repeat(20_000)}`, {
      headers: { authorization: `Bearer ${t.token}` },
    });
    const text = await res.text();
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = JSON.parse(text);
    expect(body).toMatchObject({ success: false, result: null, messages: [] });
    expect(body.errors[0].code).toBe(6003);
    expect(body.errors[0].message).toMatch(/larger than the limit \(\d+ bytes\)\.$/);
    expect((await t.api('GET', '/zones')).status).toBe(200);
  });

  it('a request that does not arrive in time: 408 with the envelope (a server with short timeouts)', async () => {
    // startServer keeps node's timeouts (60 s for headers, 300 s in all); the handler is the same
    const server = createServer({
      headersTimeout: 200,
      requestTimeout: 200,
      connectionsCheckingInterval: 50,
    });
    answerClientErrors(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await rawRequest('GET /client/v4/zones HTTP/1.1\r\nHost: x\r\n', port);
      const [head, body] = answer.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 408 /);
      expect(JSON.parse(body)).toMatchObject({ success: false, result: null, errors: [{ code: 6003 }] });
    } finally {
      server.close();
    }
  });

  it('a malformed request: 400 with the envelope', async () => {
    const answer = await rawRequest('GET /client/v4/zones HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n');
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(body)).toMatchObject({ success: false, result: null, errors: [{ code: 6003 }] });
    expect((await t.api('GET', '/zones')).status).toBe(200);
  });
});

describe('HEAD', () => {
  async function both(path: string, headers: Record<string, string>) {
    const get = await fetch(t.url + path, { headers });
    const getText = await get.text();
    const head = await fetch(t.url + path, { method: 'HEAD', headers });
    return { get, getText, head, headText: await head.text() };
  }
  const auth = () => ({ authorization: `Bearer ${t.token}` });

  it('answers as GET without the body: same status and headers', async () => {
    for (const path of ['/zones', `/zones/${zone}`, `/zones/${zone}/dns_records?type=A`, '/ips']) {
      const { get, head, headText } = await both(path, auth());
      expect(head.status, path).toBe(200);
      expect(head.status).toBe(get.status);
      expect(headText).toBe('');
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    }
  });

  it("an unknown route, or no credential: the error envelope's status and headers, no body", async () => {
    for (const [path, headers, status] of [
      ['/nothing/here', auth(), 404],
      ['/zones', {}, 400],
    ] as const) {
      const { get, getText, head, headText } = await both(path, headers);
      expect(head.status, path).toBe(status);
      expect(get.status).toBe(status);
      expect(JSON.parse(getText).success).toBe(false);
      expect(headText).toBe('');
      expect(head.headers.get('content-type')).toMatch(/^application\/json/);
      expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(getText)));
    }
  });
});
