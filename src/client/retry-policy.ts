/**
 * Which failures are worth another attempt. The rule that matters: a create (POST) or an edit
 * (PATCH) is repeated only when the failure proves it was not processed (the connection was refused
 * before anything was sent, or the server answered 429) or the caller said repeating it is harmless.
 * Otherwise the error says the outcome is unknown and the reconciler re-reads the object, because a
 * blindly repeated create makes a duplicate record.
 */

/** What one attempt produced, before any envelope parsing. */
export type AttemptOutcome =
  { kind: 'response'; status: number } | { kind: 'failure'; failure: TransportFailure };

export interface TransportFailure {
  /** `ECONNREFUSED`, `ECONNRESET`, `TIMEOUT`, `UND_ERR_SOCKET`, ... (shown in the log line) */
  code: string;
  /** true when nothing reached the server: the request was certainly not processed */
  notSent: boolean;
  /** worth another attempt at all (a host that does not exist is not) */
  transient: boolean;
  /** one-line description for the error message, e.g. `connection failed: ECONNREFUSED (...)` */
  detail: string;
}

export type Verdict =
  | 'done' // a final answer: success, or an error the server meant (4xx other than 429)
  | 'retry'
  | 'unknown' // may have been applied and must not be repeated: give up, outcomeUnknown
  | 'fail'; // a failure that retrying cannot fix

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

export function isIdempotent(method: string): boolean {
  return IDEMPOTENT.has(method.toUpperCase());
}

export function judge(method: string, outcome: AttemptOutcome, retrySafe: boolean): Verdict {
  const repeatable = retrySafe || isIdempotent(method);
  if (outcome.kind === 'response') {
    if (outcome.status === 429) return 'retry'; // the API refused it without processing it
    if (outcome.status >= 500) return repeatable ? 'retry' : 'unknown';
    return 'done';
  }
  const f = outcome.failure;
  if (!f.transient) return 'fail';
  if (f.notSent || repeatable) return 'retry';
  return 'unknown';
}

/** Codes of failures that happen before a request is written: repeating them is always safe. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** Codes of failures that retrying cannot fix. */
const PERMANENT = new Set([
  'ENOTFOUND',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Turns whatever undici or node:net threw into a TransportFailure; `origin` is shown in messages. */
export function classifyTransportFailure(
  error: unknown,
  timedOut: boolean,
  timeoutMs: number,
  origin: string,
): TransportFailure {
  if (timedOut) {
    return { code: 'TIMEOUT', notSent: false, transient: true, detail: `timed out after ${timeoutMs}ms` };
  }
  const code = errorCode(error) ?? 'ERROR';
  const notSent = NOT_SENT.has(code);
  const transient = !PERMANENT.has(code) && !code.startsWith('ERR_INVALID') && code !== 'UND_ERR_INVALID_ARG';
  const why =
    code === 'ENOTFOUND'
      ? ', host not found'
      : code === 'UND_ERR_SOCKET'
        ? ', the server closed the connection'
        : code === 'ERROR' && error instanceof Error
          ? `, ${error.message}`
          : '';
  return { code, notSent, transient, detail: `connection failed: ${code}${why} (${origin})` };
}

/** The first `code` along the error and its causes (undici wraps node:net errors). */
function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth += 1) {
    if (typeof e !== 'object') break;
    const { code, cause, errors } = e as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string' && code) return code;
    // AggregateError from happy-eyeballs connects: the first member says it.
    e = cause ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return undefined;
}
