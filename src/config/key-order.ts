/**
 * The canonical order of a desired-state file's keys (`zoneplan fmt`, docs/file-format.md): the
 * order of `properties` in the composed schema (./schema.ts), which lists every object's keys as
 * its documentation reads them (a record's `name, type, content, data, ttl, ...`). The schema is
 * walked beside the document: a map's keys are ranked by the schema of its place, a key the
 * schema does not name keeps its place after the named ones, and the schemas of the values are
 * found the same way below. A branch chosen by `if` (a record's `data` by its `type`) applies only
 * when its condition holds for the map as written.
 */
import { isObject } from '../rules/shared/values.js';
import type { JsonSchema } from './json-schema.js';

/** The schemas that apply at one place of the document (several where branches meet). */
export type Place = readonly JsonSchema[];

const isSchema = (v: unknown): v is JsonSchema => isObject(v);

/** A scalar of the map as written, or undefined for a key it lacks or a collection. */
export type ScalarOf = (key: string) => { value: unknown } | undefined;

/**
 * Every schema that speaks for an object at this place: the place's own, and those of its
 * `allOf` / `anyOf` / `oneOf` branches and of the `then` / `else` that its `if` chooses.
 */
function branches(place: Place, scalarOf: ScalarOf): JsonSchema[] {
  const out: JsonSchema[] = [];
  const add = (s: unknown) => {
    if (!isSchema(s) || out.includes(s)) return;
    out.push(s);
    for (const key of ['allOf', 'anyOf', 'oneOf'])
      if (Array.isArray(s[key])) for (const b of s[key] as unknown[]) add(b);
    if (isSchema(s.if)) add(holds(s.if, scalarOf) ? s.then : s.else);
  };
  for (const s of place) add(s);
  return out;
}

/** Whether an `if` of `properties` with `const` / `enum` (or `anyOf` of them) holds for the map. */
function holds(condition: JsonSchema, scalarOf: ScalarOf): boolean {
  const properties = isSchema(condition.properties) ? condition.properties : {};
  const required = Array.isArray(condition.required) ? (condition.required as string[]) : [];
  for (const key of required) if (!scalarOf(key)) return false;
  return Object.entries(properties).every(([key, s]) => {
    const written = scalarOf(key);
    return written === undefined || matches(s, written.value);
  });
}

function matches(s: unknown, value: unknown): boolean {
  if (!isSchema(s)) return true;
  if ('const' in s) return s.const === value;
  if (Array.isArray(s.enum)) return s.enum.includes(value);
  if (Array.isArray(s.anyOf)) return s.anyOf.some((b) => matches(b, value));
  if (typeof s.pattern === 'string')
    return typeof value === 'string' && new RegExp(s.pattern, 'u').test(value);
  return true;
}

/** The rank of each key the schema names at this place, in the order it names them. */
export function keyRanks(place: Place, scalarOf: ScalarOf): Map<string, number> {
  const ranks = new Map<string, number>();
  for (const s of branches(place, scalarOf))
    if (isSchema(s.properties))
      for (const key of Object.keys(s.properties)) if (!ranks.has(key)) ranks.set(key, ranks.size);
  return ranks;
}

/** The place of the value under `key` of a map at `place`. */
export function placeOfKey(place: Place, key: string, scalarOf: ScalarOf): Place {
  const out: JsonSchema[] = [];
  for (const s of branches(place, scalarOf)) {
    const named = isSchema(s.properties) ? s.properties[key] : undefined;
    if (isSchema(named)) out.push(named);
    else if (isSchema(s.additionalProperties)) out.push(s.additionalProperties);
  }
  return out;
}

/** The place of the items of a list at `place`. */
export function placeOfItems(place: Place): Place {
  const out: JsonSchema[] = [];
  for (const s of branches(place, () => undefined)) if (isSchema(s.items)) out.push(s.items);
  return out;
}

/**
 * `schema` with each `$ref` to a schema it holds (by that schema's `$id`) replaced by the schema
 * itself: zoneplan's checks reach each kind's fragment by `$ref` (./schema.ts), and the key order
 * walks one tree.
 */
export function withReferencesInline(schema: JsonSchema): JsonSchema {
  const byId = new Map<string, JsonSchema>();
  const collect = (s: unknown): void => {
    if (Array.isArray(s)) s.forEach(collect);
    else if (isSchema(s)) {
      if (typeof s.$id === 'string') byId.set(s.$id, s);
      Object.values(s).forEach(collect);
    }
  };
  collect(schema);
  const inline = (s: unknown): unknown => {
    if (Array.isArray(s)) return s.map(inline);
    if (!isSchema(s)) return s;
    const target = typeof s.$ref === 'string' ? byId.get(s.$ref) : undefined;
    if (target) return inline(target);
    return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, inline(v)]));
  };
  return inline(schema) as JsonSchema;
}
