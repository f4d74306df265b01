/**
 * Logpush jobs normalised for comparison: the desired job of the file and the live job of the API
 * are brought to one form, so that equal meanings compare equal (filter key order and spacing,
 * output options left at their defaults, `enabled` and `kind` defaults, null vs absent).
 */
import type { DesiredLogpushJob } from './desired.js';
import { canonicalFilterJson, UPLOAD_FIELDS, type UploadField } from '../../rules/logpush/index.js';

/**
 * A job's compared fields. Upload limits are managed only when the file sets them (the API picks
 * its own defaults otherwise), hence optional.
 */
export interface JobFields extends Partial<Record<UploadField, number>> {
  name: string;
  dataset: string;
  destination_conf: string;
  enabled: boolean;
  /** canonical JSON string (sorted keys, no whitespace); '' = no filter */
  filter: string;
  /** normalised; undefined = not managed (the file does not set it) */
  output_options?: Record<string, unknown>;
  kind: string;
}

export interface LiveJob extends JobFields {
  id: number;
  /** false for a live job without a name: it can only be purged, never matched */
  named: boolean;
}

/**
 * Values the API uses when an output option is absent; an option equal to its default means the
 * same as no option. The record framing defaults belong to ndjson, so they count only for ndjson.
 */
const DEFAULTS: Record<string, unknown> = {
  output_type: 'ndjson',
  sample_rate: 1,
  timestamp_format: 'unixnano',
  'CVE-2021-44228': false,
  merge_subrequests: false,
  batch_prefix: '',
  batch_suffix: '',
  record_template: '',
  record_delimiter: '',
};
const NDJSON_DEFAULTS: Record<string, unknown> = {
  record_prefix: '{',
  record_suffix: '}\n',
  field_delimiter: ',',
};
const BOOLEAN_OPTIONS = new Set(['CVE-2021-44228', 'merge_subrequests']);

export function normaliseOutputOptions(raw: unknown): Record<string, unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const input = raw as Record<string, unknown>;
  const ndjson = (input.output_type ?? 'ndjson') === 'ndjson';
  const out: Record<string, unknown> = {};
  for (const rawKey of Object.keys(input).sort()) {
    // The published OpenAPI misspells the option; both spellings mean the same thing.
    const key = rawKey === 'CVE-2021-4428' ? 'CVE-2021-44228' : rawKey;
    let value = input[rawKey];
    if (value === null || value === undefined) continue;
    if (BOOLEAN_OPTIONS.has(key) && (value === 'true' || value === 'false')) value = value === 'true';
    if (key in DEFAULTS && value === DEFAULTS[key]) continue;
    if (ndjson && key in NDJSON_DEFAULTS && value === NDJSON_DEFAULTS[key]) continue;
    out[key] = value;
  }
  return out;
}

function normaliseFilter(raw: unknown): string {
  if (raw === undefined || raw === null || raw === '') return '';
  return canonicalFilterJson(raw);
}

export function desiredJobFields(job: DesiredLogpushJob): JobFields {
  const fields: JobFields = {
    name: job.name,
    dataset: job.dataset,
    destination_conf: job.destination_conf,
    enabled: job.enabled ?? true,
    filter: normaliseFilter(job.filter),
    kind: job.kind ?? '',
  };
  if (job.output_options !== undefined) fields.output_options = normaliseOutputOptions(job.output_options);
  for (const f of UPLOAD_FIELDS) if (typeof job[f] === 'number') fields[f] = job[f];
  return fields;
}

/** Reads one job of the list response defensively; a job without a numeric id is skipped. */
export function liveJobFromApi(raw: unknown): LiveJob | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  const id = typeof r.id === 'number' ? r.id : typeof r.id === 'string' ? Number(r.id) : NaN;
  if (!Number.isInteger(id)) return undefined;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const job: LiveJob = {
    id,
    named: typeof r.name === 'string' && r.name !== '',
    name: str(r.name),
    dataset: str(r.dataset),
    destination_conf: str(r.destination_conf),
    enabled: r.enabled === true,
    filter: normaliseFilter(r.filter),
    output_options: normaliseOutputOptions(r.output_options),
    kind: str(r.kind),
  };
  for (const f of UPLOAD_FIELDS) if (typeof r[f] === 'number') job[f] = r[f] as number;
  return job;
}

/** The live fields compared with a desired job: only what the desired job manages. */
export function comparableLive(live: LiveJob, desired: JobFields): JobFields {
  const fields: JobFields = {
    name: live.name,
    dataset: live.dataset,
    destination_conf: live.destination_conf,
    enabled: live.enabled,
    filter: live.filter,
    kind: live.kind,
  };
  if (desired.output_options !== undefined) fields.output_options = live.output_options ?? {};
  for (const f of UPLOAD_FIELDS) if (desired[f] !== undefined) fields[f] = live[f] ?? 0;
  return fields;
}

/** Field names that differ, in a stable order. */
export function changedFields(before: JobFields, after: JobFields): (keyof JobFields)[] {
  const keys: (keyof JobFields)[] = [
    'dataset',
    'destination_conf',
    'enabled',
    'filter',
    'output_options',
    'kind',
    ...UPLOAD_FIELDS,
  ];
  return keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
}
