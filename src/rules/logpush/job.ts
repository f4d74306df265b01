/**
 * The fields of a Logpush job (docs/reference/api-facts.md "Logpush jobs", OpenAPI `logpush_logpush_job`): which
 * values each accepts. `validateLogpushJob` checks a whole create or update body; the filter and
 * destination have their own modules.
 */
import { validateDestinationConf } from './destination.js';
import { validateFilter } from './filter.js';
import { childPath, describeType, type Violation } from './violation.js';

/** Datasets a zone-scoped job may push. */
export const ZONE_DATASETS = [
  'dns_logs',
  'firewall_events',
  'http_requests',
  'nel_reports',
  'page_shield_events',
  'spectrum_events',
] as const;

export const MAX_JOB_NAME_LENGTH = 512;
/** Letters, digits, hyphens and dots (the API's own pattern). */
export const JOB_NAME_PATTERN = /^[a-zA-Z0-9\-.]*$/;

export const OUTPUT_TYPES = ['ndjson', 'csv'] as const;
export const TIMESTAMP_FORMATS = ['unixnano', 'unix', 'rfc3339', 'rfc3339ms', 'rfc3339ns'] as const;

/** `output_options` keys and the type of each; booleans may also be sent as "true"/"false". */
export const OUTPUT_OPTION_TYPES: Record<string, 'string' | 'boolean' | 'string[]' | 'enum' | 'rate'> = {
  field_names: 'string[]',
  output_type: 'enum',
  timestamp_format: 'enum',
  sample_rate: 'rate',
  batch_prefix: 'string',
  batch_suffix: 'string',
  field_delimiter: 'string',
  record_delimiter: 'string',
  record_prefix: 'string',
  record_suffix: 'string',
  record_template: 'string',
  merge_subrequests: 'boolean',
  'CVE-2021-44228': 'boolean',
  // The published OpenAPI spells it with a digit missing; accept both so either client works.
  'CVE-2021-4428': 'boolean',
};

/** The batch limits: each is 0 (off) or an integer in its range (MAX_UPLOAD_RANGES). */
export const UPLOAD_FIELDS = [
  'max_upload_bytes',
  'max_upload_interval_seconds',
  'max_upload_records',
] as const;
export type UploadField = (typeof UPLOAD_FIELDS)[number];

export function isUploadField(f: string): f is UploadField {
  return (UPLOAD_FIELDS as readonly string[]).includes(f);
}

export const MAX_UPLOAD_RANGES: Record<UploadField, { min: number; max: number; unit: string }> = {
  max_upload_bytes: { min: 5_000_000, max: 1_000_000_000, unit: 'bytes' },
  max_upload_interval_seconds: { min: 30, max: 300, unit: 'seconds' },
  max_upload_records: { min: 1_000, max: 1_000_000, unit: 'records' },
};

/** Fields the service sets; returned with every job, and ignored when a client PUTs what it read. */
const SERVICE_SET_FIELDS = ['error_message', 'last_complete', 'last_error'] as const;

/**
 * The fields a job carries besides `id` and `dataset`, in the order the API returns them, each with
 * the value the API shows while it is unset. This one table is the job's shape for both sides: the
 * local API stores and returns exactly these, and JOB_FIELDS (what a body may set) derives from it.
 */
export const JOB_DEFAULTS = {
  name: null,
  enabled: false,
  destination_conf: null,
  filter: null,
  output_options: null,
  logpull_options: null,
  kind: '',
  frequency: 'high',
  max_upload_bytes: 0,
  max_upload_interval_seconds: 0,
  max_upload_records: 0,
  error_message: null,
  last_complete: null,
  last_error: null,
} as const;
export type StoredJobField = keyof typeof JOB_DEFAULTS;
/** JOB_DEFAULTS' fields in the API's order. */
export const STORED_JOB_FIELDS = Object.keys(JOB_DEFAULTS) as StoredJobField[];

/** Fields a job body may carry (create); an update takes the same minus dataset changes. */
export const JOB_FIELDS: readonly string[] = [
  'dataset',
  'ownership_challenge',
  ...STORED_JOB_FIELDS.filter((f) => !(SERVICE_SET_FIELDS as readonly string[]).includes(f)),
];
/** Fields the server sets; sent back by clients that PUT what they read, so they are ignored. */
const SERVER_FIELDS = new Set<string>(['id', ...SERVICE_SET_FIELDS]);

export interface JobCheckOptions {
  /** create: dataset and destination_conf required. update: the current dataset, which cannot change. */
  mode: 'create' | 'update';
  currentDataset?: string;
}

/** Checks a create (POST) or update (PUT) body; every problem, each with its field. */
export function validateLogpushJob(body: unknown, opts: JobCheckOptions): Violation[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return [{ path: '', message: `the body must be a JSON object, got ${describeType(body)}` }];
  }
  const job = body as Record<string, unknown>;
  const out: Violation[] = [];
  for (const key of Object.keys(job)) {
    if (!JOB_FIELDS.includes(key) && !SERVER_FIELDS.has(key))
      out.push({ path: key, message: 'is not a field of a Logpush job' });
  }
  out.push(...validateDataset(job.dataset, opts));
  if (opts.mode === 'create' || job.destination_conf !== undefined) {
    out.push(...validateDestinationConf(job.destination_conf));
  }
  out.push(...validateJobName(job.name));
  if (job.enabled !== undefined && typeof job.enabled !== 'boolean') {
    out.push({ path: 'enabled', message: `must be true or false, got ${describeType(job.enabled)}` });
  }
  out.push(...validateFilter(job.filter));
  out.push(...validateOutputOptions(job.output_options));
  if (job.kind !== undefined && job.kind !== null && job.kind !== '' && job.kind !== 'edge') {
    out.push({ path: 'kind', message: 'must be "" or "edge"' });
  }
  const dataset = opts.mode === 'update' ? opts.currentDataset : job.dataset;
  if (job.kind === 'edge' && dataset !== undefined && dataset !== 'http_requests') {
    out.push({ path: 'kind', message: 'edge jobs only exist for the http_requests dataset' });
  }
  for (const field of UPLOAD_FIELDS) out.push(...validateMaxUpload(field, job[field]));
  if (job.kind === 'edge' && typeof job.max_upload_bytes === 'number' && job.max_upload_bytes !== 0) {
    out.push({ path: 'max_upload_bytes', message: 'is not available for edge jobs' });
  }
  if (
    job.ownership_challenge !== undefined &&
    job.ownership_challenge !== null &&
    typeof job.ownership_challenge !== 'string'
  ) {
    out.push({
      path: 'ownership_challenge',
      message: `must be a string, got ${describeType(job.ownership_challenge)}`,
    });
  }
  if (
    job.frequency !== undefined &&
    job.frequency !== null &&
    job.frequency !== 'high' &&
    job.frequency !== 'low'
  ) {
    out.push({ path: 'frequency', message: 'must be "high" or "low"' });
  }
  if (
    job.logpull_options !== undefined &&
    job.logpull_options !== null &&
    typeof job.logpull_options !== 'string'
  ) {
    out.push({
      path: 'logpull_options',
      message: `must be a string, got ${describeType(job.logpull_options)}`,
    });
  }
  return out;
}

function validateDataset(dataset: unknown, opts: JobCheckOptions): Violation[] {
  if (opts.mode === 'update') {
    if (dataset === undefined || dataset === null || dataset === opts.currentDataset) return [];
    return [
      { path: 'dataset', message: `cannot be changed on an existing job (it is ${opts.currentDataset})` },
    ];
  }
  if (typeof dataset !== 'string' || dataset === '') {
    return [{ path: 'dataset', message: `is required; one of ${ZONE_DATASETS.join(', ')}` }];
  }
  if (!(ZONE_DATASETS as readonly string[]).includes(dataset)) {
    const shown = /^[a-zA-Z0-9_-]{1,256}$/.test(dataset) ? `"${dataset}"` : 'the value';
    return [
      { path: 'dataset', message: `${shown} is not a zone dataset; use one of ${ZONE_DATASETS.join(', ')}` },
    ];
  }
  return [];
}

/** Job names: optional, at most 512 letters, digits, hyphens and dots. */
export function validateJobName(name: unknown, path = 'name'): Violation[] {
  if (name === undefined || name === null) return [];
  if (typeof name !== 'string') return [{ path, message: `must be a string, got ${describeType(name)}` }];
  if (name.length > MAX_JOB_NAME_LENGTH) {
    return [{ path, message: `is ${name.length} characters; at most ${MAX_JOB_NAME_LENGTH} are allowed` }];
  }
  if (!JOB_NAME_PATTERN.test(name)) {
    return [{ path, message: `"${name}" may contain only letters, digits, hyphens and dots` }];
  }
  return [];
}

/** `output_options`: known keys only, each of its type; null means "the defaults". */
export function validateOutputOptions(options: unknown, base = 'output_options'): Violation[] {
  if (options === undefined || options === null) return [];
  if (typeof options !== 'object' || Array.isArray(options)) {
    return [{ path: base, message: `must be an object, got ${describeType(options)}` }];
  }
  const out: Violation[] = [];
  for (const [key, value] of Object.entries(options as Record<string, unknown>)) {
    const path = childPath(base, key);
    const type = OUTPUT_OPTION_TYPES[key];
    if (!type) {
      out.push({
        path,
        message: `is not an output option; known: ${Object.keys(OUTPUT_OPTION_TYPES).join(', ')}`,
      });
      continue;
    }
    if (value === null) continue;
    if (type === 'string' && typeof value !== 'string') {
      out.push({ path, message: `must be a string, got ${describeType(value)}` });
    } else if (type === 'boolean' && typeof value !== 'boolean' && value !== 'true' && value !== 'false') {
      out.push({ path, message: `must be true or false, got ${describeType(value)}` });
    } else if (type === 'string[]') {
      if (!Array.isArray(value))
        out.push({ path, message: `must be an array of field names, got ${describeType(value)}` });
      else
        value.forEach((v, i) => {
          if (typeof v !== 'string' || v === '')
            out.push({ path: childPath(path, i), message: 'must be a non-empty field name' });
        });
    } else if (type === 'rate' && (typeof value !== 'number' || !(value >= 0 && value <= 1))) {
      out.push({ path, message: 'must be a number between 0 and 1' });
    } else if (type === 'enum') {
      const allowed: readonly string[] = key === 'output_type' ? OUTPUT_TYPES : TIMESTAMP_FORMATS;
      if (typeof value !== 'string' || !allowed.includes(value)) {
        out.push({ path, message: `must be one of ${allowed.join(', ')}` });
      }
    }
  }
  return out;
}

/** A `max_upload_*` field: absent, null, 0, or an integer in its range. */
export function validateMaxUpload(field: string, value: unknown): Violation[] {
  const range = isUploadField(field) ? MAX_UPLOAD_RANGES[field] : undefined;
  if (!range || value === undefined || value === null || value === 0) return [];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < range.min || value > range.max) {
    return [
      {
        path: field,
        message: `must be 0 (off) or an integer from ${range.min} to ${range.max} ${range.unit}`,
      },
    ];
  }
  return [];
}
