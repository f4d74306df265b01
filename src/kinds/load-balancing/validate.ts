import type { ValidateContext } from '../../core/kind.js';
import { HELD_MARKER_MESSAGE, holdsTextMarker } from '../shared/owners.js';
import { checkRenames, type RenameCandidate } from '../shared/renames.js';
import { ALERT_TYPES, validateNotificationPolicy } from '../../rules/notifications/index.js';
import { isObject } from '../../rules/shared/values.js';

/**
 * Offline checks of an account's `load_balancing` (the schema has already passed). The policy body is
 * checked with the same rules the local API enforces (src/rules/notifications), its paths mapped back
 * to the file's keys. What needs live state (pools that exist, recipient coverage of legacy pool
 * e-mails) is checked at plan time.
 */

const HEALTH_ALERT = 'load_balancing_health_alert';
/** alert types whose filters select pools; `pools` makes no sense on any other */
const POOL_ALERT_TYPES = new Set([HEALTH_ALERT, 'load_balancing_pool_enablement_alert']);
const fromEnv = (v: unknown) => typeof v === 'string' && v.includes('${env:');

export function validateLoadBalancing(value: unknown, ctx: ValidateContext): void {
  if (!isObject(value)) return;
  const notifications = Array.isArray(value.notifications) ? value.notifications : [];
  const names = new Map<string, number>();
  const renames: RenameCandidate[] = [];
  notifications.forEach((n, i) => {
    const at = `${ctx.path}.notifications[${i}]`;
    if (!isObject(n)) return;
    if (typeof n.name === 'string') {
      renames.push({
        identity: n.name,
        path: at,
        ...(typeof n.renamed_from === 'string' ? { renamedFrom: n.renamed_from } : {}),
      });
      const key = n.name.trim().toLowerCase();
      const first = names.get(key);
      if (first !== undefined) {
        ctx.error(
          `${at}.name`,
          `duplicate notification policy name "${n.name}" (first at notifications[${first}])`,
        );
      } else names.set(key, i);
    }
    if (typeof n.description === 'string' && holdsTextMarker(n.description)) {
      ctx.error(`${at}.description`, HELD_MARKER_MESSAGE);
    }
    checkNotification(n, at, ctx);
  });
  // names match without case (as the plan pairs them), so a rename that differs only in case is no rename
  checkRenames(renames, 'notification policy', ctx, (name) => name.trim().toLowerCase());
}

function checkNotification(n: Record<string, unknown>, at: string, ctx: ValidateContext): void {
  const alertType = typeof n.alert_type === 'string' ? n.alert_type : '';
  if (!fromEnv(alertType) && !(ALERT_TYPES as readonly string[]).includes(alertType)) {
    ctx.error(`${at}.alert_type`, `"${alertType}" is not a known alert type (e.g. ${HEALTH_ALERT})`);
  }
  if (!POOL_ALERT_TYPES.has(alertType) && !fromEnv(alertType)) {
    for (const key of ['pools', 'new_health', 'event_source'] as const) {
      if (n[key] !== undefined) {
        ctx.error(
          `${at}.${key}`,
          `\`${key}\` applies only to load-balancing alert types, not "${alertType}"`,
        );
      }
    }
  } else if (alertType !== HEALTH_ALERT) {
    for (const key of ['new_health', 'event_source'] as const) {
      if (n[key] !== undefined) ctx.error(`${at}.${key}`, `\`${key}\` applies only to ${HEALTH_ALERT}`);
    }
  }
  for (const key of ['pools', 'new_health', 'event_source', 'email', 'webhooks', 'pagerduty'] as const) {
    const list = n[key];
    if (!Array.isArray(list)) continue;
    const seen = new Set<string>();
    list.forEach((v, j) => {
      if (typeof v !== 'string') return;
      const k = key === 'email' || key === 'pools' ? v.toLowerCase() : v;
      if (seen.has(k)) ctx.error(`${at}.${key}[${j}]`, `"${v}" is listed twice`);
      seen.add(k);
    });
  }
  const mechanisms = ['email', 'webhooks', 'pagerduty'].reduce(
    (sum, k) => sum + (Array.isArray(n[k]) ? (n[k] as unknown[]).length : 0),
    0,
  );
  if (mechanisms === 0) {
    ctx.error(at, 'a notification policy needs at least one recipient: `email`, `webhooks` or `pagerduty`');
  }
  if (isObject(n.filters)) {
    const own: Record<string, string> = {
      pool_id: 'pools',
      new_health: 'new_health',
      event_source: 'event_source',
    };
    for (const [filter, key] of Object.entries(own)) {
      if (filter in n.filters) {
        ctx.error(
          `${at}.filters.${filter}`,
          `write this filter as \`${key}\` on the policy, not under \`filters\``,
        );
      }
    }
  }
  // A legacy habit: several addresses in one string. Said once, with the fix.
  const listed = new Set<string>();
  if (Array.isArray(n.email)) {
    n.email.forEach((e, j) => {
      if (typeof e === 'string' && /[,;]/.test(e) && !fromEnv(e)) {
        listed.add(`email[${j}]`);
        ctx.error(`${at}.email[${j}]`, `"${e}" holds several addresses; write one address per list item`);
      }
    });
  }
  // The shared policy rules, on the body this entry becomes (pools are resolved at plan time).
  for (const v of validateNotificationPolicy(offlineBody(n), { partial: false })) {
    if (v.path === 'alert_type') continue; // reported above with the file's wording
    const path = fileKeyOf(v.path);
    if (listed.has(path)) continue;
    ctx.error(path ? `${at}.${path}` : at, v.message);
  }
}

/** The API body of an entry, without pool resolution; values from the environment are left out. */
function offlineBody(n: Record<string, unknown>): Record<string, unknown> {
  const filters: Record<string, unknown> = isObject(n.filters) ? { ...n.filters } : {};
  if (n.new_health !== undefined) filters.new_health = n.new_health;
  if (n.event_source !== undefined) filters.event_source = n.event_source;
  const mechanisms: Record<string, unknown> = {};
  for (const key of ['email', 'webhooks', 'pagerduty'] as const) {
    const list = n[key];
    if (Array.isArray(list))
      mechanisms[key] = list.map((id) => ({ id: fromEnv(id) ? 'env@example.com' : id }));
  }
  const body: Record<string, unknown> = {
    name: n.name,
    alert_type: n.alert_type,
    enabled: n.enabled ?? true,
    mechanisms,
    filters,
  };
  if (n.description !== undefined) body.description = n.description;
  return body;
}

/** Maps a body path (`filters.new_health[1]`, `mechanisms.email[0].id`) to the file's key. */
function fileKeyOf(path: string): string {
  const m = /^mechanisms\.(email|webhooks|pagerduty)(\[\d+\])?(\.id)?$/.exec(path);
  if (m) return `${m[1]}${m[2] ?? ''}`;
  const f = /^filters\.(new_health|event_source)(.*)$/.exec(path);
  if (f) return `${f[1]}${f[2]}`;
  return path;
}
