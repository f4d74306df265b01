/**
 * JSON Schema 2020-12 fragment for a zone's `dns` value, derived from the record model
 * (src/rules/dns/model.ts and fields.ts: the types, their `data` fields, the shared fields). The
 * shapes follow the real API's published record bodies; the rules that need more than shape
 * (name syntax, addresses, proxying, TTL, CNAME chains, duplicates) are in ./validate.ts.
 */
import type { JsonSchema } from '../../config/json-schema.js';
import {
  DATA_FIELDS,
  DATA_FIELD_HELP,
  MANAGED_FIELDS,
  PRIORITY_TYPES,
  PROXIABLE_TYPES,
  RECORD_TYPES,
  RETIRED_TYPES,
  TAG_PATTERN,
  hasOpenTail,
  modelOf,
  type ManagedFieldModel,
} from '../../rules/dns/index.js';

const FIELD_SCHEMA: Record<string, JsonSchema> = {
  u8: { type: 'integer', minimum: 0, maximum: 255 },
  u16: { type: 'integer', minimum: 0, maximum: 65535 },
  hex: { type: 'string', pattern: '^[0-9A-Fa-f]+$', patternErrorMessage: 'expected hexadecimal digits' },
  base64: { type: 'string', minLength: 1 },
  host: { type: 'string', minLength: 1 },
  'caa-tag': { type: 'string', minLength: 1 },
  quoted: { type: 'string' },
  text: { type: 'string' },
};

/** `data` of each structured type, generated from the rules' field lists so the two cannot drift. */
export const DNS_DATA_SCHEMAS: Record<string, JsonSchema> = Object.fromEntries(
  Object.entries(DATA_FIELDS).map(([type, fields]) => [
    type,
    {
      type: 'object',
      description: `${type} fields, sent instead of \`content\``,
      additionalProperties: false,
      // SVCB/HTTPS parameters (an open tail) may be empty; an SRV priority (in its data) may be
      // given as the record's `priority`
      required: fields
        .map(([n]) => n)
        .filter(
          (n, i) =>
            !(hasOpenTail(type) && i === fields.length - 1) &&
            !(modelOf(type)?.priority === 'in-data' && n === 'priority'),
        ),
      properties: Object.fromEntries(
        fields.map(([name, kind]) => [
          name,
          { ...FIELD_SCHEMA[kind], description: DATA_FIELD_HELP[name] ?? name },
        ]),
      ),
    },
  ]),
);

/** The `$id` of the per-type `data` branches in dnsSchema. */
const DATA_ID = 'https://zoneplan.dev/schema/v1/kinds/dns-data.json';

/** What an editor says of a TTL that is none of the allowed values (see dnsEditorSchema). */
export const TTL_MESSAGE =
  'a TTL is `auto` (or 1, the same) or seconds from 30 to 86400 (under 60 only on Enterprise)';

const glob = (what: string): JsonSchema => ({
  type: 'string',
  minLength: 1,
  description: `${what}; \`*\` matches any run of characters, \`?\` one character`,
});

/** One `if`/`then` per structured type, giving that type's `data` fields. */
const dataByType = Object.entries(DNS_DATA_SCHEMAS).map(([type, data]) => ({
  if: { properties: { type: { const: type } }, required: ['type'] },
  then: { properties: { data } },
}));

/** A record's TTL: `auto`, 1 or seconds. */
const ttl: JsonSchema = {
  anyOf: [
    { const: 'auto', description: 'Auto (300 s); the only TTL of a proxied record' },
    { const: 1, description: 'Auto, as the API writes it' },
    {
      type: 'integer',
      minimum: 30,
      maximum: 86400,
      description: 'seconds (under 60 only on Enterprise)',
    },
  ],
  description: '`auto` (the default) or seconds from 30 to 86400 (under 60 only on Enterprise)',
};

/**
 * `schema` as zoneplan checks files: ajv (all errors) tries every branch of an `anyOf` and makes an
 * error object for each branch that fails, kept only if all fail: for a valid TTL that is one or two
 * objects per record, thrown away, for every record of the file. An `if` is tried without making
 * errors, so the branches run with errors only for a value the `if` refused, and then give the same
 * errors as before (with the `if`'s own, which is never shown).
 */
function onlyWhenRefused(schema: JsonSchema): JsonSchema {
  return { if: schema, else: schema };
}

/** the types whose `priority` sits beside their value (SRV's is in its data) */
const priorityBeside = [...PRIORITY_TYPES].filter((t) => modelOf(t)?.priority === 'beside');

/** The schema of one shared field, by its kind. */
function managedFieldSchema(field: ManagedFieldModel): JsonSchema {
  const description = field.description;
  switch (field.kind) {
    case 'note':
      return { type: ['string', 'null'], maxLength: field.maxLength, description };
    case 'tags':
      return {
        type: 'array',
        uniqueItems: true,
        description,
        items: {
          type: 'string',
          pattern: TAG_PATTERN,
          patternErrorMessage: 'expected a tag `name:value` (the name is letters, digits, _ and -)',
        },
      };
    default:
      return {
        type: 'object',
        additionalProperties: false,
        description,
        properties: Object.fromEntries(
          Object.entries(field.keys).map(([k, m]) => [k, { type: 'boolean', description: m.description }]),
        ),
      };
  }
}

const record: JsonSchema = {
  type: 'object',
  title: 'DNS record',
  description:
    'One record. Identity is (name, type) then the content (or data); a changed value is updated in place.',
  additionalProperties: false,
  required: ['name', 'type'],
  properties: {
    name: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description: 'relative to the zone (`@` is the apex, `www`, `_sip._tcp`) or fully qualified',
    },
    type: { enum: [...RECORD_TYPES], retiredValues: RETIRED_TYPES, description: 'record type' },
    content: {
      type: 'string',
      description: 'A: IPv4 address; AAAA: IPv6 address; CNAME, MX, NS, PTR: host name; TXT: the text',
    },
    data: {
      type: 'object',
      description: 'fields of a structured type (SRV, CAA, HTTPS, ...), instead of `content`',
    },
    ttl,
    proxied: {
      type: 'boolean',
      default: false,
      description: `through the proxy (${[...PROXIABLE_TYPES].join(', ')} only)`,
    },
    priority: {
      type: 'integer',
      minimum: 0,
      maximum: 65535,
      description: `${priorityBeside.join(' and ')}: lower is preferred`,
    },
    renamed_from: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description:
        'The name the live record has now (relative or fully qualified): that record of the same type ' +
        '(and value, when the old name holds several) is renamed in place, keeping its id. Matching ' +
        'nothing live is a warning. Remove it once applied.',
    },
    // the fields every type shares (the record model's), each in its kind's schema
    ...Object.fromEntries(MANAGED_FIELDS.map((f) => [f.name, managedFieldSchema(f)])),
  },
  allOf: dataByType,
};

/**
 * The record as zoneplan checks files: the per-type branches are looked at only for a record that
 * has `data` (most records have `content`), so a record without it is not compared with every
 * structured type. The same errors as the record above (the `if`s' own errors are never shown).
 * Editors get the record above, whose branches they show as they are.
 */
const checkedRecord: JsonSchema = {
  ...record,
  properties: { ...(record.properties as Record<string, JsonSchema>), ttl: onlyWhenRefused(ttl) },
  allOf: [{ if: { required: ['data'] }, then: { $ref: DATA_ID } }],
};

/** The DNS schema with `record` as the schema of each record. */
const dnsSchemaWith = (record: JsonSchema): JsonSchema => ({
  type: 'object',
  title: 'DNS',
  description:
    'The zone\u2019s DNS records. Records the service manages itself (apex NS, locked or auto-added ones) are never touched.',
  additionalProperties: false,
  required: ['records'],
  properties: {
    purge: {
      type: 'boolean',
      default: true,
      description: 'delete live records the file does not name (ignored ones excepted)',
    },
    ignore: {
      type: 'array',
      description: 'live records matching any of these are never changed, deleted or shown as drift',
      items: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: {
          name: glob('record name, relative (`@` for the apex) or fully qualified'),
          type: { type: 'string', minLength: 1, description: 'record type, exact (e.g. TXT)' },
          content: glob('record content'),
        },
      },
    },
    records: { type: 'array', description: 'the records the zone must have', items: record },
  },
});

/**
 * The DNS schema zoneplan checks files with. The per-type `data` branches are reached by `$ref`, so
 * ajv makes them a function of their own (src/config/ajv-setup.ts): the records' loop stays a
 * function small enough for V8 to optimise while it runs (src/config/schema.ts).
 */
export const dnsSchema: JsonSchema = {
  ...dnsSchemaWith(checkedRecord),
  $defs: { data: { $id: DATA_ID, allOf: dataByType } },
};

/**
 * For editors: the same fragment with the TTL as one list of the fixed values first. An editor
 * (yaml-language-server) that finds no branch matching reports the first branch's error and merges
 * the constant ones, so `anyOf: [auto, 1, 30..86400]` said `Value must be "auto" | 1` for `ttl: 10`;
 * with the fixed values as one `enum` first, it reports that branch's `errorMessage`, which names
 * the range. zoneplan's own checks keep `dnsSchema` and their own messages.
 */
export const dnsEditorSchema: JsonSchema = withTtl(dnsSchemaWith(record), {
  anyOf: [
    {
      enum: ['auto', 1],
      description: '`auto` (300 s, the only TTL of a proxied record); 1 is the same, as the API writes it',
      errorMessage: TTL_MESSAGE,
    },
    { type: 'integer', minimum: 30, maximum: 86400, description: 'seconds (under 60 only on Enterprise)' },
  ],
  description: '`auto` (the default) or seconds from 30 to 86400 (under 60 only on Enterprise)',
});

function withTtl(schema: JsonSchema, ttl: JsonSchema): JsonSchema {
  const copy = structuredClone(schema) as {
    properties: { records: { items: { properties: Record<string, unknown> } } };
  };
  copy.properties.records.items.properties.ttl = ttl;
  return copy as unknown as JsonSchema;
}
