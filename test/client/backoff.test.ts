import { describe, expect, it } from 'vitest';
import {
  BACKOFF_CAP_MS,
  backoffDelay,
  parseRetryAfter,
  RETRY_AFTER_CAP_MS,
} from '../../src/client/backoff.js';
import { RateLimiter } from '../../src/client/rate-limiter.js';

describe('backoff', () => {
  it('grows exponentially with full jitter, capped at 30 s', () => {
    expect(backoffDelay(1, 500, () => 0)).toBe(0);
    expect(backoffDelay(1, 500, () => 0.999)).toBe(499);
    expect(backoffDelay(3, 500, () => 0.5)).toBe(1000);
    expect(backoffDelay(20, 500, () => 0.999999)).toBeLessThan(BACKOFF_CAP_MS);
    expect(backoffDelay(20, 500, () => 0.999999)).toBeGreaterThan(BACKOFF_CAP_MS - 10);
  });

  it('reads retry-after as seconds or an HTTP date, capped at 5 minutes', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('1')).toBe(1000);
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(parseRetryAfter(['2'])).toBe(2000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('86400')).toBe(RETRY_AFTER_CAP_MS);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter('-3')).toBeUndefined();
  });
});

describe('RateLimiter', () => {
  it('rejects a rate that cannot work', () => {
    expect(() => new RateLimiter({ requests: 0, perSeconds: 1 })).toThrow(RangeError);
    expect(() => new RateLimiter({ requests: 1, perSeconds: 0 })).toThrow(RangeError);
  });

  it('lets a full bucket through at once', async () => {
    const limiter = new RateLimiter({ requests: 5, perSeconds: 3600 });
    let done = 0;
    await Promise.all(Array.from({ length: 5 }, () => limiter.acquire().then(() => (done += 1))));
    expect(done).toBe(5);
  });
});
