import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/index.js';
import { rejection, useStubApi } from '../support/stub-api.js';
import { fail, ok } from './server.js';

const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
const { setup } = useStubApi({
  auth: { kind: 'token', token: 'tok-envelope-123456' },
  backoffBaseMs: 1,
});

describe('envelope', () => {
  it('returns the typed result and sends JSON with the auth header', async () => {
    const { server, client } = await setup((req, res) =>
      ok(res, { id: 'r1', name: 'www.example.com' }, { messages: [{ code: 1, message: 'note' }] }),
    );
    const response = await client.request<{ id: string }>('post', `/zones/${ZONE}/dns_records`, {
      body: { type: 'A', name: 'www', content: '192.0.2.1' },
      query: { a: 1, b: true, c: undefined, tag: ['x', 'y'] },
    });
    expect(response).toMatchObject({
      status: 200,
      result: { id: 'r1' },
      messages: [{ code: 1, message: 'note' }],
    });
    const seen = server.seen[0]!;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe(`/client/v4/zones/${ZONE}/dns_records?a=1&b=true&tag=x&tag=y`);
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.headers.authorization).toBe('Bearer tok-envelope-123456');
    expect(JSON.parse(seen.body)).toEqual({ type: 'A', name: 'www', content: '192.0.2.1' });
  });

  it('sends e-mail and key headers for a key pair, nothing for no auth', async () => {
    const { server } = await setup((req, res) => ok(res, []));
    const keyed = new ApiClient({
      baseUrl: server.baseUrl,
      auth: { kind: 'key', email: 'a@example.com', key: 'k'.repeat(37) },
    });
    const anonymous = new ApiClient({ baseUrl: server.baseUrl });
    await keyed.request('GET', '/zones');
    await anonymous.request('GET', '/zones');
    await Promise.all([keyed.close(), anonymous.close()]);
    expect(server.seen[0]!.headers).toMatchObject({
      'x-auth-email': 'a@example.com',
      'x-auth-key': 'k'.repeat(37),
    });
    expect(server.seen[0]!.headers.authorization).toBeUndefined();
    expect(server.seen[1]!.headers).not.toHaveProperty('x-auth-key');
    expect(server.seen[1]!.headers).not.toHaveProperty('authorization');
  });

  it('turns an error envelope into an ApiError with the status, templated path and codes', async () => {
    const { client } = await setup((req, res) =>
      fail(res, 400, [{ code: 81057, message: 'Record already exists.' }]),
    );
    const error = await rejection(client.request('POST', `/zones/${ZONE}/dns_records`, { body: {} }));
    expect(error.message).toBe('POST /zones/:id/dns_records -> 400 81057 Record already exists.');
    expect(error).toMatchObject({
      status: 400,
      method: 'POST',
      path: '/zones/:id/dns_records',
      outcomeUnknown: false,
    });
    expect(error.hasCode(81057)).toBe(true);
  });

  it('puts the error_chain in the message and in errors, and joins several errors with "; "', async () => {
    const { client } = await setup((req, res, i) =>
      i === 0
        ? fail(res, 400, [
            {
              code: 1004,
              message: 'DNS Validation Error',
              error_chain: [{ code: 9004, message: 'This kind of record cannot be proxied' }],
            },
          ])
        : fail(res, 404, [
            {
              code: 7003,
              message: 'Could not route to /zones/x, perhaps your object identifier is invalid?',
            },
            { code: 7000, message: 'No route for that URI' },
          ]),
    );
    const chained = await rejection(client.request('POST', `/zones/${ZONE}/dns_records`, { body: {} }));
    expect(chained.message).toBe(
      'POST /zones/:id/dns_records -> 400 1004 DNS Validation Error (9004 This kind of record cannot be proxied)',
    );
    expect(chained.errors.map((e) => e.code)).toEqual([1004, 9004]);
    expect(chained.hasCode(9004)).toBe(true);
    const several = await rejection(client.request('GET', `/zones/${ZONE}/logpush/jobs/17`));
    expect(several.message).toBe(
      'GET /zones/:id/logpush/jobs/:id -> 404 7003 Could not route to /zones/x, perhaps your object identifier is invalid?; 7000 No route for that URI',
    );
  });

  it('treats a 200 with success:false as a failure and a 4xx without errors by its status text', async () => {
    const { client } = await setup((req, res, i) =>
      i === 0
        ? ok(res, null, { success: false, errors: [{ code: 1000, message: 'nope' }] })
        : fail(res, 403, []),
    );
    expect((await rejection(client.request('GET', '/zones'))).message).toBe('GET /zones -> 200 1000 nope');
    expect((await rejection(client.request('GET', '/zones'))).message).toBe('GET /zones -> 403 Forbidden');
  });

  it('gives result null for a 204 and for an empty 200 body', async () => {
    const { client } = await setup((req, res, i) => {
      res.writeHead(i === 0 ? 204 : 200);
      res.end();
    });
    const deleted = await client.request('DELETE', `/zones/${ZONE}/page_shield/policies/${ZONE}`);
    expect(deleted).toMatchObject({ status: 204, result: null });
    expect(await client.request('GET', '/zones')).toMatchObject({ status: 200, result: null });
  });

  it('reports a non-JSON body and a JSON body that is not an envelope, with the status', async () => {
    const { client } = await setup((req, res, i) => {
      if (i === 0) {
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end('<html><body>Not Found</body></html>');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"zones":[]}');
      }
    });
    const html = await rejection(client.request('GET', '/zones'));
    expect(html.message).toBe(
      'GET /zones -> 404 non-JSON response (text/html, 35 bytes: "<html><body>Not Found</body></html>")',
    );
    expect(html.status).toBe(404);
    const odd = await rejection(client.request('POST', '/zones', { body: {} }));
    expect(odd.message).toBe(
      'POST /zones -> 200 response is JSON but not an API envelope (no boolean "success") (outcome unknown: the request may have been applied, so it was not retried)',
    );
    expect(odd.outcomeUnknown).toBe(true);
  });

  it('is a UserError, so the CLI prints it as one line', async () => {
    const { UserError } = await import('../../src/errors.js');
    const { client } = await setup((req, res) => fail(res, 400, [{ code: 1, message: 'two\nlines' }]));
    const error = await rejection(client.request('GET', '/zones'));
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toBe('GET /zones -> 400 1 two lines');
  });
});
