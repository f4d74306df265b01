/**
 * The value under `page_shield` of a zone entry as the kind's runtime gets it (KindRuntime's desired value), after loading,
 * validation and the kind's `build` (./build.ts). The kind's schema (./schema.ts) is the truth
 * about the file; these types mirror it.
 */
export interface DesiredPageShield {
  enabled?: boolean;
  /** delete live policies the file does not name (default true) */
  purge?: boolean;
  policies?: DesiredCspPolicy[];
  max_malicious_scripts?: number;
}

export interface DesiredCspPolicy {
  description: string;
  /** the description the live policy has now (an in-place rename; src/kinds/shared/renames.ts) */
  renamed_from?: string;
  action: 'log' | 'allow' | 'add_reporting_directives';
  expression: string;
  value: string;
  enabled?: boolean;
  path: string;
}
