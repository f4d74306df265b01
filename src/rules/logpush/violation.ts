/**
 * One broken rule: `path` says where (a dotted path such as `filter.where.and[2].operator`, relative to
 * the object that was checked) and `message` says what is wrong. Messages never repeat a value that
 * may hold a secret (a destination's credentials), so callers can print them as they are.
 */
export interface Violation {
  path: string;
  message: string;
}

/** Joins a parent path and a child key the way every message of the rules writes paths. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}

/** A short, safe description of a value's type for messages ("a string", "an array", "null"). */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  if (typeof value === 'boolean') return 'a boolean';
  return typeof value;
}
