import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/index.js';
import { useStubApi } from '../support/stub-api.js';
import { fail, ok, startServer } from './server.js';

const { keep } = useStubApi();

describe('client-wide rate limiter', () => {
  it('holds a burst of 50 calls to 20 per second (server-side arrival times)', async () => {
    const server = keep(await startServer((req, res) => ok(res, [])));
    const client = keep(
      new ApiClient({ baseUrl: server.baseUrl, rateLimit: { requests: 20, perSeconds: 1 } }),
    );
    // Server and client share the process clock, so arrival times compare with the burst's start.
    const start = performance.now();
    await Promise.all(Array.from({ length: 50 }, (_, i) => client.request('GET', `/zones/${i}`)));
    const at = server.seen.map((s) => s.at).sort((a, b) => a - b);
    expect(at).toHaveLength(50);
    // A full bucket of 20 refilled at 20/s: request k (0-based) cannot arrive before (k - 19) * 50 ms
    // after the burst began (1 ms of slack for timer rounding). This is the bucket's exact guarantee,
    // and it holds on any machine: a busy scheduler only delays an arrival, never brings it forward.
    // (So at most 40 arrive in the burst's first second; without a limiter all 50 arrive at once.)
    // A count over sliding windows of arrival times would not hold: requests the limiter released
    // a second apart reach the server together when a loaded machine stalls the event loop between.
    at.forEach((t, k) => expect(t - start).toBeGreaterThanOrEqual((k - 19) * 50 - 1));
  });

  it('pauses every caller when one request gets a 429 with retry-after', async () => {
    let throttledAt = 0;
    let throttled!: () => void;
    const sent429 = new Promise<void>((resolve) => (throttled = resolve));
    const server = keep(
      await startServer((req, res, i) => {
        if (i > 0) return ok(res, []);
        fail(res, 429, [{ code: 971, message: 'Please wait' }], { 'retry-after': '1' });
        throttledAt = performance.now();
        throttled();
      }),
    );
    const client = keep(new ApiClient({ baseUrl: server.baseUrl }));
    const first = client.request('GET', '/zones');
    await sent429;
    // The client counts the retry in the same tick as it pauses: after that, the pause is in force.
    while (client.stats.retries === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    await client.request('GET', '/accounts');
    await first;
    const other = server.seen.find((s) => s.url.endsWith('/accounts'))!;
    expect(other.at - throttledAt).toBeGreaterThanOrEqual(990);
  });
});

/**
 * A server that holds every request until `gate` are in flight at once, then answers them all, and
 * records the most it ever saw in flight. The gate makes "the cap is reached" certain on a slow
 * machine; a fallback timer answers anyway, so a client that never reaches the gate fails, not hangs.
 */
function gatedServer(gate: number) {
  let inFlight = 0;
  const counter = { most: 0 };
  let held: (() => void)[] = [];
  const releaseAll = () => {
    const now = held;
    held = [];
    for (const answer of now) answer();
  };
  const started = startServer((req, res) => {
    inFlight += 1;
    counter.most = Math.max(counter.most, inFlight);
    held.push(() => {
      inFlight -= 1;
      ok(res, []);
    });
    if (held.length >= gate)
      setTimeout(releaseAll, 20); // 20 ms for any request over the cap to show up
    else setTimeout(releaseAll, 2000);
  });
  return { started, counter };
}

describe('concurrency cap', () => {
  it('never has more requests in flight than the cap, counted by the server', async () => {
    const { started, counter } = gatedServer(3);
    const server = keep(await started);
    const client = keep(new ApiClient({ baseUrl: server.baseUrl, concurrency: 3 }));
    await Promise.all(Array.from({ length: 12 }, () => client.request('GET', '/zones')));
    expect(server.seen).toHaveLength(12);
    expect(counter.most).toBe(3);
  });

  it('defaults to 8 in flight', async () => {
    const { started, counter } = gatedServer(8);
    const server = keep(await started);
    const client = keep(new ApiClient({ baseUrl: server.baseUrl }));
    await Promise.all(Array.from({ length: 16 }, () => client.request('GET', '/zones')));
    expect(server.seen).toHaveLength(16);
    expect(counter.most).toBe(8);
  });
});

describe('connection pooling', () => {
  it('reuses one kept-alive connection for sequential requests', async () => {
    const server = keep(await startServer((req, res) => ok(res, [])));
    const client = keep(new ApiClient({ baseUrl: server.baseUrl }));
    for (let i = 0; i < 10; i += 1) await client.request('GET', '/zones');
    // undici may open a second socket while the first is being released; never one per request.
    expect(new Set(server.seen.map((s) => s.clientPort)).size).toBeLessThanOrEqual(2);
  });
});
