/**
 * The small shapes that the reconciler, the local API and the rules all check, defined once here
 * (src/rules is the one place both sides may import).
 */

/** A JSON object as read from a file or a request body, before its fields are checked. */
export type Entry = Record<string, unknown>;

/** True for a JSON object: not null, not an array. */
export function isObject(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The shape of every 32-hex id the API hands out (zones, records, accounts, pools, ...): lower case. */
export const ID32 = /^[0-9a-f]{32}$/;

/** The same shape in either case, as a pattern string (JSON Schema) and as a RegExp, for input from users. */
export const ID32_ANY_CASE_PATTERN = '^[0-9a-fA-F]{32}$';
export const ID32_ANY_CASE = new RegExp(ID32_ANY_CASE_PATTERN);
