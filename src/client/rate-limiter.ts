/**
 * The client-wide request budget: a token bucket of `requests` tokens refilled continuously at
 * `requests / perSeconds` per second, starting full. The real API counts every request of a user
 * together, so every caller of one client draws from this one bucket.
 *
 * Waiters are served in call order: each `acquire()` reserves the next token at once (the balance
 * may go negative, which is a queue of debts) and sleeps until that token exists. A 429 from the
 * server pauses everyone until its `retry-after` has passed and empties the bucket, because the
 * real API blocks the user, not one request.
 */

import { performance } from 'node:perf_hooks';
import { sleep } from './backoff.js';

export interface RateLimit {
  requests: number;
  perSeconds: number;
  /** set when given as a share of the API's budget (`--rate-limit 50%`: 0.5), for messages */
  share?: number;
}

/** The real API's budget per user: 1,200 requests per 300 s, shared by every token and tool of the user. */
export const API_BUDGET: RateLimit = { requests: 1200, perSeconds: 300 };

export class RateLimiter {
  private tokens: number;
  /** the instant up to which refill has been counted (may lie in the future during a pause) */
  private last: number;
  private pausedUntil = 0;
  private readonly perMs: number;

  constructor(
    private readonly limit: RateLimit,
    private readonly clock: () => number = () => performance.now(),
  ) {
    if (!(limit.requests >= 1) || !(limit.perSeconds > 0)) {
      throw new RangeError(`invalid rate limit ${limit.requests}/${limit.perSeconds}`);
    }
    this.tokens = limit.requests;
    this.last = clock();
    this.perMs = limit.requests / (limit.perSeconds * 1000);
  }

  /** Resolves when the caller may send one request. */
  async acquire(): Promise<void> {
    const now = this.clock();
    this.refill(now);
    this.tokens -= 1;
    // A negative balance is owed: this token exists once the debt has been refilled since `last`.
    const tokenAt = this.tokens >= 0 ? now : this.last + -this.tokens / this.perMs;
    await sleep(Math.max(tokenAt, this.pausedUntil) - now);
    // A pause that began while we slept holds us too (our token stays reserved).
    for (let t = this.clock(); this.pausedUntil > t; t = this.clock()) await sleep(this.pausedUntil - t);
  }

  /**
   * How long a request asked for now would wait for its token (0 while the bucket holds one): the
   * `wait` of the progress line.
   */
  waitMs(): number {
    const now = this.clock();
    this.refill(now);
    const debt = this.tokens >= 1 ? now : this.last + (1 - this.tokens) / this.perMs;
    return Math.max(0, Math.max(debt, this.pausedUntil) - now);
  }

  /** Holds every caller for `ms` from now and restarts the refill from empty after that. */
  pause(ms: number): void {
    const until = this.clock() + ms;
    if (until <= this.pausedUntil) return;
    this.refill(this.clock());
    this.pausedUntil = until;
    this.tokens = Math.min(this.tokens, 0);
    this.last = Math.max(this.last, until);
  }

  private refill(now: number): void {
    if (now <= this.last) return;
    this.tokens = Math.min(this.limit.requests, this.tokens + (now - this.last) * this.perMs);
    this.last = now;
  }
}
