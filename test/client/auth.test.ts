import { afterEach, describe, expect, it } from 'vitest';
import {
  authFromEnv,
  createClientFromEnv,
  DEFAULT_BASE_URL,
  parseRateLimit,
  resolveBaseUrl,
} from '../../src/client/index.js';
import { UserError } from '../../src/errors.js';
import { clearSecrets, redact } from '../../src/redact.js';
import { ok, startServer } from './server.js';

afterEach(() => clearSecrets());

function userError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return (error as Error).message;
  }
  throw new Error('expected a UserError');
}

describe('authFromEnv', () => {
  it('prefers the token and registers it as a secret', () => {
    const env = {
      CLOUDFLARE_API_TOKEN: ' tok-abcdef-123 ',
      CLOUDFLARE_EMAIL: 'a@b.example',
      CLOUDFLARE_API_KEY: 'k123456',
    };
    expect(authFromEnv(env)).toEqual({ kind: 'token', token: 'tok-abcdef-123' });
    expect(redact('x tok-abcdef-123 k123456 a@b.example')).toBe(
      'x [REDACTED] [REDACTED] (from env CLOUDFLARE_EMAIL)',
    );
  });

  it('takes an e-mail and key pair', () => {
    expect(authFromEnv({ CLOUDFLARE_EMAIL: 'ops@example.com', CLOUDFLARE_API_KEY: 'key-123456' })).toEqual({
      kind: 'key',
      email: 'ops@example.com',
      key: 'key-123456',
    });
  });

  it('names the missing half of a pair', () => {
    expect(userError(() => authFromEnv({ CLOUDFLARE_EMAIL: 'ops@example.com' }))).toBe(
      'CLOUDFLARE_EMAIL is set but CLOUDFLARE_API_KEY is not: set both, or set CLOUDFLARE_API_TOKEN',
    );
    expect(userError(() => authFromEnv({ CLOUDFLARE_API_KEY: 'key-123456', CLOUDFLARE_EMAIL: '' }))).toBe(
      'CLOUDFLARE_API_KEY is set but CLOUDFLARE_EMAIL is not: set both, or set CLOUDFLARE_API_TOKEN',
    );
  });

  it('returns undefined without credentials, and refuses a token that cannot be a header', () => {
    expect(authFromEnv({})).toBeUndefined();
    expect(authFromEnv({ CLOUDFLARE_API_TOKEN: '   ' })).toBeUndefined();
    const message = userError(() => authFromEnv({ CLOUDFLARE_API_TOKEN: 'abc def-secret' }));
    expect(message).toBe(
      'CLOUDFLARE_API_TOKEN contains spaces or characters that cannot be sent in an HTTP header',
    );
  });
});

describe('resolveBaseUrl', () => {
  it('takes --api-url, then CLOUDFLARE_BASE_URL, then the real API, trimming trailing slashes', () => {
    const env = { CLOUDFLARE_BASE_URL: 'http://127.0.0.1:8787/client/v4/' };
    expect(resolveBaseUrl({ apiUrl: 'https://api.example.test/api/v4//', env })).toBe(
      'https://api.example.test/api/v4',
    );
    expect(resolveBaseUrl({ env })).toBe('http://127.0.0.1:8787/client/v4');
    expect(resolveBaseUrl({ env: {} })).toBe(DEFAULT_BASE_URL);
    expect(DEFAULT_BASE_URL).toBe('https://api.cloudflare.com/client/v4');
  });

  it('refuses what is not an http(s) URL, naming where it came from', () => {
    expect(userError(() => resolveBaseUrl({ apiUrl: 'ftp://example.com/client/v4', env: {} }))).toBe(
      '--api-url "ftp://example.com/client/v4" is not an http(s) URL; expected e.g. https://api.cloudflare.com/client/v4',
    );
    expect(userError(() => resolveBaseUrl({ env: { CLOUDFLARE_BASE_URL: 'localhost:8787' } }))).toMatch(
      /^CLOUDFLARE_BASE_URL "localhost:8787" is not an http\(s\) URL/,
    );
    expect(userError(() => resolveBaseUrl({ apiUrl: 'not a url', env: {} }))).toMatch(
      /^--api-url "not a url" is not a URL/,
    );
    expect(userError(() => resolveBaseUrl({ apiUrl: 'http://x.test/v4?token=abc123456', env: {} }))).toBe(
      '--api-url "http://x.test/v4?token=[REDACTED]" must not have a query string or fragment',
    );
    expect(userError(() => resolveBaseUrl({ apiUrl: 'https://me:pw123456@x.test/v4', env: {} }))).toBe(
      '--api-url must not carry credentials; use CLOUDFLARE_API_TOKEN instead',
    );
  });
});

describe('parseRateLimit', () => {
  it('reads REQUESTS/SECONDS', () => {
    expect(parseRateLimit('1200/300')).toEqual({ requests: 1200, perSeconds: 300 });
    expect(parseRateLimit(' 10 / 0.5 ')).toEqual({ requests: 10, perSeconds: 0.5 });
  });

  it('reads a share of the API budget (1200 per 300 s) as PERCENT%', () => {
    expect(parseRateLimit('50%')).toEqual({ requests: 600, perSeconds: 300, share: 0.5 });
    expect(parseRateLimit(' 12.5 % ')).toEqual({ requests: 150, perSeconds: 300, share: 0.125 });
    expect(parseRateLimit('100%')).toEqual({ requests: 1200, perSeconds: 300, share: 1 });
  });

  it('refuses anything else with an example, naming where it came from', () => {
    for (const bad of ['1200', '0/300', '10/0', 'a/b', '-1/5', '1.5/2', '', '%', '-5%', '50 %%']) {
      expect(userError(() => parseRateLimit(bad))).toBe(
        `--rate-limit ${JSON.stringify(bad)} is not REQUESTS/SECONDS with both above zero (e.g. 1200/300) ` +
          "nor a share of the API's budget (e.g. 50%)",
      );
    }
    for (const bad of ['0%', '101%', '0.05%']) {
      expect(userError(() => parseRateLimit(bad, 'ZONEPLAN_RATE_LIMIT'))).toBe(
        `ZONEPLAN_RATE_LIMIT ${JSON.stringify(bad)}: a share of the API's budget must be above 0% and ` +
          'at most 100%, and leave at least 1 request per 300 s (e.g. 50%)',
      );
    }
  });
});

describe('createClientFromEnv', () => {
  it('wires base URL, credentials and rate limit from the environment and flags', async () => {
    const server = await startServer((req, res) => ok(res, []));
    const client = createClientFromEnv({
      env: { CLOUDFLARE_BASE_URL: 'http://192.0.2.1:9/client/v4', CLOUDFLARE_API_TOKEN: 'tok-from-env-1' },
      apiUrl: server.baseUrl + '/',
      rateLimit: '100/1',
    });
    expect(client.baseUrl).toBe(server.baseUrl);
    await client.request('GET', '/zones');
    expect(server.seen[0]!.headers.authorization).toBe('Bearer tok-from-env-1');
    expect(server.seen[0]!.headers['user-agent']).toBe('zoneplan');
    await client.close();
    await server.close();
  });

  it('fails before any request on a bad flag', () => {
    expect(userError(() => createClientFromEnv({ env: {}, rateLimit: 'fast' }))).toMatch(
      /^--rate-limit "fast"/,
    );
  });
});
