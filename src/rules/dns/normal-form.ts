/**
 * The one normal form of a record's value and tags: what the local API stores (record.ts runs the
 * same checks) and what the planner compares, so any spelling the validator accepts converges after
 * one apply. Hex digests and CAA tags lower-cased, numbers from digit strings, host names lower-case
 * without the dot, base64 without blanks, addresses canonical, structured `content` parsed to `data`.
 * Tolerant: a value the rules refuse gives null and the caller keeps its own form (the validator
 * has already said why).
 */
import { checkValue, type RecordValue } from './content.js';
import { checkTags } from './fields.js';
import { isViolation } from './violation.js';

/**
 * The stored value of a record of a known type, or null when the rules refuse it. The checks that
 * need the record's name or proxy status do not change the form, so neither is asked for.
 */
export function canonicalValue(
  type: string,
  input: { content?: unknown; data?: unknown; priority?: unknown },
): RecordValue | null {
  const v = checkValue(type, input, '', false);
  return isViolation(v) ? null : v;
}

/** Tags as stored: names lower case, trimmed, deduplicated, sorted; null when the rules refuse them. */
export function canonicalTags(tags: unknown): string[] | null {
  const t = checkTags(tags);
  return isViolation(t) ? null : t;
}
