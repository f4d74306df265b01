/**
 * The value under `logpush` of a zone entry as the kind's runtime gets it (KindRuntime's desired value), after loading,
 * validation and the kind's `build` (./build.ts). The kind's schema (./schema.ts) is the truth
 * about the file; these types mirror it.
 */
import type { UploadField } from '../../rules/logpush/index.js';

export interface DesiredLogpush {
  /** delete live jobs the file does not name (default true) */
  purge?: boolean;
  jobs: DesiredLogpushJob[];
}

/** A job's fields as written in the file; their accepted values are src/rules/logpush's. */
export interface DesiredLogpushJob extends Partial<Record<UploadField, number>> {
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
  ownership_challenge?: string;
  path: string;
}
