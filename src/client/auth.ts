/**
 * Where the client's settings come from: credentials from the environment (the official clients'
 * variable names), the base URL from `--api-url` / CLOUDFLARE_BASE_URL / the real API, and the
 * `--rate-limit` budget. Every credential is registered as a secret the moment it is read.
 */

import { UserError } from '../errors.js';
import { redactUrl, registerSecret } from '../redact.js';
import { API_BUDGET, type RateLimit } from './rate-limiter.js';
import type { Auth } from './types.js';

export const DEFAULT_BASE_URL = 'https://api.cloudflare.com/client/v4';

type Env = Record<string, string | undefined>;

/** A header value must be visible ASCII; a pasted token with a stray newline fails here, not in undici. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function checkHeaderSafe(name: string, value: string): void {
  // The message names the variable, never the value.
  if (!HEADER_SAFE.test(value)) {
    throw new UserError(`${name} contains spaces or characters that cannot be sent in an HTTP header`);
  }
}

/**
 * CLOUDFLARE_API_TOKEN wins; else CLOUDFLARE_EMAIL + CLOUDFLARE_API_KEY (both, or a UserError that
 * names the missing one); else undefined (no credentials: the caller picks the local API or fails).
 */
export function authFromEnv(env: Env = process.env): Auth | undefined {
  const token = read(env, 'CLOUDFLARE_API_TOKEN');
  const email = read(env, 'CLOUDFLARE_EMAIL');
  const key = read(env, 'CLOUDFLARE_API_KEY');
  // Register before validating, so even an error path that echoed a value could not leak it.
  registerSecret(token);
  registerSecret(key);
  // The e-mail is half of a credential but also an ordinary address that may appear in the desired
  // state (notification recipients); its label says where it went rather than hiding it blankly.
  registerSecret(email, '(from env CLOUDFLARE_EMAIL)');
  if (token) {
    checkHeaderSafe('CLOUDFLARE_API_TOKEN', token);
    return { kind: 'token', token };
  }
  if (email && !key) {
    throw new UserError(
      'CLOUDFLARE_EMAIL is set but CLOUDFLARE_API_KEY is not: set both, or set CLOUDFLARE_API_TOKEN',
    );
  }
  if (key && !email) {
    throw new UserError(
      'CLOUDFLARE_API_KEY is set but CLOUDFLARE_EMAIL is not: set both, or set CLOUDFLARE_API_TOKEN',
    );
  }
  if (email && key) {
    checkHeaderSafe('CLOUDFLARE_EMAIL', email);
    checkHeaderSafe('CLOUDFLARE_API_KEY', key);
    return { kind: 'key', email, key };
  }
  return undefined;
}

/** The request headers for `auth` (none without credentials). */
export function authHeaders(auth: Auth | undefined): Record<string, string> {
  if (!auth) return {};
  if (auth.kind === 'token') return { authorization: `Bearer ${auth.token}` };
  return { 'x-auth-email': auth.email, 'x-auth-key': auth.key };
}

/**
 * `--api-url`, then CLOUDFLARE_BASE_URL, then the real API. Trailing slashes are trimmed so that
 * `${baseUrl}${path}` is always right; anything but an http(s) URL is a UserError naming its source.
 */
export function resolveBaseUrl(opts: { apiUrl?: string; env?: Env } = {}): string {
  const env = opts.env ?? process.env;
  if (opts.apiUrl !== undefined) return checkBaseUrl(opts.apiUrl, '--api-url');
  const fromEnv = read(env, 'CLOUDFLARE_BASE_URL');
  if (fromEnv) return checkBaseUrl(fromEnv, 'CLOUDFLARE_BASE_URL');
  return DEFAULT_BASE_URL;
}

function checkBaseUrl(raw: string, source: string): string {
  const value = raw.trim();
  const shown = JSON.stringify(redactUrl(value.replace(/\/\/[^/@]*@/, '//')));
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UserError(`${source} ${shown} is not a URL; expected e.g. ${DEFAULT_BASE_URL}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UserError(`${source} ${shown} is not an http(s) URL; expected e.g. ${DEFAULT_BASE_URL}`);
  }
  if (url.search || url.hash) {
    throw new UserError(`${source} ${shown} must not have a query string or fragment`);
  }
  if (url.username || url.password) {
    throw new UserError(`${source} must not carry credentials; use CLOUDFLARE_API_TOKEN instead`);
  }
  return value.replace(/\/+$/, '');
}

/**
 * `1200/300` -> 1200 requests per 300 seconds; `50%` -> half the API's budget (600 per 300 s), so
 * a scheduled run leaves the rest to the other tools of the same user (the real API allows 1200 per
 * 5 minutes per user, whatever the token). `source` names the flag or variable in errors.
 */
export function parseRateLimit(text: string, source = '--rate-limit'): RateLimit {
  const share = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(text);
  if (share) {
    const percent = Number(share[1]);
    const requests = Math.floor((API_BUDGET.requests * percent) / 100);
    if (!(percent > 0) || percent > 100 || requests < 1)
      throw new UserError(
        `${source} ${JSON.stringify(text)}: a share of the API's budget must be above 0% and at most 100%, ` +
          `and leave at least 1 request per ${API_BUDGET.perSeconds} s (e.g. 50%)`,
      );
    return { requests, perSeconds: API_BUDGET.perSeconds, share: percent / 100 };
  }
  const match = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*$/.exec(text);
  const requests = match ? Number(match[1]) : NaN;
  const perSeconds = match ? Number(match[2]) : NaN;
  if (!match || !(requests >= 1) || !(perSeconds > 0) || !Number.isSafeInteger(requests)) {
    throw new UserError(
      `${source} ${JSON.stringify(text)} is not REQUESTS/SECONDS with both above zero (e.g. 1200/300) ` +
        "nor a share of the API's budget (e.g. 50%)",
    );
  }
  return { requests, perSeconds };
}
