import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, createClientFromEnv } from '../../src/client/index.js';
import { clearSecrets } from '../../src/redact.js';
import { useStubApi } from '../support/stub-api.js';
import { fail, ok, refusedBaseUrl, startServer } from './server.js';

const TOKEN = 'Zq9-token-7f3b2c1d9e8a7b6c5d4e3f2a1b0c';
const EMAIL = 'admin-secret@example.net';
const KEY = '0123456789abcdef0123456789abcdef01234';
const QUERY_TOKEN = 'qs-token-5a4b3c2d1e0f';

const { keep } = useStubApi();

afterEach(() => clearSecrets());

/** A careless server (or proxy) that echoes the credentials and the URL it got into its error. */
function echoingServer() {
  return startServer((req, res, i) => {
    if (i % 2 === 1) return ok(res, []);
    const echoed = `auth=${req.headers.authorization ?? ''} email=${req.headers['x-auth-email'] ?? ''} key=${req.headers['x-auth-key'] ?? ''} url=${req.url}`;
    fail(res, 403, [{ code: 10000, message: `Authentication error: ${echoed}` }]);
  });
}

/** Everything the user would see: the verbose log lines and the error line the CLI prints. */
async function printedText(
  env: Record<string, string>,
  path: string,
  query: Record<string, string>,
): Promise<string> {
  const lines: string[] = [];
  const client = keep(createClientFromEnv({ env, log: (line) => lines.push(line) }));
  const error = await client.request('GET', path, { query }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  await client.request('GET', path, { query });
  lines.push((error as ApiError).message);
  return lines.join('\n');
}

describe('secrets never printed', () => {
  it('redacts a token from errors and from the verbose log', async () => {
    const server = keep(await echoingServer());
    const text = await printedText(
      { CLOUDFLARE_API_TOKEN: TOKEN, CLOUDFLARE_BASE_URL: server.baseUrl },
      '/zones',
      { token: QUERY_TOKEN, name: 'example.com' },
    );
    expect(server.seen[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`); // it was really sent
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(QUERY_TOKEN);
    expect(text).toContain('GET /zones?token=[REDACTED]&name=example.com 403');
    expect(text).toContain('GET /zones?token=[REDACTED]&name=example.com 200');
    expect(text).toMatch(/^GET \/zones -> 403 10000 Authentication error: auth=Bearer \[REDACTED\] /m);
  });

  it('redacts an e-mail and key pair and key-like query parameters', async () => {
    const server = keep(await echoingServer());
    const text = await printedText(
      { CLOUDFLARE_EMAIL: EMAIL, CLOUDFLARE_API_KEY: KEY, CLOUDFLARE_BASE_URL: server.baseUrl },
      '/zones/023e105f4ecef8ad9ca31a8372d0c353/logpush/ownership',
      { access_key: 'AKIAEXAMPLEKEY123', region: 'us-east-1' },
    );
    expect(server.seen[0]!.headers['x-auth-key']).toBe(KEY);
    for (const secret of [EMAIL, KEY, 'AKIAEXAMPLEKEY123']) expect(text).not.toContain(secret);
    expect(text).toContain('email=(from env CLOUDFLARE_EMAIL) key=[REDACTED]');
    expect(text).toContain('GET /zones/:id/logpush/ownership?access_key=[REDACTED]&region=us-east-1 403');
  });

  it('logs one line per request: method, templated path, status, ms, retries; no body, no headers', async () => {
    const server = keep(await startServer((req, res, i) => (i === 0 ? fail(res, 503, []) : ok(res, []))));
    const lines: string[] = [];
    const client = keep(
      createClientFromEnv({
        env: { CLOUDFLARE_API_TOKEN: TOKEN, CLOUDFLARE_BASE_URL: server.baseUrl },
        log: (line) => lines.push(line),
        backoffBaseMs: 1,
      }),
    );
    await client.request('PUT', '/zones/023e105f4ecef8ad9ca31a8372d0c353/page_shield', {
      body: { enabled: true },
    });
    await client.request('GET', '/zones/023e105f4ecef8ad9ca31a8372d0c353/dns_records', {
      query: { per_page: 5000000 },
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^PUT \/zones\/:id\/page_shield 200 \d+ms retries=1$/);
    expect(lines[1]).toMatch(/^GET \/zones\/:id\/dns_records\?per_page=5000000 200 \d+ms$/);
  });

  it('logs a failed connection with its code instead of a status', async () => {
    const lines: string[] = [];
    const client = keep(
      createClientFromEnv({
        env: { CLOUDFLARE_API_TOKEN: TOKEN, CLOUDFLARE_BASE_URL: await refusedBaseUrl() },
        log: (line) => lines.push(line),
        backoffBaseMs: 1,
      }),
    );
    const error = (await client.request('DELETE', '/zones/42').catch((e: unknown) => e)) as ApiError;
    expect(error.message).toMatch(
      /^DELETE \/zones\/:id -> connection failed: ECONNREFUSED \(http:\/\/127\.0\.0\.1:\d+\)/,
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^DELETE \/zones\/:id ECONNREFUSED \d+ms retries=4$/);
    expect(lines.join('\n') + error.message).not.toContain(TOKEN);
  });
});
