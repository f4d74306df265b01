/**
 * The desired-state file (DESIGN section 2) as typed data, after loading and validation.
 * This is the contract between src/config/ (which produces it) and the reconciler's kinds (which
 * read it). The JSON Schema in schema/ is the truth about the file; these types mirror it.
 *
 * Values written as `${env:NAME}` are already resolved here; every resolved value is registered with
 * src/redact.ts so that no output, plan file or journal can contain it.
 */

export interface DesiredState {
  version: 1;
  /** where the file came from (for messages and the saved plan's hash) */
  source: { files: string[]; sha256: string };
  target?: TargetSpec;
  accounts: DesiredAccount[];
  zones: DesiredZone[];
  /**
   * dotted path -> source location (of the value; a path below an alias or a missing key has no
   * entry: look up its nearest ancestor), for kinds that report problems found after loading.
   * Filled on first use (src/config/locations.ts), so a clean plan never pays for it.
   */
  locations: Map<string, SourceLocation>;
}

export interface SourceLocation {
  file: string;
  line: number;
  col: number;
}

export type TargetSpec = { api_url: string } | { local: { db?: string; fixtures?: string } };

export interface DesiredAccount {
  id: string;
  /** dotted path of this entry in the file, e.g. `accounts[0]` */
  path: string;
  load_balancing?: DesiredLoadBalancing;
}

export interface DesiredLoadBalancing {
  /** keep (default): pool e-mails are left alone; remove: cleared after the policies exist */
  legacy_pool_emails?: 'keep' | 'remove';
  notifications?: DesiredNotification[];
  /** delete account notification policies the file does not name (default false) */
  purge?: boolean;
}

export interface DesiredNotification {
  name: string;
  alert_type: string;
  description?: string;
  enabled?: boolean;
  /** 'all' expands to every pool id of the account at plan time; else names or ids */
  pools?: 'all' | string[];
  new_health?: string[];
  event_source?: string[];
  email?: string[];
  webhooks?: string[];
  pagerduty?: string[];
  /** other filters, passed through as the API wants them (object of string arrays) */
  filters?: Record<string, string[]>;
}

export interface DesiredZone {
  name: string;
  /** account id */
  account?: string;
  /** only with `delete: true` is a zone ever deleted */
  delete?: boolean;
  type?: 'full' | 'partial' | 'secondary';
  path: string;
  dns?: DesiredDns;
  page_shield?: DesiredPageShield;
  logpush?: DesiredLogpush;
  waf?: DesiredWaf;
}

export interface DesiredDns {
  /** delete live records the file does not name (default true) */
  purge?: boolean;
  ignore?: { name?: string; type?: string; content?: string }[];
  records: DesiredRecord[];
}

export interface DesiredRecord {
  name: string;
  type: string;
  content?: string;
  data?: Record<string, unknown>;
  /** 1 = Auto; 'auto' in the file is loaded as 1; omitted is Auto */
  ttl?: number;
  proxied?: boolean;
  priority?: number;
  /** managed only when set in the file */
  comment?: string | null;
  /** managed only when set in the file */
  tags?: string[];
  settings?: Record<string, unknown>;
  path: string;
}

export interface DesiredPageShield {
  enabled?: boolean;
  /** delete live policies the file does not name (default true) */
  purge?: boolean;
  policies?: DesiredCspPolicy[];
  max_malicious_scripts?: number;
}

export interface DesiredCspPolicy {
  description: string;
  action: 'log' | 'allow' | 'add_reporting_directives';
  expression: string;
  value: string;
  enabled?: boolean;
  path: string;
}

export interface DesiredLogpush {
  /** delete live jobs the file does not name (default true) */
  purge?: boolean;
  jobs: DesiredLogpushJob[];
}

export interface DesiredLogpushJob {
  name: string;
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

export interface DesiredWaf {
  /** previous: leave the zone on the previous WAF; new: migrate (irreversible steps) */
  managed_rules: 'previous' | 'new';
  migration?: { mode: 'pending' | 'validation' };
  /** delete URI-based overrides so the migration can proceed (irreversible) */
  delete_uri_overrides?: boolean;
  /** rule overrides of the managed ruleset; `ruleset` names another managed ruleset than the default */
  overrides?: { id: string; action?: string; enabled?: boolean; ruleset?: string }[];
}
