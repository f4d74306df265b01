/**
 * The printed text of the real CLI (the built binary as a child process, after `npm run build`):
 * `--verbose` request lines and the error line, against a server that echoes the credentials back.
 */

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { fail, startServer, type TestServer } from './server.js';

const run = promisify(execFile);
const bin = new URL('../../bin/zoneplan.js', import.meta.url).pathname;
const TOKEN = 'cli-token-9f8e7d6c5b4a39281706';
const EMAIL = 'cli-admin@example.org';
const KEY = 'fedcba9876543210fedcba98765432100abcd';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function zoneplan(args: string[], env: Record<string, string>) {
  const clean = { ...process.env };
  for (const name of [
    'CLOUDFLARE_API_TOKEN',
    'CLOUDFLARE_EMAIL',
    'CLOUDFLARE_API_KEY',
    'CLOUDFLARE_BASE_URL',
  ]) {
    delete clean[name];
  }
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      env: { ...clean, NO_COLOR: '1', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function echoingServer() {
  return startServer((req, res) => {
    const { authorization, 'x-auth-email': email, 'x-auth-key': key } = req.headers;
    const echoed = authorization ?? `${String(email)}/${String(key)}`;
    fail(res, 403, [{ code: 10000, message: `Authentication error (${echoed})` }]);
  });
}

describe('zoneplan --verbose (built CLI)', () => {
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
