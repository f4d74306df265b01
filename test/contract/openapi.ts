/**
 * The published OpenAPI 3.0 subset (copied from ../shared/reference so the suite is hermetic) as a
 * validator of HTTP exchanges. ajv does the checking; this file only adapts 3.0 to JSON Schema:
 * `nullable: true` becomes a type array (or `anyOf` with null), `discriminator` hints are dropped
 * (their `oneOf` still checks), and every `$ref` points into the one registered document.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const SPEC_FILE = fileURLToPath(new URL('./openapi-subset.json', import.meta.url));
const DOC_ID = 'openapi-subset.json';
/** Which way a body travels: the document is registered once per side (readOnly/writeOnly differ). */
type Side = 'request' | 'response';
const docId = (side: Side) => `${side}-${DOC_ID}`;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

type Json = Record<string, unknown>;

/** One problem with one exchange: where (e.g. `response 200 body`) and what ajv said. */
export interface Violation {
  operation: string;
  where: string;
  message: string;
}

export interface Exchange {
  method: string;
  /** path below /client/v4, with the query */
  url: string;
  requestBody?: unknown;
  status: number;
  responseBody?: unknown;
}

/**
 * 3.0 schema to JSON Schema: nullable to type arrays, refs into the registered document. A `oneOf`
 * whose branches each fix `type` to one value (the DNS record shapes) becomes one `if`/`then` per
 * value: the same verdict, since the values are distinct, but a record is judged against its own
 * shape only, instead of ajv reporting why it is none of the other twenty.
 */
function adapt(node: unknown, doc: Json, side: Side): unknown {
  if (Array.isArray(node)) return node.map((n) => adapt(n, doc, side));
  if (!node || typeof node !== 'object') return node;
  const n = node as Json;
  const out: Json = {};
  for (const [k, v] of Object.entries(n)) {
    if (k === 'discriminator' || k === 'nullable' || k === 'example') continue;
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#')) out.$ref = docId(side) + v;
    else out[k] = adapt(v, doc, side);
  }
  // OpenAPI 3.0: a required readOnly property is required in responses only (writeOnly: requests)
  if (Array.isArray(out.required)) {
    const skip = flagged(n, doc, side === 'request' ? 'readOnly' : 'writeOnly', 0);
    out.required = (out.required as string[]).filter((k) => !skip.has(k));
  }
  const branches = Array.isArray(n.oneOf) ? (n.oneOf as Json[]) : [];
  const tags = branches.map((b) => typeTag(b, doc));
  if (branches.length > 1 && tags.every((t) => t !== undefined) && new Set(tags).size === tags.length) {
    delete out.oneOf;
    out.required = [...((out.required as string[]) ?? []), 'type'];
    out.properties = { ...((out.properties as Json) ?? {}), type: { enum: tags } };
    out.allOf = [
      ...((out.allOf as unknown[]) ?? []),
      ...branches.map((b, i) => ({
        if: { properties: { type: { const: tags[i] } } },
        then: adapt(b, doc, side),
      })),
    ];
  }
  if (n.nullable === true) {
    if (typeof out.type === 'string') {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    } else {
      return { anyOf: [out, { type: 'null' }] };
    }
  }
  return out;
}

/**
 * Properties of a schema (and of its oneOf/anyOf/allOf parts) marked readOnly or writeOnly, on the
 * property itself or on one of its allOf parts (`id: {allOf: [{$ref: RulesetId}, {readOnly: true}]}`).
 */
function flagged(schema: Json, doc: Json, flag: 'readOnly' | 'writeOnly', depth: number): Set<string> {
  const out = new Set<string>();
  const s = resolve(schema, doc);
  for (const [k, v] of Object.entries((s.properties as Record<string, Json>) ?? {})) {
    const p = resolve(v, doc);
    if (
      p[flag] === true ||
      ((p.allOf as Json[] | undefined) ?? []).some((a) => resolve(a, doc)[flag] === true)
    )
      out.add(k);
  }
  if (depth < 4) {
    for (const part of [
      ...((s.oneOf as Json[]) ?? []),
      ...((s.anyOf as Json[]) ?? []),
      ...((s.allOf as Json[]) ?? []),
    ]) {
      for (const k of flagged(part, doc, flag, depth + 1)) out.add(k);
    }
  }
  return out;
}

/** The one value a schema (or one of its allOf parts) fixes `type` to, if any. */
function typeTag(schema: Json, doc: Json): string | undefined {
  const s = resolve(schema, doc);
  const e = ((s.properties as Json | undefined)?.type as Json | undefined)?.enum;
  if (Array.isArray(e) && e.length === 1 && typeof e[0] === 'string') return e[0];
  for (const part of (s.allOf as Json[] | undefined) ?? []) {
    const t = typeTag(part, doc);
    if (t) return t;
  }
  return undefined;
}

/** A node with its `$ref`s followed. */
function resolve(node: Json, doc: Json): Json {
  let n = node;
  while (typeof n.$ref === 'string') {
    n = (n.$ref as string)
      .slice(2)
      .split('/')
      .reduce<unknown>((o, k) => (o as Json)[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc) as Json;
  }
  return n;
}

/** A JSON pointer segment. */
const seg = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

interface Operation {
  key: string;
  method: string;
  template: string;
  pattern: RegExp;
  literalSegments: number;
  pointer: string;
  op: Json;
  pathParams: Json[];
}

export class OpenApiContract {
  private readonly ajv: Ajv;
  private readonly doc: Json;
  private readonly ops: Operation[] = [];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(file = SPEC_FILE) {
    this.doc = JSON.parse(readFileSync(file, 'utf8')) as Json;
    this.ajv = new Ajv({ strict: false, allErrors: true, logger: false, validateFormats: true });
    addFormats(this.ajv);
    for (const side of ['request', 'response'] as const) {
      this.ajv.addSchema(adapt(this.doc, this.doc, side) as Json, docId(side));
    }
    for (const [template, item] of Object.entries(this.doc.paths as Record<string, Json>)) {
      for (const m of METHODS) {
        const op = item[m] as Json | undefined;
        if (!op) continue;
        const segments = template.split('/').filter(Boolean);
        this.ops.push({
          key: `${m.toUpperCase()} ${template}`,
          method: m.toUpperCase(),
          template,
          pattern: new RegExp(
            '^/' +
              segments.map((s) => (s.startsWith('{') ? '([^/]+)' : s.replace(/\./g, '\\.'))).join('/') +
              '$',
          ),
          literalSegments: segments.filter((s) => !s.startsWith('{')).length,
          pointer: `#/paths/${seg(template)}/${m}`,
          op,
          pathParams: [...((item.parameters as Json[]) ?? []), ...((op.parameters as Json[]) ?? [])].map(
            (p) => this.deref(p),
          ),
        });
      }
    }
    // the most literal template wins when two match
    this.ops.sort((a, b) => b.literalSegments - a.literalSegments);
  }

  /** The operation of a method and path, or undefined when the subset lacks it. */
  match(method: string, path: string): Operation | undefined {
    return this.ops.find((o) => o.method === method && o.pattern.test(path));
  }

  /** Every violation of one exchange; an operation the subset lacks gives none (see `covers`). */
  check(x: Exchange): Violation[] {
    const url = new URL(x.url, 'http://local');
    const op = this.match(x.method, url.pathname);
    if (!op) return [];
    const out: Violation[] = [];
    const add = (where: string, errors: ErrorObject[] | null | undefined) => {
      // "must match then": the branch's own errors say why
      for (const e of (errors ?? []).filter((x) => x.keyword !== 'if')) {
        const params =
          e.keyword === 'additionalProperties' ? ` (${(e.params as Json).additionalProperty})` : '';
        const path = e.instancePath.replace(/\/\d+(?=\/|$)/g, '/*') || '/';
        const message = `${path} ${e.message}${params}`;
        if (!out.some((o) => o.where === where && o.message === message))
          out.push({ operation: op.key, where, message });
      }
    };
    this.checkParameters(op, url, out, add);
    const rb = op.op.requestBody ? this.deref(op.op.requestBody as Json) : undefined;
    if (rb) {
      const schema = ((rb.content as Json)?.['application/json'] as Json | undefined)?.schema;
      if (x.requestBody === undefined) {
        if (rb.required === true)
          out.push({ operation: op.key, where: 'request body', message: 'required body missing' });
      } else if (schema) {
        const ref = (op.op.requestBody as Json).$ref as string | undefined;
        const v = this.validator(
          `${ref ?? `${op.pointer}/requestBody`}/content/application~1json/schema`,
          'request',
        );
        if (!v(x.requestBody)) add('request body', v.errors);
      }
    }
    const responses = op.op.responses as Record<string, Json>;
    const code = String(x.status);
    const key = [code, `${code[0]}XX`, `${code[0]}xx`, 'default'].find((k) => responses[k]);
    if (!key) {
      out.push({ operation: op.key, where: `response ${code}`, message: 'status not documented' });
      return out;
    }
    const resp = responses[key]!;
    const respPointer = resp.$ref ? (resp.$ref as string) : `${op.pointer}/responses/${key}`;
    const content = (this.deref(resp).content as Json | undefined)?.['application/json'] as Json | undefined;
    if (content?.schema && x.responseBody !== undefined) {
      const v = this.validator(`${respPointer}/content/application~1json/schema`, 'response');
      if (!v(x.responseBody)) add(`response ${key} body`, v.errors);
    } else if (!content?.schema && x.responseBody !== undefined) {
      out.push({
        operation: op.key,
        where: `response ${key} body`,
        message: 'a body where none is documented',
      });
    }
    return out;
  }

  private checkParameters(
    op: Operation,
    url: URL,
    out: Violation[],
    add: (where: string, e: ErrorObject[] | null | undefined) => void,
  ): void {
    const values = op.pattern.exec(url.pathname)!.slice(1);
    const names = [...op.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const query = new Map<string, string>();
    for (const [k, v] of url.searchParams) query.set(k, v);
    for (const p of op.pathParams) {
      const name = p.name as string;
      let raw: string | undefined;
      if (p.in === 'path') raw = decodeURIComponent(values[names.indexOf(name)] ?? '');
      else if (p.in === 'query') raw = query.get(name);
      else continue;
      if (p.in === 'query') query.delete(name);
      if (raw === undefined) {
        if (p.required === true)
          out.push({ operation: op.key, where: `query ${name}`, message: 'required parameter missing' });
        continue;
      }
      const schema = adapt(this.deref((p.schema as Json) ?? {}), this.doc, 'request') as Json;
      const v = this.validator(`${op.pointer}/parameters/${p.in}/${name}`, 'request', schema);
      if (!v(coerce(raw, schema))) add(`${p.in} ${name}`, v.errors);
    }
    for (const name of query.keys()) {
      out.push({ operation: op.key, where: `query ${name}`, message: 'parameter not documented' });
    }
  }

  /** The compiled schema at a pointer of the document, compiled once. */
  private validator(pointer: string, side: Side, schema?: Json): ValidateFunction {
    let v = this.compiled.get(`${side} ${pointer}`);
    if (!v) {
      v = this.ajv.compile(schema ?? { $ref: docId(side) + pointer });
      this.compiled.set(`${side} ${pointer}`, v);
    }
    return v;
  }

  /** A parameter, response or request body, its `$ref` followed. */
  private deref(node: Json): Json {
    return resolve(node, this.doc);
  }
}

/** A query string value as the type its schema names (the wire has only text). */
function coerce(raw: string, schema: Json): unknown {
  const types = ([] as unknown[]).concat(schema.type ?? []);
  if (
    (types.includes('number') || types.includes('integer')) &&
    raw.trim() !== '' &&
    !Number.isNaN(Number(raw))
  ) {
    return Number(raw);
  }
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}
