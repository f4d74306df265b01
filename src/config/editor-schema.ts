/**
 * The schema as editors and other tools read it (schema/zoneplan.schema.json): the composed schema
 * with a `${var:NAME}` or `${env:NAME}` reference accepted wherever a typed value may be. zoneplan
 * itself resolves references before it checks a document, against the composed schema as it is,
 * so a reference never hides a wrong value from `zoneplan validate`; the editor, which sees the
 * file as written, must not flag `ttl: ${var:ttl}` or `account: ${var:account}`. (Where the loader
 * refuses `${env:NAME}`, in identifiers (./identifiers.ts), the editor does not say so: `zoneplan
 * validate` does, at the place.)
 */
import type { JsonSchema } from './json-schema.js';
import { isObject, type Entry } from '../rules/shared/values.js';

export const REFERENCE_PATTERN = '^\\$\\{(var|env):[A-Za-z_][A-Za-z0-9_]*\\}$';

const reference: JsonSchema = {
  type: 'string',
  pattern: REFERENCE_PATTERN,
  description: 'a `${var:NAME}` variable or an `${env:NAME}` secret, resolved when zoneplan reads the file',
};

/** A JSON Schema node: an object (booleans and other values are passed through as they are). */
type Node = Entry;
const ANNOTATIONS = ['title', 'description', 'markdownDescription', 'default', 'errorMessage'];

/** Keywords whose value is one subschema, or a map or list of subschemas. */
const ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const MAP = ['properties', 'patternProperties', '$defs'];
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/** Whether a plain string would already pass this node: then a reference passes too. */
function acceptsAnyString(n: Node): boolean {
  return (
    n.type === 'string' &&
    !('pattern' in n) &&
    !('enum' in n) &&
    !('const' in n) &&
    !('format' in n) &&
    !('minLength' in n) &&
    !('maxLength' in n)
  );
}

/** A node for maps with keys of their own (an entry, a filter group), or a choice among such. */
function isMapNode(n: Node): boolean {
  if (n.type === 'object' || 'properties' in n) return true;
  const branches = [...((n.anyOf as unknown[]) ?? []), ...((n.oneOf as unknown[]) ?? [])];
  return branches.length > 0 && branches.every((b) => isObject(b) && isMapNode(b));
}

/** A value node: it constrains a scalar, or is a list of scalars (not a map with its own keys). */
function isValueNode(n: Node): boolean {
  if ('$ref' in n || isMapNode(n)) return false;
  if (n.type === 'array') return !(isObject(n.items) && isMapNode(n.items));
  return ['type', 'enum', 'const', 'pattern', 'format', 'minimum', 'maximum', 'anyOf', 'oneOf'].some(
    (k) => k in n,
  );
}

function walk(schema: unknown, key?: string): unknown {
  if (!isObject(schema)) return schema;
  const out: Node = {};
  for (const [k, v] of Object.entries(schema)) {
    if (ONE.includes(k) && isObject(v)) out[k] = k === 'propertyNames' ? v : walk(v, k);
    else if (MAP.includes(k) && isObject(v))
      out[k] = Object.fromEntries(Object.entries(v).map(([name, sub]) => [name, walk(sub)]));
    // a branch of anyOf/oneOf is not wrapped itself: the reference is offered once, beside them
    else if (LIST.includes(k) && Array.isArray(v)) out[k] = v.map((sub) => walk(sub, k));
    else out[k] = v;
  }
  // `if` only selects a branch; a reference in a condition is never meant
  if (key === 'if' || key === 'anyOf' || key === 'oneOf' || !isValueNode(out) || acceptsAnyString(out))
    return out;
  if (Array.isArray(out.anyOf) && Object.keys(out).every((k) => k === 'anyOf' || ANNOTATIONS.includes(k)))
    return { ...out, anyOf: [...out.anyOf, reference] };
  // lift the annotations, so hovers and completion still show them
  const { description, title, default: dflt, markdownDescription, ...rest } = out;
  const annotations = Object.fromEntries(
    Object.entries({ title, description, markdownDescription, default: dflt }).filter(
      ([, v]) => v !== undefined,
    ),
  );
  return { ...annotations, anyOf: [rest, reference] };
}

/** The composed schema with references accepted; the root and the `vars:` map stay as they are. */
export function withReferences(schema: JsonSchema): JsonSchema {
  return walk(schema) as JsonSchema;
}
