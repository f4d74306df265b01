/**
 * ApiClient: the one way zoneplan talks to the v4 API. One undici Agent (keep-alive pool), one
 * client-wide rate limiter and concurrency cap shared by every caller, retries with backoff, and
 * one ApiError for every kind of failure. Each request is logged as one line when `log` is given.
 */

import { performance } from 'node:perf_hooks';
import { createAgent, request as undiciRequest, type Agent } from './undici-parts.js';
import { redact, redactUrl, registerSecret, SECRET_PARAM } from '../redact.js';
import { authHeaders } from './auth.js';
import { backoffDelay, parseRetryAfter, sleep } from './backoff.js';
import { Semaphore } from './concurrency.js';
import { bodyText } from './body-text.js';
import { NotAnEnvelope, parseEnvelope } from './envelope.js';
import { ApiError } from './errors.js';
import { templatePathWithQuery } from './path-template.js';
import { API_BUDGET, RateLimiter, type RateLimit } from './rate-limiter.js';
import {
  classifyTransportFailure,
  judge,
  type AttemptOutcome,
  type TransportFailure,
} from './retry-policy.js';
import type { ApiMessage, ApiResponse, ClientOptions, ClientStats, Query, RequestOptions } from './types.js';

export const DEFAULTS = {
  timeoutMs: 30_000,
  maxAttempts: 5,
  rateLimit: API_BUDGET,
  concurrency: 8,
  backoffBaseMs: 500,
} as const;

/** What one attempt brought back: a response (any status) or a transport failure. */
type Attempt =
  | { kind: 'response'; status: number; headers: Record<string, string | string[] | undefined>; text: string }
  | { kind: 'failure'; failure: TransportFailure };

/** A `retry-after` longer than this is announced on stderr (ClientOptions.notice). */
export const LONG_WAIT_MS = 5_000;

export class ApiClient {
  readonly baseUrl: string;
  readonly stats: ClientStats = { requests: 0, retries: 0 };
  /** requests in flight at once, at most (the callers' parallelism matches it) */
  readonly concurrency: number;
  /** the client-wide request budget */
  readonly rateLimit: RateLimit;
  private readonly agent: Agent;
  private readonly limiter: RateLimiter;
  private readonly slots: Semaphore;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly backoffBaseMs: number;
  private readonly log?: (line: string) => void;
  private readonly notice?: (line: string) => void;
  /** set by abandon(): no request is retried any more */
  private abandoned = false;
  /** when the last announced wait ends: requests refused together are announced once */
  private announcedUntil = 0;
  private readonly origin: string;
  /** the base URL's own path (`/client/v4`), cut from log lines so they show the API path only */
  private readonly basePath: string;

  constructor(opts: ClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    const base = new URL(this.baseUrl);
    this.origin = redactUrl(base.origin);
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.timeoutMs = positive(opts.timeoutMs, DEFAULTS.timeoutMs);
    this.maxAttempts = Math.max(1, Math.floor(positive(opts.maxAttempts, DEFAULTS.maxAttempts)));
    this.backoffBaseMs = opts.backoffBaseMs ?? DEFAULTS.backoffBaseMs;
    const concurrency = Math.floor(positive(opts.concurrency, DEFAULTS.concurrency));
    this.concurrency = concurrency;
    this.rateLimit = opts.rateLimit ?? DEFAULTS.rateLimit;
    this.limiter = new RateLimiter(this.rateLimit);
    this.slots = new Semaphore(concurrency);
    this.log = opts.log;
    this.notice = opts.notice;
    this.headers = {
      accept: 'application/json',
      'user-agent': opts.userAgent ?? 'zoneplan',
      ...authHeaders(opts.auth),
    };
    // The pool is as large as the cap, so a request never waits for a socket once it holds a slot.
    // undici's own phase timeouts back up the overall per-attempt timeout below.
    this.agent = createAgent({
      connections: concurrency,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      connect: { timeout: Math.min(this.timeoutMs, 10_000) },
    });
  }

  /**
   * One API call. `path` is relative to the base URL (`/zones/abc/dns_records`). Resolves with the
   * envelope's result (null for a 204 or an empty body); rejects with an ApiError for anything else.
   */
  async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const verb = method.toUpperCase();
    const url = this.urlFor(path, opts.query);
    const shownPath = templatePathWithQuery(url.pathname.slice(this.basePath.length), url.search);
    const started = performance.now();
    let retries = 0;
    const finish = (status: string): void => {
      if (!this.log) return;
      const ms = Math.round(performance.now() - started);
      this.log(redact(`${verb} ${shownPath} ${status} ${ms}ms${retries > 0 ? ` retries=${retries}` : ''}`));
    };
    const headers = { ...this.headers };
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }

    for (let attempt = 1; ; attempt += 1) {
      const result = await this.attempt(verb, url, headers, body);
      const outcome: AttemptOutcome =
        result.kind === 'response' ? { kind: 'response', status: result.status } : result;
      const verdict = judge(verb, outcome, opts.retrySafe ?? false);
      const lastAttempt = attempt >= this.maxAttempts;

      if (verdict === 'retry' && !lastAttempt && !this.abandoned) {
        retries += 1;
        this.stats.retries += 1;
        await this.waitBeforeRetry(result, attempt);
        continue;
      }
      finish(result.kind === 'response' ? String(result.status) : result.failure.code);
      const common = {
        method: verb,
        path,
        retries,
        gaveUpAfter: verdict === 'retry' ? attempt : undefined,
        // A write that reached the server and got no clear answer may have been applied.
        outcomeUnknown:
          verdict === 'unknown' || (verdict === 'retry' && !isRead(verb) && mayHaveApplied(result)),
      };
      if (result.kind === 'failure') {
        throw new ApiError({ ...common, status: 0, detail: result.failure.detail });
      }
      return this.toResponse<T>(result, common);
    }
  }

  /** How long a request sent now would wait for the request budget, in ms (0 when none). */
  budgetWaitMs(): number {
    return this.limiter.waitMs();
  }

  /** Closes the pooled connections; requests still running finish first. */
  async close(): Promise<void> {
    await this.agent.close();
  }

  /**
   * Drops the connections and every request still running (each fails, and none is retried), without
   * waiting for an answer: for reads whose answers are no longer wanted (the early reads of files
   * that turned out to have errors), so the command ends when its own work ends.
   */
  async abandon(): Promise<void> {
    this.abandoned = true;
    await this.agent.destroy();
  }

  /** One attempt: a concurrency slot, a rate-limit token, then the HTTP exchange under a timeout. */
  private async attempt(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<Attempt> {
    await this.slots.acquire();
    try {
      await this.limiter.acquire();
      this.stats.requests += 1;
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, this.timeoutMs);
      try {
        const res = await undiciRequest(this.agent, url, {
          method: method as 'GET',
          headers,
          body,
          signal: controller.signal,
        });
        const text = bodyText(await res.body.bytes());
        return { kind: 'response', status: res.statusCode, headers: res.headers, text };
      } catch (error) {
        return {
          kind: 'failure',
          failure: classifyTransportFailure(error, timedOut, this.timeoutMs, this.origin),
        };
      } finally {
        clearTimeout(timer);
      }
    } finally {
      this.slots.release();
    }
  }

  /**
   * A 429 pauses the whole client (the API blocks the user, not one request) until `retry-after`,
   * or for a backoff delay without one; other failures back off this request alone, honouring a
   * `retry-after` that a 503 may carry.
   */
  private async waitBeforeRetry(result: Attempt, attempt: number): Promise<void> {
    const retryAfter =
      result.kind === 'response' ? parseRetryAfter(result.headers['retry-after']) : undefined;
    const delay = retryAfter ?? backoffDelay(attempt, this.backoffBaseMs);
    if (retryAfter !== undefined && retryAfter > LONG_WAIT_MS && result.kind === 'response') {
      this.announceWait(result.status, retryAfter);
    }
    if (result.kind === 'response' && result.status === 429) {
      this.limiter.pause(delay);
      return; // the next attempt waits in limiter.acquire()
    }
    await sleep(delay);
  }

  private announceWait(status: number, ms: number): void {
    const until = Date.now() + ms;
    if (!this.notice || until <= this.announcedUntil + 1000) return;
    this.announcedUntil = until;
    const why =
      status === 429
        ? 'the API rate limit was reached (429; the budget is shared by every client of this user)'
        : `the API answered ${status} and asked for a pause`;
    const at = new Date(until).toISOString().slice(11, 19);
    this.notice(`waiting ${Math.ceil(ms / 1000)}s (until ${at} UTC) as retry-after says: ${why}`);
  }

  private toResponse<T>(
    result: Extract<Attempt, { kind: 'response' }>,
    common: { method: string; path: string; retries: number; gaveUpAfter?: number; outcomeUnknown: boolean },
  ): ApiResponse<T> {
    const contentType = first(result.headers['content-type']);
    const parsed =
      result.status === 204 ? parseEnvelope('', contentType) : parseEnvelope(result.text, contentType);
    if (parsed instanceof NotAnEnvelope) {
      // A write answered 2xx was accepted, but what it created cannot be read from this body.
      const accepted = result.status < 300 && !isRead(common.method);
      const outcomeUnknown = common.outcomeUnknown || accepted;
      throw new ApiError({ ...common, outcomeUnknown, status: result.status, detail: parsed.reason });
    }
    if (!parsed.success || result.status >= 400) {
      throw new ApiError({
        ...common,
        status: result.status,
        errors: parsed.errors,
        hint: this.baseUrlHint(result.status, parsed.errors),
      });
    }
    return {
      status: result.status,
      result: parsed.result as T,
      resultInfo: parsed.resultInfo,
      messages: parsed.messages,
    };
  }

  /**
   * "No route for that URI" (404, 7000) from a base URL that does not end in `/v4` is most likely
   * the API's origin given without its path: every route of the API is under `/client/v4`.
   */
  private baseUrlHint(status: number, errors: ApiMessage[]): string | undefined {
    if (status !== 404 || /\/v4$/.test(this.basePath) || !errors.some((e) => e.code === 7000))
      return undefined;
    // `.../client` lacks only its version
    const base = this.basePath.replace(/\/client$/, '');
    return (
      `the API URL ${this.origin}${this.basePath} does not end in /client/v4, under which the API ` +
      `answers: try ${this.origin}${base}/client/v4`
    );
  }

  private urlFor(path: string, query: Query | undefined): URL {
    const url = new URL(this.baseUrl + (path.startsWith('/') ? path : `/${path}`));
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined) continue;
      // Arrays repeat the parameter (`tag=a&tag=b`), as the v4 list filters expect.
      for (const v of Array.isArray(value) ? value : [value]) {
        // A secret in a query (`?token=`) must not come back through a server's echo of the URL either.
        if (SECRET_PARAM.test(name)) registerSecret(String(v));
        url.searchParams.append(name, String(v));
      }
    }
    return url;
  }
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function isRead(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

/** A 5xx, or a failure after the request may have been written: the server may have acted on it. */
function mayHaveApplied(result: Attempt): boolean {
  return result.kind === 'response' ? result.status >= 500 : !result.failure.notSent;
}
