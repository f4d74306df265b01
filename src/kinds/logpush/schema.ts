import type { JsonSchema } from '../../config/json-schema.js';
import { FILTER_OPERATORS } from '../../rules/logpush/filter.js';

/**
 * JSON Schema fragment for a zone's `logpush`. Shapes only: the filter grammar, its limits (measured
 * on the JSON string that is sent), dataset names, destinations and the ownership rule are checked by
 * validate.ts with the shared rules of src/rules/logpush/, so messages can point inside the filter.
 * String patterns are left to validate.ts too, because any string may be written as `${env:NAME}`.
 */

const condition: JsonSchema = {
  type: 'object',
  title: 'Filter condition or group',
  description:
    'Either a condition `{ key, operator, value }` or a group `{ and: [...] }` / `{ or: [...] }` of ' +
    'conditions and groups.',
};

/**
 * The filter grammar spelt out for editors (completion of keys and operators, an unknown operator
 * flagged as you type) for `depth` levels of groups, deeper ones as any map. zoneplan itself checks
 * filters in validate.ts.
 */
function conditionForEditors(depth: number): JsonSchema {
  const leaf: JsonSchema = {
    type: 'object',
    title: 'Filter condition',
    description: 'A comparison of one log field with a value.',
    required: ['key', 'operator', 'value'],
    additionalProperties: false,
    properties: {
      key: { type: 'string', description: 'a field of the dataset, e.g. `ClientRequestHost`' },
      operator: {
        enum: [...FILTER_OPERATORS],
        description: '`in` and `!in` take a list; the others one value',
      },
      value: {
        description: 'the value to compare with (a list for `in` and `!in`)',
        anyOf: [
          { type: ['string', 'number', 'boolean'] },
          { type: 'array', items: { type: ['string', 'number', 'boolean'] } },
        ],
      },
    },
  };
  // deeper than the editor checks: any map, so a deep but valid filter is never a false error
  if (depth === 0) return condition;
  const inner = conditionForEditors(depth - 1);
  const group = (op: 'and' | 'or'): JsonSchema => ({
    type: 'object',
    title: `Filter group (${op})`,
    description: `A list of conditions and groups, ${op === 'and' ? 'all' : 'any'} of which must hold.`,
    required: [op],
    additionalProperties: false,
    properties: {
      [op]: {
        type: 'array',
        minItems: 1,
        items: inner,
        description: `conditions and groups, ${op === 'and' ? 'all' : 'any'} of which must hold`,
      },
    },
  });
  return {
    title: condition.title,
    description: condition.description,
    anyOf: [leaf, group('and'), group('or')],
  };
}

export const logpushSchema: JsonSchema = {
  type: 'object',
  title: 'Logpush',
  description: 'Logpush jobs of the zone, matched with live jobs by name.',
  additionalProperties: false,
  properties: {
    purge: {
      type: 'boolean',
      default: true,
      title: 'Delete unnamed jobs',
      description: 'Delete live Logpush jobs whose name the file does not name (default true).',
    },
    jobs: {
      type: 'array',
      title: 'Logpush jobs',
      description: 'Jobs that push a dataset to a destination. Identity is the name, which must be unique.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'dataset', 'destination_conf'],
        properties: {
          name: {
            type: 'string',
            minLength: 1,
            maxLength: 512,
            title: 'Name',
            description: 'Letters, digits, `-` and `.`; the identity by which the job is matched.',
          },
          renamed_from: {
            type: 'string',
            minLength: 1,
            maxLength: 512,
            title: 'Renamed from',
            description:
              'The name the live job has now: the job is renamed in place (same id, no gap in the log ' +
              'delivery). Matching nothing live is a warning. Remove it once applied.',
          },
          dataset: {
            type: 'string',
            minLength: 1,
            maxLength: 256,
            title: 'Dataset',
            description:
              'Dataset pushed, e.g. `http_requests`, `firewall_events`, `dns_logs`. Changing it replaces ' +
              'the job (delete then create), because the API cannot change the dataset of a job.',
          },
          destination_conf: {
            type: 'string',
            minLength: 1,
            maxLength: 4096,
            title: 'Destination',
            description:
              'Destination URL, e.g. `s3://bucket/logs?region=us-east-1`. Write credentials as ' +
              '`${env:NAME}`; query-string secrets are redacted in every output.',
          },
          enabled: {
            type: 'boolean',
            default: true,
            title: 'Enabled',
            description: 'Whether the job pushes logs (default true).',
          },
          filter: {
            type: 'object',
            title: 'Filter',
            description:
              'Written as an object, sent as the JSON string the API wants: `{ where: { and: [ { key, ' +
              'operator, value } ] } }`. At most 1000 bytes and 30 operators once serialised.',
            required: ['where'],
            properties: { where: condition },
          },
          output_options: {
            type: 'object',
            title: 'Output options',
            description: 'How log lines are written: fields, format, sampling.',
            properties: {
              field_names: {
                type: 'array',
                items: { type: 'string' },
                description: 'Log fields to include, e.g. `[ClientIP, EdgeResponseStatus]`.',
              },
              output_type: { enum: ['ndjson', 'csv'], description: 'Line format (default ndjson).' },
              sample_rate: {
                type: 'number',
                minimum: 0,
                maximum: 1,
                description: 'Share of lines pushed, from 0 to 1 (default 1).',
              },
              timestamp_format: {
                enum: ['unixnano', 'unix', 'rfc3339', 'rfc3339ms', 'rfc3339ns'],
                description: 'Timestamp format (default unixnano).',
              },
              batch_prefix: { type: 'string' },
              batch_suffix: { type: 'string' },
              record_prefix: { type: 'string' },
              record_suffix: { type: 'string' },
              record_delimiter: { type: 'string' },
              record_template: { type: 'string' },
              field_delimiter: { type: 'string' },
              merge_subrequests: { type: 'boolean' },
              'CVE-2021-44228': { type: 'boolean', description: 'Replace `${` with `x{` in pushed files.' },
            },
          },
          kind: {
            enum: ['', 'edge'],
            title: 'Job kind',
            description: '`edge` for Edge Log Delivery (http_requests only); empty for Logpush.',
          },
          max_upload_bytes: {
            type: 'integer',
            description: 'Largest uncompressed batch: 0 (off) or 5000000 to 1000000000.',
          },
          max_upload_interval_seconds: {
            type: 'integer',
            description: 'Longest interval between batches: 0 (off) or 30 to 300 seconds.',
          },
          max_upload_records: {
            type: 'integer',
            description: 'Most lines per batch: 0 (off) or 1000 to 1000000.',
          },
          ownership_challenge: {
            type: 'string',
            title: 'Ownership challenge',
            description:
              'The challenge the API wrote to the destination, usually `${env:NAME}`; required for ' +
              'destinations that need proof of ownership. Get one with `zoneplan logpush ownership`.',
          },
        },
      },
    },
  },
};

/** For editors: the same fragment with the filter grammar spelt out (see conditionForEditors). */
export const logpushEditorSchema: JsonSchema = withWhere(logpushSchema, conditionForEditors(3));

function withWhere(schema: JsonSchema, where: JsonSchema): JsonSchema {
  const copy = structuredClone(schema) as any;
  copy.properties.jobs.items.properties.filter.properties.where = where;
  return copy as JsonSchema;
}
