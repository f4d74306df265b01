/**
 * Account-level notification policies (alerting v3) as the API accepts them, the
 * `load_balancing_health_alert` filters, and which policies a pool health change fires. Pools'
 * legacy `notification_email` lists live in ./email.ts.
 */
import { isValidEmail } from './email.js';

export interface Violation {
  path: string;
  message: string;
}

/** Alert types of the published API (OpenAPI `aaa_alert_type`). */
export const ALERT_TYPES = [
  'access_custom_certificate_expiration_type', 'advanced_ddos_attack_l4_alert', 'advanced_ddos_attack_l7_alert',
  'advanced_http_alert_error', 'bgp_hijack_notification', 'billing_usage_alert', 'block_notification_block_removed',
  'block_notification_new_block', 'block_notification_review_rejected', 'brand_protection_alert',
  'brand_protection_digest', 'clickhouse_alert_fw_anomaly', 'clickhouse_alert_fw_ent_anomaly',
  'cloudforce_one_request_notification', 'custom_analytics', 'custom_ssl_certificate_event_type',
  'dedicated_ssl_certificate_event_type', 'device_connectivity_anomaly_alert', 'dos_attack_l4', 'dos_attack_l7',
  'expiring_service_token_alert', 'failing_logpush_job_disabled_alert', 'fbm_auto_advertisement', 'fbm_dosd_attack',
  'fbm_volumetric_attack', 'health_check_status_notification', 'hostname_aop_custom_certificate_expiration_type',
  'http_alert_edge_error', 'http_alert_origin_error', 'incident_alert', 'load_balancing_health_alert',
  'load_balancing_pool_enablement_alert', 'logo_match_alert', 'magic_tunnel_health_check_event',
  'magic_wan_tunnel_health', 'maintenance_event_notification', 'mtls_certificate_store_certificate_expiration_type',
  'pages_event_alert', 'radar_notification', 'real_origin_monitoring', 'scriptmonitor_alert_new_code_change_detections',
  'scriptmonitor_alert_new_hosts', 'scriptmonitor_alert_new_malicious_hosts', 'scriptmonitor_alert_new_malicious_scripts',
  'scriptmonitor_alert_new_malicious_url', 'scriptmonitor_alert_new_max_length_resource_url',
  'scriptmonitor_alert_new_resources', 'secondary_dns_all_primaries_failing', 'secondary_dns_primaries_failing',
  'secondary_dns_warning', 'secondary_dns_zone_successfully_updated', 'secondary_dns_zone_validation_warning',
  'sentinel_alert', 'stream_live_notifications', 'synthetic_test_latency_alert', 'synthetic_test_low_availability_alert',
  'traffic_anomalies_alert', 'tunnel_health_event', 'tunnel_update_event', 'universal_ssl_event_type',
  'web_analytics_metrics_update', 'zone_aop_custom_certificate_expiration_type',
] as const; // prettier-ignore

export const LB_HEALTH_ALERT = 'load_balancing_health_alert';
export const HEALTH_VALUES = ['Healthy', 'Unhealthy'] as const;
export const EVENT_SOURCES = ['pool', 'origin'] as const;
export const MECHANISM_TYPES = ['email', 'webhooks', 'pagerduty'] as const;
export const POLICY_REQUIRED_FIELDS = ['name', 'alert_type', 'enabled', 'mechanisms'] as const;
/** The fields a policy's POST carries, in the API's order; the API's answers add SERVER_FIELDS. */
export const POLICY_FIELDS = [
  'name',
  'description',
  'alert_type',
  'enabled',
  'mechanisms',
  'filters',
  'alert_interval',
  'conditions',
] as const;
const SERVER_FIELDS = ['id', 'created', 'modified'];

export interface PolicyCheckOptions {
  /** PUT accepts a subset of the fields */
  partial: boolean;
  /** when given, every `filters.pool_id` entry must be one of these */
  knownPoolIds?: ReadonlySet<string>;
  /** alert type of the stored policy, for a partial update that changes only the filters */
  currentAlertType?: string;
}

/** Checks a POST/PUT body; every problem with its path (`filters.new_health[1]`). */
export function validateNotificationPolicy(body: unknown, opts: PolicyCheckOptions): Violation[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return [{ path: '', message: 'the body must be a JSON object' }];
  }
  const p = body as Record<string, unknown>;
  const out: Violation[] = [];
  for (const key of Object.keys(p)) {
    const known = [...POLICY_FIELDS, ...SERVER_FIELDS] as string[];
    if (!known.includes(key)) out.push({ path: key, message: 'is not a field of a notification policy' });
  }
  if (!opts.partial) {
    for (const f of POLICY_REQUIRED_FIELDS)
      if (p[f] === undefined) out.push({ path: f, message: 'is required' });
  }
  if (p.name !== undefined && (typeof p.name !== 'string' || p.name.trim() === '')) {
    out.push({ path: 'name', message: 'must be a non-empty string' });
  }
  if (p.description !== undefined && typeof p.description !== 'string') {
    out.push({ path: 'description', message: 'must be a string' });
  }
  if (
    p.alert_type !== undefined &&
    (typeof p.alert_type !== 'string' || !(ALERT_TYPES as readonly string[]).includes(p.alert_type))
  ) {
    out.push({ path: 'alert_type', message: 'is not a known alert type (e.g. load_balancing_health_alert)' });
  }
  if (p.enabled !== undefined && typeof p.enabled !== 'boolean')
    out.push({ path: 'enabled', message: 'must be true or false' });
  if (p.mechanisms !== undefined) out.push(...validateMechanisms(p.mechanisms));
  const alertType = typeof p.alert_type === 'string' ? p.alert_type : opts.currentAlertType;
  if (p.filters !== undefined) out.push(...validateFilters(p.filters, alertType, opts.knownPoolIds));
  return out;
}

/** `mechanisms`: `{email:[{id:address}], webhooks:[{id}], pagerduty:[{id}]}`. */
export function validateMechanisms(mechanisms: unknown, base = 'mechanisms'): Violation[] {
  if (typeof mechanisms !== 'object' || mechanisms === null || Array.isArray(mechanisms)) {
    return [{ path: base, message: 'must be an object such as {"email": [{"id": "ops@example.com"}]}' }];
  }
  const out: Violation[] = [];
  for (const [type, list] of Object.entries(mechanisms as Record<string, unknown>)) {
    const path = `${base}.${type}`;
    if (!(MECHANISM_TYPES as readonly string[]).includes(type)) {
      out.push({ path, message: `is not a mechanism; use ${MECHANISM_TYPES.join(', ')}` });
      continue;
    }
    if (!Array.isArray(list)) {
      out.push({ path, message: 'must be an array of {"id": ...}' });
      continue;
    }
    list.forEach((entry, i) => {
      const id = typeof entry === 'object' && entry !== null ? (entry as { id?: unknown }).id : undefined;
      if (typeof id !== 'string' || id === '') out.push({ path: `${path}[${i}].id`, message: 'is required' });
      else if (type === 'email' && !isValidEmail(id)) {
        out.push({ path: `${path}[${i}].id`, message: `"${id}" is not an e-mail address` });
      }
    });
  }
  return out;
}

/** `filters`: an object of string arrays; for pool health alerts the three known filters are checked. */
export function validateFilters(
  filters: unknown,
  alertType: string | undefined,
  knownPoolIds?: ReadonlySet<string>,
): Violation[] {
  if (typeof filters !== 'object' || filters === null || Array.isArray(filters)) {
    return [{ path: 'filters', message: 'must be an object of string arrays' }];
  }
  const out: Violation[] = [];
  const f = filters as Record<string, unknown>;
  for (const [key, list] of Object.entries(f)) {
    if (!Array.isArray(list) || list.some((v) => typeof v !== 'string')) {
      out.push({ path: `filters.${key}`, message: 'must be an array of strings' });
    }
  }
  if (alertType !== LB_HEALTH_ALERT) return out;
  const enumCheck = (key: string, allowed: readonly string[]) => {
    const list = f[key];
    if (!Array.isArray(list)) return;
    list.forEach((v, i) => {
      if (typeof v === 'string' && !allowed.includes(v)) {
        out.push({
          path: `filters.${key}[${i}]`,
          message: `"${v}" is not allowed; use ${allowed.join(' or ')}`,
        });
      }
    });
  };
  enumCheck('new_health', HEALTH_VALUES);
  enumCheck('event_source', EVENT_SOURCES);
  if (Array.isArray(f.pool_id)) {
    f.pool_id.forEach((v, i) => {
      if (typeof v !== 'string') return;
      if (v === '') out.push({ path: `filters.pool_id[${i}]`, message: 'must be a pool id' });
      else if (knownPoolIds && !knownPoolIds.has(v)) {
        out.push({ path: `filters.pool_id[${i}]`, message: `pool ${v} does not exist in this account` });
      }
    });
  }
  return out;
}

/** A pool health change, as the health monitor reports it. */
export interface PoolHealthEvent {
  pool_id: string;
  new_health: (typeof HEALTH_VALUES)[number];
  event_source: (typeof EVENT_SOURCES)[number];
}

/**
 * True when an enabled load balancing health policy fires for this event: each of its filters that
 * is present and non-empty must include the event's value (an absent filter matches everything).
 */
export function policyMatchesHealthEvent(
  policy: { alert_type: string; enabled: boolean; filters?: Record<string, string[]> },
  event: PoolHealthEvent,
): boolean {
  if (policy.alert_type !== LB_HEALTH_ALERT || !policy.enabled) return false;
  const accepts = (key: 'pool_id' | 'new_health' | 'event_source') => {
    const list = policy.filters?.[key];
    return !list || list.length === 0 || list.includes(event[key]);
  };
  return accepts('pool_id') && accepts('new_health') && accepts('event_source');
}
