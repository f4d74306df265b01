/**
 * The value under `logpush` of a zone entry as the kind's runtime gets it (KindRuntime's desired value), after loading,
 * validation and the kind's `build` (./build.ts). The kind's schema (./schema.ts) is the truth
 * about the file; these types mirror it.
 */
export interface DesiredLogpush {
  /** delete live jobs the file does not name (default true) */
  purge?: boolean;
  jobs: DesiredLogpushJob[];
}

export interface DesiredLogpushJob {
  name: string;
  /** the name the live job has now (an in-place rename; src/kinds/shared/renames.ts) */
  renamed_from?: string;
  dataset: string;
  destination_conf: string;
  enabled?: boolean;
  /** written as an object in the file, sent as a JSON string */
  filter?: Record<string, unknown>;
  output_options?: Record<string, unknown>;
  kind?: '' | 'edge';
  max_upload_bytes?: number;
  max_upload_interval_seconds?: number;
  max_upload_records?: number;
  ownership_challenge?: string;
  path: string;
}
