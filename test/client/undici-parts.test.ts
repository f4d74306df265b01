/**
 * The client loads undici's Agent and request from their own modules (not the index, which loads
 * all of undici): they must be undici's very own, and a request must go through the given Agent.
 */
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createAgent, request, undiciParts } from '../../src/client/undici-parts.js';

describe('undici parts', () => {
  it('are the classes of undici’s index', () => {
    const undici = createRequire(import.meta.url)('undici') as typeof import('undici');
    expect(undiciParts().Agent).toBe(undici.Agent);
  });

  it('send method, path, query, headers and body as undici.request does', async () => {
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () =>
        res.end(JSON.stringify({ method: req.method, url: req.url, h: req.headers['x-a'], body })),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agent = createAgent({ connections: 1 });
    try {
      const { port } = server.address() as AddressInfo;
      const res = await request(
        agent,
        new URL(`http://127.0.0.1:${port}/client/v4/zones?name=a.example&page=2`),
        {
          method: 'POST',
          headers: { 'x-a': 'b' },
          body: '{"x":1}',
        },
      );
      expect(res.statusCode).toBe(200);
      expect(await res.body.json()).toEqual({
        method: 'POST',
        url: '/client/v4/zones?name=a.example&page=2',
        h: 'b',
        body: '{"x":1}',
      });
    } finally {
      await agent.close();
      server.close();
    }
  });
});
