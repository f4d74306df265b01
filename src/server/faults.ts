/**
 * Fault injection for testing clients: `latency=50ms,error5xx=0.1,ratelimit=1200/300s,seed=42`.
 * - latency: added before every API request is handled;
 * - error5xx: the share of API requests answered 503 (deterministic with a seed);
 * - ratelimit: a token bucket of N requests per window; over it 429 code 971 with retry-after
 *   and x-ratelimit-* headers, as the real API answers.
 * Test-only routes (/__zoneplan) are never faulted.
 */
import { UserError } from '../errors.js';
import { seededRandom } from '../seeded-random.js';
import { ApiError, ERR } from './http/envelope.js';

export interface FaultSpec {
  latencyMs?: number;
  error5xx?: number;
  ratelimit?: { limit: number; windowSeconds: number };
  seed?: number;
}

function duration(text: string, what: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!m) throw new UserError(`--faults: ${what} must be a duration such as 50ms, 2s or 5m, not "${text}"`);
  const n = Number(m[1]);
  return m[2] === 's' ? n * 1000 : m[2] === 'm' ? n * 60_000 : n;
}

/** Parses the `--faults` text. Unknown keys and bad values are user errors that say which. */
export function parseFaults(text: string): FaultSpec {
  const spec: FaultSpec = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=');
    if (eq < 0)
      throw new UserError(`--faults: "${part}" must be key=value (latency, error5xx, ratelimit, seed)`);
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 'latency') spec.latencyMs = duration(value, 'latency');
    else if (key === 'error5xx') {
      const n = Number(value);
      if (!Number.isFinite(n) || n < 0 || n > 1)
        throw new UserError(`--faults: error5xx must be a share from 0 to 1, not "${value}"`);
      spec.error5xx = n;
    } else if (key === 'ratelimit') {
      const m = /^(\d+)\/(.+)$/.exec(value);
      if (!m || Number(m[1]) < 1)
        throw new UserError(`--faults: ratelimit must be N/window such as 1200/300s, not "${value}"`);
      const windowMs = duration(/[a-z]$/.test(m[2]) ? m[2] : m[2] + 's', 'the ratelimit window');
      if (windowMs <= 0) throw new UserError('--faults: the ratelimit window must be positive');
      spec.ratelimit = { limit: Number(m[1]), windowSeconds: windowMs / 1000 };
    } else if (key === 'seed') {
      if (!/^\d+$/.test(value)) throw new UserError(`--faults: seed must be a whole number, not "${value}"`);
      spec.seed = Number(value);
    } else
      throw new UserError(`--faults: unknown fault "${key}" (known: latency, error5xx, ratelimit, seed)`);
  }
  return spec;
}

export class Faults {
  private readonly random: () => number;
  private tokens: number;
  private last = Date.now();

  constructor(readonly spec: FaultSpec) {
    this.random = spec.seed !== undefined ? seededRandom(spec.seed) : Math.random;
    this.tokens = spec.ratelimit?.limit ?? 0;
  }

  get active(): boolean {
    return Boolean(this.spec.latencyMs || this.spec.error5xx || this.spec.ratelimit);
  }

  /**
   * Headers the rate limit adds to an API answer: the budget left once that request is counted, as
   * the real API reports it (the first of N requests in a window says N - 1 remain).
   */
  rateHeaders(): Record<string, string> {
    const rl = this.spec.ratelimit;
    if (!rl) return {};
    return {
      'x-ratelimit-limit': String(rl.limit),
      'x-ratelimit-remaining': String(Math.max(0, Math.floor(this.tokens))),
    };
  }

  /**
   * Runs before an API request: counts it against the rate limit, waits out the latency, then
   * throws a 429 or 503 when due. Returns the rate headers as of the moment this request was counted
   * (taken before the latency wait, so concurrent requests cannot shift them); the thrown errors
   * carry the same headers.
   */
  async before(): Promise<Record<string, string>> {
    const rl = this.spec.ratelimit;
    if (rl) {
      const rate = rl.limit / rl.windowSeconds;
      const t = Date.now();
      this.tokens = Math.min(rl.limit, this.tokens + ((t - this.last) / 1000) * rate);
      this.last = t;
      if (this.tokens < 1) {
        const retry = Math.max(1, Math.ceil((1 - this.tokens) / rate));
        throw new ApiError(429, [{ code: ERR.rateLimited.code, message: ERR.rateLimited.message }], {
          'retry-after': String(retry),
          ...this.rateHeaders(),
        });
      }
      this.tokens -= 1;
    }
    const headers = this.rateHeaders();
    if (this.spec.latencyMs) await new Promise((r) => setTimeout(r, this.spec.latencyMs));
    if (this.spec.error5xx && this.random() < this.spec.error5xx) {
      throw new ApiError(
        ERR.unavailable.status,
        [{ code: ERR.unavailable.code, message: ERR.unavailable.message }],
        headers,
      );
    }
    return headers;
  }
}
