/**
 * Checks a document against the composed schema with ajv (2020-12, all errors) and turns ajv's
 * errors into messages a person can act on: the offending key or value is named, types are said
 * plainly ("expected a boolean, got the string \"yes\""), misspelt keys and values get a "did you
 * mean", and the noise of anyOf/if-then branches is folded into one message per place.
 */
import type { ErrorObject } from 'ajv';
import type { JsonSchema } from './json-schema.js';
import { childPath, pointerToPath } from './paths.js';
import { schemaValidator } from './schema-validator.js';
import { closest } from './suggest.js';

export { createAjv, EDITOR_KEYWORDS } from './ajv-setup.js';

/** One schema problem: where (dotted path; `atKey` points at the key rather than the value) and what. */
export interface SchemaProblem {
  path: string;
  atKey: boolean;
  message: string;
}

/** Validates `value` against the composed schema; [] when it conforms. */
export function checkSchema(value: unknown): SchemaProblem[] {
  const validate = schemaValidator();
  if (validate(value)) return [];
  return explain(validate.errors ?? [], value);
}

function explain(errors: ErrorObject[], root: unknown): SchemaProblem[] {
  const kept = foldAlternatives(errors);
  const problems: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const e of kept) {
    const p = describe(e, root);
    if (!p) continue;
    const key = `${p.path}\u0000${p.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(p);
  }
  return problems;
}

/**
 * For each failed anyOf/oneOf: when exactly one branch expects the value's type, keep that
 * branch's errors (the user clearly meant it); otherwise replace all with one "expected X or Y".
 * `if` errors are always dropped: their `then` errors say what is wrong.
 */
function foldAlternatives(errors: ErrorObject[]): ErrorObject[] {
  const dropped = new Set<ErrorObject>();
  const indexOf = new Map(errors.map((e, i) => [e, i]));
  const alternatives = errors
    .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
    .sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const alt of alternatives) {
    if (dropped.has(alt)) continue;
    const branches = (Array.isArray(alt.schema) ? alt.schema : []) as JsonSchema[];
    const inside = branchErrors(errors, indexOf.get(alt)!);
    const fitting = branches.map((b, i) => (typeFits(b, alt.data) ? i : -1)).filter((i) => i >= 0);
    // A const or enum branch is no evidence of intent (`automatic` is not a misspelt `auto` branch).
    const chosen = fitting.length === 1 ? branches[fitting[0]] : undefined;
    if (chosen && !('const' in chosen) && !('enum' in chosen) && alt.keyword === 'anyOf') {
      const prefix = `${alt.schemaPath}/${fitting[0]}/`;
      for (const e of inside) if (!e.schemaPath.startsWith(prefix)) dropped.add(e);
      if (inside.some((e) => e.schemaPath.startsWith(prefix))) dropped.add(alt);
    } else {
      for (const e of inside) dropped.add(e);
    }
  }
  return errors.filter((e) => !dropped.has(e) && e.keyword !== 'if');
}

/**
 * The errors of the branches of the anyOf/oneOf error at `at`: ajv (allErrors) emits them just
 * before it, so they are the run that ends there whose schema path is under the alternative's and
 * whose data is the alternative's value or inside it. Taking the run, not every error with a matching
 * schema path, keeps the other list entries' errors apart (the same schema path recurs for every
 * record) and keeps the fold linear on a file with thousands of such errors.
 */
function branchErrors(errors: ErrorObject[], at: number): ErrorObject[] {
  const alt = errors[at];
  const schemaPrefix = alt.schemaPath + '/';
  const inside: ErrorObject[] = [];
  for (let i = at - 1; i >= 0; i--) {
    const e = errors[i];
    const sameData = e.instancePath === alt.instancePath || e.instancePath.startsWith(alt.instancePath + '/');
    if (!sameData || !e.schemaPath.startsWith(schemaPrefix)) break;
    inside.push(e);
  }
  return inside;
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeFits(schema: JsonSchema, value: unknown): boolean {
  const t = jsonType(value);
  if ('const' in schema)
    return jsonType(schema.const) === t || (t === 'integer' && typeof schema.const === 'number');
  if (Array.isArray(schema.enum)) return schema.enum.some((v) => jsonType(v) === t);
  const types = ([] as unknown[]).concat(schema.type ?? []);
  return types.some((x) => x === t || (x === 'number' && t === 'integer'));
}

const TYPE_NAMES: Record<string, string> = {
  boolean: 'a boolean (true or false)',
  integer: 'a whole number',
  number: 'a number',
  string: 'a string',
  array: 'a list',
  object: 'a map of keys',
  null: 'null',
};

/** "the string \"yes\"", "the number 3", "a list", ... (long strings are cut). */
export function describeValue(v: unknown): string {
  if (typeof v === 'string') {
    const s = v.length > 60 ? v.slice(0, 57) + '...' : v;
    return `the string ${JSON.stringify(s)}`;
  }
  if (typeof v === 'number') return `the number ${v}`;
  if (typeof v === 'boolean') return `the boolean ${v}`;
  if (v === null || v === undefined) return 'an empty value';
  if (Array.isArray(v)) return 'a list';
  return 'a map of keys';
}

/**
 * A document's top-level value, by its kind only. A file whose top level is not a map is not a
 * desired-state file, and may be anything (a `.env` file, a key): no message quotes any of it.
 */
function describeRootValue(v: unknown): string {
  const kind =
    typeof v === 'string'
      ? 'text'
      : typeof v === 'number'
        ? 'a number'
        : typeof v === 'boolean'
          ? 'a boolean'
          : describeValue(v);
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
    ? `${kind} (not shown: a file that is not a map of keys is not read as a desired-state file)`
    : kind;
}

/** What a schema accepts, in words, for "expected ..." messages. */
function describeSchema(s: JsonSchema): string {
  if ('const' in s) return typeof s.const === 'string' ? `\`${s.const}\`` : String(s.const);
  if (Array.isArray(s.enum)) return `one of ${s.enum.map((v) => String(v)).join(', ')}`;
  const types = ([] as unknown[]).concat(s.type ?? []).map((t) => TYPE_NAMES[String(t)] ?? String(t));
  let words = types.length ? types.join(' or ') : 'a value of another shape';
  if (typeof s.minimum === 'number' && typeof s.maximum === 'number')
    words += ` from ${s.minimum} to ${s.maximum}`;
  return words;
}

function orList(items: string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

function describe(e: ErrorObject, root: unknown): SchemaProblem | undefined {
  const path = pointerToPath(e.instancePath, root);
  const params = e.params as Record<string, unknown>;
  const parent = (e.parentSchema ?? {}) as JsonSchema;
  const at = (message: string): SchemaProblem => ({ path, atKey: false, message });
  const got = (v: unknown) => (path === '' ? describeRootValue(v) : describeValue(v));
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const known = Object.keys((parent.properties as JsonSchema | undefined) ?? {}).filter(
        (k) => k !== '$schema',
      );
      const guess = closest(key, known);
      const hint = guess
        ? `; did you mean \`${guess}\`?`
        : known.length && known.length <= 12
          ? ` (expected one of: ${known.join(', ')})`
          : '';
      return { path: childPath(path, key), atKey: true, message: `unknown key \`${key}\`${hint}` };
    }
    case 'required':
      // at the key that holds the incomplete map (`dns:`), or at the list item itself
      return { path, atKey: true, message: `missing required key \`${String(params.missingProperty)}\`` };
    case 'dependentRequired':
      return {
        path: childPath(path, String(params.property)),
        atKey: true,
        message: `needs \`${String(params.missingProperty)}\` beside it`,
      };
    case 'type':
      return at(`expected ${describeSchema({ type: params.type })}, got ${got(e.data)}`);
    case 'const':
      return at(`expected ${describeSchema({ const: params.allowedValue })}, got ${got(e.data)}`);
    case 'enum': {
      const retired = parent.retiredValues as Record<string, string> | undefined;
      const instead = typeof e.data === 'string' ? retired?.[e.data.toUpperCase()] : undefined;
      if (instead !== undefined) return at(instead);
      const allowed = (params.allowedValues as unknown[]).map(String);
      const guess = typeof e.data === 'string' ? closest(e.data, allowed) : undefined;
      const got = typeof e.data === 'string' ? `\`${e.data}\`` : describeValue(e.data);
      return at(`${got} is not one of ${allowed.join(', ')}${guess ? `; did you mean \`${guess}\`?` : ''}`);
    }
    case 'anyOf':
    case 'oneOf': {
      const branches = (Array.isArray(e.schema) ? e.schema : []) as JsonSchema[];
      if (e.keyword === 'oneOf' && Array.isArray(params.passingSchemas)) {
        return at('matches more than one of the allowed shapes; make it unambiguous');
      }
      return at(`expected ${orList(branches.map(describeSchema))}, got ${got(e.data)}`);
    }
    case 'pattern':
      return at(
        typeof parent.patternErrorMessage === 'string'
          ? `${parent.patternErrorMessage}, got ${describeValue(e.data)}`
          : `${describeValue(e.data)} does not match the pattern ${String(params.pattern)}`,
      );
    case 'format':
      return at(`expected ${article(String(params.format))} ${params.format}, got ${describeValue(e.data)}`);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return at(`must be ${String(params.comparison)} ${String(params.limit)}, got ${String(e.data)}`);
    case 'minLength':
      return at(
        params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters`,
      );
    case 'maxLength':
      return at(`must be at most ${String(params.limit)} characters (got ${(e.data as string).length})`);
    case 'minItems':
      return at(`must have at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}`);
    case 'maxItems':
      return at(`must have at most ${String(params.limit)} items`);
    case 'minProperties':
      return at(params.limit === 1 ? 'must not be empty' : `must have at least ${String(params.limit)} keys`);
    case 'maxProperties':
      return at(
        params.limit === 1
          ? `set only one of ${Object.keys((parent.properties as JsonSchema) ?? {}).join(', ')}`
          : `must have at most ${String(params.limit)} keys`,
      );
    case 'uniqueItems':
      return at(`items ${String(params.j)} and ${String(params.i)} are the same; list each once`);
    case 'false schema':
      return at('is not allowed here');
    default:
      return at(e.message ?? `fails the ${e.keyword} rule`);
  }
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}
