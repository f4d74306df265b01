/**
 * The value under `load_balancing` of an account entry as the kind's runtime gets it (KindRuntime's desired value), after loading,
 * validation and the kind's `build` (none: passed on as written; plan.ts reads it as LbPlanInput). The kind's schema (./schema.ts) is the truth
 * about the file; these types mirror it.
 */
export interface DesiredLoadBalancing {
  /** keep (default): pool e-mails are left alone; remove: cleared after the policies exist */
  legacy_pool_emails?: 'keep' | 'remove';
  notifications?: DesiredNotification[];
  /** delete account notification policies the file does not name (default false) */
  purge?: boolean;
}

export interface DesiredNotification {
  name: string;
  /** the name the live policy has now (an in-place rename; src/kinds/shared/renames.ts) */
  renamed_from?: string;
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
