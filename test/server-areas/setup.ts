/**
 * Shared fixtures for the part-2 area tests: one account, zones on each plan tier with the
 * previous WAF and Page Shield data, 60 pools, a full-rights token and an e-mail/key pair.
 */
import { startTestServer, type ApiResponse, type TestServer } from '../server/helpers.js';
import { fetchTestRoute } from '../support/test-routes.js';
import { owaspPackage } from '../support/waf-packages.js';

export const ACCOUNT = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
export const ZONES = {
  pro: '11111111111111111111111111111111',
  enterprise: '22222222222222222222222222222222',
  free: '33333333333333333333333333333333',
  blocked: '44444444444444444444444444444444',
};
export const TOKEN = 'part2-test-token-0123456789';
export const KEY = { email: 'ops@example.com', key: 'part2-test-global-key-0001' };
export const KEY_HEADERS = { 'x-auth-email': KEY.email, 'x-auth-key': KEY.key };
export const BEARER = { authorization: `Bearer ${TOKEN}` };

export const PREVIOUS_WAF = {
  migration_state: 'default',
  firewall_rules: 200,
  longest_firewall_expression: 4096,
  packages: [
    owaspPackage([{ id: '0000000000000000000000000000a002', description: 'Other robot rule', mode: 'on' }]),
  ],
};

function script(n: number, extra: Record<string, unknown> = {}) {
  return {
    url: `https://cdn${n % 3}.example.net/lib-${String(n).padStart(2, '0')}.js`,
    first_seen_at: `2024-01-${String((n % 28) + 1).padStart(2, '0')}T00:00:00Z`,
    last_seen_at: `2024-02-${String((n % 28) + 1).padStart(2, '0')}T00:00:00Z`,
    hash: `${n.toString(16).padStart(4, '0')}`.repeat(16),
    js_integrity_score: 50,
    page_urls: ['https://example.com/', `https://example.com/page-${n}`],
    ...extra,
  };
}

export function fixtures() {
  return {
    accounts: [
      {
        id: ACCOUNT,
        name: 'Part Two',
        pools: Array.from({ length: 60 }, (_, i) => ({
          name: `pool-${String(i).padStart(2, '0')}`,
          notification_email: i % 2 === 0 ? `ops${i}@example.com,noc@example.com` : `ops${i}@example.com`,
        })),
      },
    ],
    zones: [
      {
        id: ZONES.pro,
        name: 'pro.example',
        account: ACCOUNT,
        plan: 'pro',
        waf: PREVIOUS_WAF,
        page_shield: {
          enabled: false,
          scripts: [
            ...Array.from({ length: 30 }, (_, i) => script(i)),
            script(40, { status: 'infrequent' }),
            script(41, { status: 'inactive' }),
            script(42, { url: 'https://pro.example/cdn-cgi/challenge.js' }),
            script(43, { js_integrity_score: 3, first_seen_at: '2023-01-01T00:00:00Z' }),
            script(44, { js_integrity_score: undefined }),
            // same content and host as script 0: a duplicate
            script(0, {
              url: 'https://cdn0.example.net/lib-00-copy.js',
              last_seen_at: '2024-01-01T00:00:00Z',
            }),
          ],
          connections: [
            { url: 'https://api.example.net/collect', first_page_url: 'https://pro.example/checkout' },
            { url: 'https://old.example.net/x', status: 'infrequent' },
          ],
          cookies: [
            {
              name: 'session',
              host: 'pro.example',
              secure_attribute: true,
              same_site_attribute: 'strict',
              page_urls: ['pro.example/'],
            },
            { name: '_ga', host: 'pro.example', secure_attribute: false, same_site_attribute: 'lax' },
          ],
        },
      },
      { id: ZONES.enterprise, name: 'ent.example', account: ACCOUNT, plan: 'enterprise', waf: PREVIOUS_WAF },
      { id: ZONES.free, name: 'free.example', account: ACCOUNT, plan: 'free', waf: PREVIOUS_WAF },
      {
        id: ZONES.blocked,
        name: 'blocked.example',
        account: ACCOUNT,
        plan: 'business',
        waf: {
          ...PREVIOUS_WAF,
          overrides: [
            { urls: ['blocked.example/admin/*'], rules: { f939de3be84e66e757adcdcb87908023: 'disable' } },
          ],
        },
      },
    ],
    tokens: [{ name: 'all', value: TOKEN, zones: 'all', accounts: 'all', permissions: 'edit' }],
    keys: [{ email: KEY.email, key: KEY.key, zones: 'all', accounts: 'all', permissions: 'edit' }],
  };
}

/** A server over a temp SQLite file with the shared fixtures; calls use the fixtures token. */
export async function startAreaServer(): Promise<TestServer> {
  const t = await startTestServer({ fixtures: fixtures() });
  t.token = TOKEN;
  return t;
}

/** A test-only route (under /__zoneplan), called with the run's test-routes token. */
export async function testCall(
  t: TestServer,
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiResponse> {
  const res = await fetchTestRoute(t.server, path, { method, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}
