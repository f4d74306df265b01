/**
 * The printed text of the CLI (in-process, test/support/cli.ts):
 * `--verbose` request lines and the error line, against a server that echoes the credentials back.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { fail, startServer, type TestServer } from './server.js';

const TOKEN = 'cli-token-9f8e7d6c5b4a39281706';
const EMAIL = 'cli-admin@example.org';
const KEY = 'fedcba9876543210fedcba98765432100abcd';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function zoneplan(args: string[], env: Record<string, string>) {
  // no credentials but the test's own: runCli's environment holds only PATH and NO_COLOR
  return runCli(args, { env });
}

function echoingServer() {
  return startServer((req, res) => {
    const { authorization, 'x-auth-email': email, 'x-auth-key': key } = req.headers;
    const echoed = authorization ?? `${String(email)}/${String(key)}`;
    fail(res, 403, [{ code: 10000, message: `Authentication error (${echoed})` }]);
  });
}

describe('zoneplan --verbose (the CLI)', () => {
  it('prints request lines and the error without the token', async () => {
    server = await echoingServer();
    const r = await zoneplan(
      ['--verbose', '--api-url', server.baseUrl, 'page-shield', 'report', 'example.com'],
      {
        CLOUDFLARE_API_TOKEN: TOKEN,
      },
    );
    expect(server.seen[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^GET \/zones\S* 403 \d+ms$/m);
    expect(r.stderr).toMatch(
      /^error: GET \/zones -> 403 10000 Authentication error \(Bearer \[REDACTED\]\)$/m,
    );
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });

  it('prints neither the e-mail nor the key of a key pair', async () => {
    server = await echoingServer();
    // Page Shield needs a token; a Logpush helper works with the e-mail and key.
    const args = [
      '--verbose',
      '--api-url',
      server.baseUrl,
      'logpush',
      'ownership',
      'example.com',
      's3://b/l?region=us-east-1',
    ];
    const r = await zoneplan(args, { CLOUDFLARE_EMAIL: EMAIL, CLOUDFLARE_API_KEY: KEY });
    expect(server.seen[0]!.headers['x-auth-key']).toBe(KEY);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^GET \/zones\S* 403 \d+ms$/m);
    expect(r.stderr).toContain('Authentication error ((from env CLOUDFLARE_EMAIL)/[REDACTED])');
    expect(r.stdout + r.stderr).not.toContain(EMAIL);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });
});
