/**
 * The zone-name rule, shared by the local API (POST /zones, fixtures) and the desired-state schema:
 * labels of letters, digits and inner hyphens, each at most 63 characters; at least two labels; the
 * last label (the TLD) starts with a letter and has two or more characters; at most 253 characters
 * in all. Any case and one trailing dot are accepted (the stored form is lower case without the dot,
 * see normaliseZoneName). IDNs must be written in punycode (`xn--...`).
 */
import { normaliseZoneName } from './dns/names.js';
import type { Violation } from './dns/violation.js';

/**
 * The rule as a JSON Schema `pattern` (ECMAScript syntax, valid with and without the `u` flag):
 * the string form of ZONE_NAME, for a schema that must hold text rather than a RegExp.
 */
export const ZONE_NAME_PATTERN =
  '^(?=.{1,253}\\.?$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z][A-Za-z0-9-]{0,61}[A-Za-z0-9]\\.?$';

/** The rule as a RegExp: `ZONE_NAME.test(name)` on a name as written (any case, optional trailing dot). */
export const ZONE_NAME = new RegExp(ZONE_NAME_PATTERN);

/** The real API's code for an invalid zone name on POST /zones. */
export const INVALID_ZONE_NAME = 1099;

/** Whether a zone name, as written, follows the rule. */
export function isZoneName(name: string): boolean {
  return ZONE_NAME.test(name.trim());
}

/**
 * Checks a zone name as written (surrounding blanks are ignored); null when it is valid. The
 * message quotes the normalised name: `"exa mple.com" is not a valid domain name.`
 */
export function checkZoneName(name: string): Violation | null {
  if (isZoneName(name)) return null;
  return {
    code: INVALID_ZONE_NAME,
    message: `"${normaliseZoneName(name)}" is not a valid domain name.`,
  };
}
