/**
 * The shapes this kind works on: live pools and notification policies as the API returns them
 * (read defensively: only the fields we use), and the desired policy as the API wants it.
 */
import { splitNotificationEmail } from '../../rules/notifications/index.js';

export const HEALTH_ALERT = 'load_balancing_health_alert';
/** alert types whose policies this kind may delete with `purge: true` */
export const MANAGED_ALERT_TYPES = new Set([HEALTH_ALERT, 'load_balancing_pool_enablement_alert']);
export const HEALTH_STATES = ['Unhealthy', 'Healthy'] as const;
export const EVENT_SOURCES = ['pool', 'origin'] as const;

export interface LivePool {
  id: string;
  name: string;
  /** legacy notification address(es), '' when none; may be a comma-separated list */
  notification_email: string;
  /** the pool's own legacy filter, which can narrow what its e-mails reported */
  notification_filter?: {
    pool?: { disable?: boolean; healthy?: boolean | null } | null;
    origin?: { disable?: boolean; healthy?: boolean | null } | null;
  } | null;
}

/** A notification policy body as sent (POST/PUT) and compared; no server-set fields. */
export interface PolicyBody {
  name: string;
  alert_type: string;
  enabled: boolean;
  description?: string;
  filters: Record<string, string[]>;
  mechanisms: Record<string, { id: string }[]>;
}

export interface LivePolicy extends PolicyBody {
  id: string;
}

export interface LoadBalancingLive {
  accountId: string;
  pools: LivePool[];
  policies: LivePolicy[];
}

/** Splits a legacy `notification_email` (possibly a comma-separated list) into addresses. */
export const legacyAddresses = splitNotificationEmail;

/** Reads a pool from an API result, keeping only what the kind uses. */
export function toLivePool(raw: unknown): LivePool {
  const r = (raw ?? {}) as Record<string, unknown>;
  return {
    id: String(r.id ?? ''),
    name: String(r.name ?? ''),
    notification_email: typeof r.notification_email === 'string' ? r.notification_email : '',
    notification_filter: (r.notification_filter as LivePool['notification_filter']) ?? null,
  };
}

/** Reads a policy from an API result into the comparable body plus its id. */
export function toLivePolicy(raw: unknown): LivePolicy {
  const r = (raw ?? {}) as Record<string, unknown>;
  const filters: Record<string, string[]> = {};
  if (r.filters && typeof r.filters === 'object') {
    for (const [k, v] of Object.entries(r.filters as Record<string, unknown>)) {
      if (Array.isArray(v)) filters[k] = v.map(String);
    }
  }
  const mechanisms: Record<string, { id: string }[]> = {};
  if (r.mechanisms && typeof r.mechanisms === 'object') {
    for (const [k, v] of Object.entries(r.mechanisms as Record<string, unknown>)) {
      if (Array.isArray(v)) mechanisms[k] = v.map((m) => ({ id: String((m as { id?: unknown })?.id ?? '') }));
    }
  }
  const policy: LivePolicy = {
    id: String(r.id ?? ''),
    name: String(r.name ?? ''),
    alert_type: String(r.alert_type ?? ''),
    enabled: r.enabled !== false,
    filters,
    mechanisms,
  };
  if (typeof r.description === 'string' && r.description !== '') policy.description = r.description;
  return policy;
}
