/**
 * The API client's public surface. Callers import from here (`src/client/index.js`); the contract
 * types live in types.ts.
 */

import { authFromEnv, parseRateLimit, resolveBaseUrl } from './auth.js';
import { ApiClient } from './http.js';

export { ApiClient, DEFAULTS } from './http.js';
export { ApiError, formatMessages } from './errors.js';
export { authFromEnv, authHeaders, DEFAULT_BASE_URL, parseRateLimit, resolveBaseUrl } from './auth.js';
export { isIdempotent } from './retry-policy.js';
export { templatePath } from './path-template.js';
export type { RateLimit } from './rate-limiter.js';
export type * from './types.js';

export interface ClientFromEnvOptions {
  /** `--api-url`; wins over CLOUDFLARE_BASE_URL */
  apiUrl?: string;
  /** `--rate-limit`, `REQUESTS/SECONDS` or `PERCENT%`; wins over ZONEPLAN_RATE_LIMIT */
  rateLimit?: string;
  /** `--verbose`: receives one line per request */
  log?: (line: string) => void;
  /** one line on a long `retry-after` wait, printed whatever the verbosity */
  notice?: (line: string) => void;
  env?: Record<string, string | undefined>;
  /** the remaining ClientOptions, for commands and tests that tune them (defaults as in ApiClient) */
  timeoutMs?: number;
  maxAttempts?: number;
  concurrency?: number;
  backoffBaseMs?: number;
}

/**
 * The client the CLI uses: base URL from `--api-url` / CLOUDFLARE_BASE_URL / the real API,
 * credentials from the environment (registered as secrets), `--rate-limit` parsed. Throws a
 * UserError for bad settings, before any request is made.
 */
export function createClientFromEnv(opts: ClientFromEnvOptions = {}): ApiClient {
  const env = opts.env ?? process.env;
  return new ApiClient({
    baseUrl: resolveBaseUrl({ apiUrl: opts.apiUrl, env }),
    auth: authFromEnv(env),
    rateLimit: rateLimitOf(opts.rateLimit, env),
    log: opts.log,
    notice: opts.notice,
    timeoutMs: opts.timeoutMs,
    maxAttempts: opts.maxAttempts,
    concurrency: opts.concurrency,
    backoffBaseMs: opts.backoffBaseMs,
  });
}

/** `--rate-limit`, else ZONEPLAN_RATE_LIMIT (same forms), else the client's default (the whole budget). */
function rateLimitOf(given: string | undefined, env: Record<string, string | undefined>) {
  if (given !== undefined) return parseRateLimit(given);
  const fromEnv = env.ZONEPLAN_RATE_LIMIT?.trim();
  return fromEnv ? parseRateLimit(fromEnv, 'ZONEPLAN_RATE_LIMIT') : undefined;
}
