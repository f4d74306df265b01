/**
 * An internal error (a bug) is logged to stderr with the request's URL: a secret the process knows
 * that rides in the query string is masked in that line too.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerSecret } from '../../src/redact.js';
import { startServer } from '../../src/server/index.js';

const SECRET = 'query-secret-0042-abcdef';

afterEach(() => vi.restoreAllMocks());

describe('the internal-error log', () => {
  it('masks a known secret in the logged URL', async () => {
    registerSecret(SECRET);
    const s = await startServer({
      db: ':memory:',
      areas: [
        {
          name: 'broken',
          routes(router) {
            router.add({
              method: 'GET',
              path: '/broken',
              area: 'public',
              handler: () => {
                throw new Error('a bug');
              },
            });
          },
        },
      ],
    });
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      const res = await fetch(`${s.url}/broken?token=${SECRET}`);
      expect(res.status).toBe(500);
    } finally {
      await s.close();
    }
    const logged = lines.join('');
    expect(logged).toMatch(/internal error on GET \/client\/v4\/broken\?token=/);
    expect(logged).not.toContain(SECRET);
  });
});
