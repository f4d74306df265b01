/**
 * The Logpush job filter: a JSON document, sent to the API as a string, that limits which log lines
 * are pushed. Grammar (spec "Filter grammar", docs/reference/api-facts.md "Filter operators"):
 *
 *   filter    := { "where": node }
 *   node      := condition | { "and": [node, ...] } | { "or": [node, ...] }
 *   condition := { "key": field, "operator": op, "value": scalar | [scalar, ...] }
 *
 * `in` and `!in` take an array value, every other operator a scalar. The API refuses a filter whose
 * JSON string is over 1000 bytes or that has over 30 operators; one operator is one condition, and
 * `and`/`or` do not count. The local API and the offline validator both call these functions, so
 * the two can never disagree on what is accepted.
 */
import { childPath, describeType, type Violation } from './violation.js';
import { isObject } from '../shared/values.js';

/** Every comparison operator of the real API. */
export const FILTER_OPERATORS = [
  'eq',
  '!eq',
  'lt',
  'leq',
  'gt',
  'geq',
  'startsWith',
  'endsWith',
  '!startsWith',
  '!endsWith',
  'contains',
  '!contains',
  'in',
  '!in',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** Operators whose value is an array of scalars. */
export const ARRAY_OPERATORS: ReadonlySet<string> = new Set(['in', '!in']);

/** Largest accepted filter, in UTF-8 bytes of the JSON string as sent: 1000 passes, 1001 fails. */
export const MAX_FILTER_BYTES = 1000;
/** Most operators (conditions) in one filter: 30 pass, 31 fail. */
export const MAX_FILTER_OPERATORS = 30;
/**
 * Deepest nesting of and/or groups the walk follows. Not a published API limit: a filter within
 * MAX_FILTER_BYTES cannot nest more than about 95 groups (each costs at least 10 bytes), so this never
 * refuses a filter the byte limit lets through. It exists so that no input (a 10 MB body of nested
 * groups, a deep object in a desired-state file) can exhaust the call stack of a recursive walk.
 */
export const MAX_FILTER_DEPTH = 100;

export type FilterScalar = string | number | boolean;
export interface FilterCondition {
  key: string;
  operator: FilterOperator;
  value: FilterScalar | FilterScalar[];
}
export type FilterNode = FilterCondition | { and: FilterNode[] } | { or: FilterNode[] };
export interface LogpushFilter {
  where: FilterNode;
}

/** Size of a filter string as the API measures it: bytes of its UTF-8 encoding. */
export function filterByteLength(filterJson: string): number {
  return Buffer.byteLength(filterJson, 'utf8');
}

/**
 * Counts the operators of a filter (parsed, or its JSON string): one per condition, wherever it is
 * nested; `and`/`or` groups add nothing. Malformed parts are skipped, not thrown on, so a caller can
 * count before (or without) validating.
 */
export function countFilterOperators(filter: unknown): number {
  const parsed = typeof filter === 'string' ? tryParse(filter) : filter;
  if (!isObject(parsed)) return 0;
  return countNode('where' in parsed ? parsed.where : undefined);
}

/** Iterative (an explicit stack), so that any nesting depth is counted without recursion. */
function countNode(root: unknown): number {
  let count = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isObject(node)) continue;
    const group = Array.isArray(node.and) ? node.and : Array.isArray(node.or) ? node.or : undefined;
    if (group) for (const child of group) stack.push(child);
    else if ('operator' in node) count += 1;
  }
  return count;
}

/**
 * How deeply and/or groups nest below `root` (a single condition is 0), computed iteratively and
 * stopping as soon as `limit` is passed, so that the answer costs no more than the walk it guards.
 */
function groupDepth(root: unknown, limit: number): number {
  let deepest = 0;
  const stack: { node: unknown; depth: number }[] = [{ node: root, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (!isObject(node)) continue;
    const group = Array.isArray(node.and) ? node.and : Array.isArray(node.or) ? node.or : undefined;
    if (!group) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const child of group) stack.push({ node: child, depth: depth + 1 });
  }
  return deepest;
}

/**
 * Checks a filter as the API receives it: a JSON string (or already parsed, as the desired-state
 * file holds it; it is then measured as the compact JSON that would be sent). An empty string, null
 * or undefined means "no filter" and is valid. Paths start with `base` (default `filter`).
 */
export function validateFilter(filter: unknown, base = 'filter'): Violation[] {
  if (filter === undefined || filter === null || filter === '') return [];
  let json: string;
  let parsed: unknown;
  if (typeof filter === 'string') {
    json = filter;
    try {
      parsed = JSON.parse(filter);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return [{ path: base, message: `is not valid JSON (${why})` }];
    }
  } else if (isObject(filter)) {
    parsed = filter;
    try {
      json = JSON.stringify(filter);
    } catch {
      // JSON.stringify recurses: an object nested thousands of levels deep overflows the stack.
      return [{ path: base, message: tooDeepMessage() }];
    }
  } else {
    return [{ path: base, message: `must be a JSON string, got ${describeType(filter)}` }];
  }

  const out: Violation[] = [];
  const bytes = filterByteLength(json);
  // Over the byte limit the filter is refused whatever its grammar, so its tree is not walked: that
  // keeps the work (and the stack) bounded by MAX_FILTER_BYTES however large the body was.
  const oversized = bytes > MAX_FILTER_BYTES;
  if (oversized) {
    out.push({ path: base, message: `is ${bytes} bytes; a filter may be at most ${MAX_FILTER_BYTES} bytes` });
  }
  if (!isObject(parsed)) {
    out.push({ path: base, message: `must be a JSON object with "where" at its top level` });
    return out;
  }
  for (const key of Object.keys(parsed)) {
    if (key !== 'where')
      out.push({ path: childPath(base, key), message: 'unknown key; only "where" is allowed' });
  }
  if (!('where' in parsed)) {
    out.push({ path: base, message: 'must have the key "where" at its top level' });
    return out;
  }
  if (groupDepth(parsed.where, MAX_FILTER_DEPTH) > MAX_FILTER_DEPTH) {
    out.push({ path: childPath(base, 'where'), message: tooDeepMessage() });
  } else if (!oversized) {
    checkNode(parsed.where, childPath(base, 'where'), out);
  }
  const operators = countFilterOperators(parsed);
  if (operators > MAX_FILTER_OPERATORS) {
    out.push({
      path: base,
      message: `has ${operators} operators; a filter may have at most ${MAX_FILTER_OPERATORS} (one per condition)`,
    });
  }
  return out;
}

function tooDeepMessage(): string {
  return `nests "and"/"or" groups more than ${MAX_FILTER_DEPTH} levels deep`;
}

function checkNode(node: unknown, path: string, out: Violation[]): void {
  if (!isObject(node)) {
    out.push({ path, message: `must be a condition or an "and"/"or" group, got ${describeType(node)}` });
    return;
  }
  const groupKey = 'and' in node ? 'and' : 'or' in node ? 'or' : undefined;
  if (groupKey) {
    const extra = Object.keys(node).filter((k) => k !== groupKey);
    if (extra.length > 0) {
      out.push({
        path,
        message: `a group holds only "${groupKey}"; unexpected ${extra.map((k) => `"${k}"`).join(', ')}`,
      });
    }
    const children = node[groupKey];
    const childBase = childPath(path, groupKey);
    if (!Array.isArray(children)) {
      out.push({
        path: childBase,
        message: `must be an array of conditions or groups, got ${describeType(children)}`,
      });
    } else if (children.length === 0) {
      out.push({ path: childBase, message: 'must hold at least one condition or group' });
    } else {
      children.forEach((child, i) => checkNode(child, childPath(childBase, i), out));
    }
    return;
  }
  checkCondition(node, path, out);
}

function checkCondition(node: Record<string, unknown>, path: string, out: Violation[]): void {
  for (const key of Object.keys(node)) {
    if (key !== 'key' && key !== 'operator' && key !== 'value') {
      out.push({
        path: childPath(path, key),
        message: 'unknown key; a condition has only key, operator and value',
      });
    }
  }
  if (typeof node.key !== 'string' || node.key.trim() === '') {
    out.push({ path: childPath(path, 'key'), message: 'must be a non-empty log field name' });
  } else if (!/^[A-Za-z][A-Za-z0-9_.-]*$/.test(node.key)) {
    out.push({ path: childPath(path, 'key'), message: `"${node.key}" is not a log field name` });
  }
  const op = node.operator;
  const opPath = childPath(path, 'operator');
  if (typeof op !== 'string') {
    out.push({ path: opPath, message: `must be one of ${FILTER_OPERATORS.join(', ')}` });
  } else if (!(FILTER_OPERATORS as readonly string[]).includes(op)) {
    out.push({
      path: opPath,
      message: `"${op}" is not an operator; use one of ${FILTER_OPERATORS.join(', ')}`,
    });
  }
  const valuePath = childPath(path, 'value');
  if (!('value' in node)) {
    out.push({ path: valuePath, message: 'is required' });
    return;
  }
  const value = node.value;
  if (typeof op === 'string' && ARRAY_OPERATORS.has(op)) {
    if (!Array.isArray(value)) {
      out.push({
        path: valuePath,
        message: `operator "${op}" takes an array of values, got ${describeType(value)}`,
      });
    } else if (value.length === 0) {
      out.push({ path: valuePath, message: `operator "${op}" needs at least one value` });
    } else {
      value.forEach((v, i) => {
        if (!isScalar(v)) {
          out.push({
            path: childPath(valuePath, i),
            message: `must be a string, number or boolean, got ${describeType(v)}`,
          });
        }
      });
    }
  } else if (!isScalar(value)) {
    const hint = Array.isArray(value) ? ' (only "in" and "!in" take an array)' : '';
    out.push({
      path: valuePath,
      message: `must be a string, number or boolean, got ${describeType(value)}${hint}`,
    });
  }
}

/**
 * The canonical JSON form of a filter (parsed or a JSON string): keys sorted at every level, no
 * whitespace. Two filters that mean the same thing but were written with different key order or
 * spacing get the same canonical form, so a plan compares them without noise. A string that is not
 * JSON is returned unchanged (it cannot be compared semantically).
 */
export function canonicalFilterJson(filter: unknown): string {
  const parsed = typeof filter === 'string' ? tryParse(filter) : filter;
  if (parsed === undefined) return typeof filter === 'string' ? filter : '';
  // sortKeys recurses; a filter nested past the walk's limit is invalid anyway, so it is compared
  // as written rather than risking the stack (an object that deep cannot even be serialised).
  const limit = 2 * MAX_FILTER_DEPTH + 8; // each group level is an object plus an array
  if (jsonDepth(parsed, limit) > limit) {
    return typeof filter === 'string' ? filter : '(a filter nested too deeply to serialise)';
  }
  return JSON.stringify(sortKeys(parsed));
}

/** True when two filters (strings or objects; empty/null/undefined = none) mean the same thing. */
export function sameFilter(a: unknown, b: unknown): boolean {
  const none = (v: unknown) => v === undefined || v === null || v === '';
  if (none(a) || none(b)) return none(a) && none(b);
  return canonicalFilterJson(a) === canonicalFilterJson(b);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys(value[key]);
  return out;
}

/** Nesting depth of any JSON value (objects and arrays), iterative, stopping once past `limit`. */
function jsonDepth(root: unknown, limit: number): number {
  let deepest = 0;
  const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const child of Object.values(value)) stack.push({ value: child, depth: depth + 1 });
  }
  return deepest;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isScalar(value: unknown): value is FilterScalar {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}
