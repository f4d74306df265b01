/**
 * The contract of the API client (src/client/). Everything that talks to the v4 API (the
 * reconciler's kinds, export, the page-shield and logpush helper commands) uses only this surface.
 */

/** Credentials, from the environment only (CLOUDFLARE_API_TOKEN, or CLOUDFLARE_EMAIL + CLOUDFLARE_API_KEY). */
export type Auth = { kind: 'token'; token: string } | { kind: 'key'; email: string; key: string };

export interface ClientOptions {
  /** base URL ending in /client/v4 (or /api/v4); default https://api.cloudflare.com/client/v4 */
  baseUrl: string;
  auth?: Auth;
  /** per-request timeout in ms (default 30000) */
  timeoutMs?: number;
  /** attempts per request including the first (default 5) */
  maxAttempts?: number;
  /** client-wide token bucket (default 1200 requests per 300 s) */
  rateLimit?: { requests: number; perSeconds: number; share?: number };
  /** requests in flight at once, client-wide (default 8) */
  concurrency?: number;
  /** base delay of the exponential backoff in ms (default 500); tests make it small */
  backoffBaseMs?: number;
  /** receives one line per request when verbose logging is on: method, path, status, ms, retries */
  log?: (line: string) => void;
  /**
   * Receives one line, whatever the verbosity, when the client is about to wait long for the API's
   * `retry-after` (over LONG_WAIT_MS): a run that goes quiet for minutes must say why.
   */
  notice?: (line: string) => void;
  /** User-Agent header (default `zoneplan`) */
  userAgent?: string;
}

export interface ApiMessage {
  code: number;
  message: string;
  documentation_url?: string;
  source?: { pointer?: string };
  error_chain?: ApiMessage[];
}

export interface ResultInfo {
  page?: number;
  per_page?: number;
  count?: number;
  total_count?: number;
  total_pages?: number;
}

export interface ApiResponse<T> {
  status: number;
  result: T;
  resultInfo?: ResultInfo;
  messages: ApiMessage[];
}

export type Query = Record<string, string | number | boolean | undefined | (string | number)[]>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /**
   * A non-idempotent request (POST, PATCH) whose outcome is unknown (timeout, reset, 5xx after the
   * body was sent) is never retried unless the caller marks it safe here. GET/PUT/DELETE are retried.
   * Every method is retried after a 429 or a refused connection: those prove nothing was processed.
   * When a write gives up with its outcome unknown, the ApiError has `outcomeUnknown: true`.
   */
  retrySafe?: boolean;
}

export interface ClientStats {
  requests: number;
  retries: number;
}
