import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/index.js';
import { rejection, useStubApi } from '../support/stub-api.js';
import { fail, ok, refusedBaseUrl } from './server.js';

const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
const RECORDS = `/zones/${ZONE}/dns_records`;
const { setup, keep } = useStubApi({ backoffBaseMs: 5 });

const unavailable = [{ code: 10000, message: 'Service unavailable' }];

describe('retries', () => {
  it('waits out retry-after: 1 on a 429, then succeeds', async () => {
    const { server, client } = await setup((req, res, i) =>
      i === 0 ? fail(res, 429, [{ code: 971, message: 'Please wait' }], { 'retry-after': '1' }) : ok(res, []),
    );
    const response = await client.request('GET', '/zones');
    expect(response.status).toBe(200);
    expect(server.seen).toHaveLength(2);
    // Server-side arrival times: the second attempt came a full second after the first.
    expect(server.seen[1]!.at - server.seen[0]!.at).toBeGreaterThanOrEqual(995);
    expect(client.stats).toEqual({ requests: 2, retries: 1 });
  });

  it('retries a 503 twice, then succeeds', async () => {
    const { server, client } = await setup((req, res, i) =>
      i < 2 ? fail(res, 503, unavailable) : ok(res, { id: 'z' }),
    );
    expect((await client.request('GET', `/zones/${ZONE}`)).result).toEqual({ id: 'z' });
    expect(server.seen).toHaveLength(3);
    expect(client.stats).toEqual({ requests: 3, retries: 2 });
  });

  it('does not repeat a POST after a 503: the outcome is unknown', async () => {
    const { server, client } = await setup((req, res) => fail(res, 503, unavailable));
    const error = await rejection(client.request('POST', RECORDS, { body: { type: 'A' } }));
    expect(server.seen).toHaveLength(1);
    expect(error).toMatchObject({ status: 503, outcomeUnknown: true, retries: 0 });
    expect(error.message).toBe(
      'POST /zones/:id/dns_records -> 503 10000 Service unavailable (outcome unknown: the request may have been applied, so it was not retried)',
    );
  });

  it('repeats a POST after a 503 when the caller marks it retrySafe, and after a 429 always', async () => {
    const { server, client } = await setup((req, res, i) => {
      if (i === 0) return fail(res, 503, unavailable);
      if (i === 2) return fail(res, 429, [{ code: 971, message: 'slow down' }]);
      ok(res, { id: String(i) });
    });
    const safe = await client.request('POST', `/zones/${ZONE}/logpush/ownership`, {
      body: {},
      retrySafe: true,
    });
    expect(safe.result).toEqual({ id: '1' });
    const throttled = await client.request('PATCH', RECORDS, { body: {} });
    expect(throttled.result).toEqual({ id: '3' });
    expect(server.seen.map((s) => s.method)).toEqual(['POST', 'POST', 'PATCH', 'PATCH']);
  });

  it('gives up after the configured attempts with a clear error', async () => {
    const { server, client } = await setup(
      (req, res) => fail(res, 502, [{ code: 1, message: 'bad gateway' }]),
      {
        maxAttempts: 3,
      },
    );
    const error = await rejection(client.request('GET', '/zones'));
    expect(server.seen).toHaveLength(3);
    expect(error.message).toBe('GET /zones -> 502 1 bad gateway (gave up after 3 attempts)');
    expect(error).toMatchObject({ retries: 2, outcomeUnknown: false });
  });

  it('marks an idempotent write that kept failing with 5xx as outcome unknown', async () => {
    const { client } = await setup((req, res) => fail(res, 500, []), { maxAttempts: 2 });
    const error = await rejection(client.request('PUT', `${RECORDS}/${ZONE}`, { body: {} }));
    expect(error.message).toBe(
      'PUT /zones/:id/dns_records/:id -> 500 Internal Server Error (outcome unknown: the request may have been applied; gave up after 2 attempts)',
    );
    expect(error.outcomeUnknown).toBe(true);
  });

  it('does not retry a 4xx other than 429', async () => {
    const { server, client } = await setup((req, res) =>
      fail(res, 400, [{ code: 9021, message: 'bad ttl' }]),
    );
    await rejection(client.request('GET', '/zones'));
    expect(server.seen).toHaveLength(1);
  });

  it('retries a refused connection, even for a POST, then says what failed and where', async () => {
    const baseUrl = await refusedBaseUrl();
    const client = keep(new ApiClient({ baseUrl, backoffBaseMs: 1, maxAttempts: 3 }));
    const error = await rejection(client.request('POST', RECORDS, { body: {} }));
    const origin = new URL(baseUrl).origin;
    expect(error.message).toBe(
      `POST /zones/:id/dns_records -> connection failed: ECONNREFUSED (${origin}) (gave up after 3 attempts)`,
    );
    expect(error).toMatchObject({ status: 0, outcomeUnknown: false, retries: 2 });
    expect(client.stats.requests).toBe(3);
  });

  it('times out a server that never answers, retrying a GET but not a POST', async () => {
    const { server, client } = await setup(() => undefined, { timeoutMs: 200, maxAttempts: 2 });
    const get = await rejection(client.request('GET', '/zones'));
    expect(get.message).toBe('GET /zones -> timed out after 200ms (gave up after 2 attempts)');
    expect(get).toMatchObject({ status: 0, outcomeUnknown: false });
    const post = await rejection(client.request('POST', RECORDS, { body: {} }));
    expect(post.message).toBe(
      'POST /zones/:id/dns_records -> timed out after 200ms (outcome unknown: the request may have been applied, so it was not retried)',
    );
    expect(post.outcomeUnknown).toBe(true);
    expect(server.seen.map((s) => s.method)).toEqual(['GET', 'GET', 'POST']);
  });

  it('treats a connection the server drops mid-request as unknown for a POST, retryable for a GET', async () => {
    const { server, client } = await setup((req, res, i) => {
      if (i === 1) ok(res, []);
      else res.socket?.destroy();
    });
    const get = await client.request('GET', '/zones');
    expect(get.result).toEqual([]);
    const post = await rejection(client.request('POST', RECORDS, { body: {} }));
    expect(post.outcomeUnknown).toBe(true);
    expect(post.message).toMatch(/^POST \/zones\/:id\/dns_records -> connection failed: \S+/);
    expect(server.seen).toHaveLength(3);
  });
});
