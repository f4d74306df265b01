/**
 * How long to wait before the next attempt. Exponential backoff with full jitter (AWS architecture
 * blog, "Exponential Backoff And Jitter"): many clients failing together do not retry together.
 * A server's `retry-after` is honoured exactly instead: it knows when the block ends.
 */

/** The longest backoff between two attempts. */
export const BACKOFF_CAP_MS = 30_000;
/** The longest `retry-after` we wait for; the real API blocks for 5 minutes at most. */
export const RETRY_AFTER_CAP_MS = 300_000;

/** Delay before attempt `attempt + 1`, after `attempt` (1-based) failed: uniform in [0, min(cap, base*2^(attempt-1))]. */
export function backoffDelay(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/**
 * `retry-after` in ms: delta-seconds (`1`, `1.5`) or an HTTP date. Undefined when absent or
 * unreadable (the caller then backs off as usual); never negative; capped at 5 minutes.
 */
export function parseRetryAfter(
  header: string | string[] | undefined,
  now: number = Date.now(),
): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(value)) {
    ms = Math.ceil(Number(value) * 1000);
  } else {
    // An HTTP date always names a weekday and a month; Date.parse alone would read '-3' as a year.
    const at = /[a-z]{3}/i.test(value) ? Date.parse(value) : NaN;
    if (Number.isNaN(at)) return undefined;
    ms = at - now;
  }
  return Math.min(RETRY_AFTER_CAP_MS, Math.max(0, ms));
}

export function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}
