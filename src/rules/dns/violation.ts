/**
 * The shape every DNS rule returns, and the error codes it uses. Codes follow the real v4 API
 * where it is known (docs/reference/api-facts.md); the few rules the real API has no published code for use
 * codes from the 9100 range under the 1004 "DNS Validation Error" umbrella, listed in LOCAL_CODES.
 * The local API puts a violation straight into an envelope's `errors` (with `chain` as
 * `error_chain`); the offline validator turns `message` into a diagnostic.
 */

export interface ChainItem {
  code: number;
  message: string;
}

export interface Violation {
  code: number;
  message: string;
  /** the real API's `error_chain`: the specific reason under a 1004 "DNS Validation Error" */
  chain?: ChainItem[];
}

/** Codes of the real API (seen in real responses). */
export const CODES = {
  validation: 1004,
  /** proxied record pointing at an address that may not be proxied */
  proxiedTarget: 9003,
  notProxiable: 9004,
  badIpv4: 9005,
  badIpv6: 9006,
  badCnameContent: 9007,
  mxNotHostname: 9009,
  badTtl: 9021,
  badName: 9000,
  /** A, AAAA or CNAME exists where a CNAME is being written */
  cnameTargetTaken: 81053,
  /** a CNAME exists where another record is being written */
  cnameExists: 81054,
  recordExists: 81057,
  identical: 81058,
  recordMissing: 81044,
} as const;

/** Codes zoneplan uses where the real API publishes none (all under 1004). */
export const LOCAL_CODES = {
  badType: 9100,
  badData: 9101,
  badContent: 9102,
  cnameChain: 9103,
  lastAddress: 9104,
  locked: 9105,
  badPriority: 9106,
  badTags: 9107,
  badComment: 9108,
} as const;

export const DNS_VALIDATION_ERROR = 'DNS Validation Error';

/** A 1004 "DNS Validation Error" whose chain carries the specific reason. */
export function dnsError(code: number, message: string): Violation {
  return { code: CODES.validation, message: DNS_VALIDATION_ERROR, chain: [{ code, message }] };
}

/** The most specific message of a violation: the chain's, else its own. */
export function violationText(v: Violation): string {
  return v.chain && v.chain.length > 0 ? v.chain.map((c) => c.message).join('; ') : v.message;
}

/** Tells a violation from a value in the `Value | Violation` results of the rules. */
export function isViolation(x: unknown): x is Violation {
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof (x as Violation).code === 'number' &&
    typeof (x as Violation).message === 'string' &&
    Object.keys(x).every((k) => k === 'code' || k === 'message' || k === 'chain')
  );
}
