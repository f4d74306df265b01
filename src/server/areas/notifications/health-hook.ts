/**
 * Test-only: pool health changes and what they deliver, so tests can see that no alert is lost
 * while pools move from legacy e-mails to notification policies.
 *
 * - `POST /__zoneplan/accounts/:account_id/load_balancers/pools/:pool_id/health`
 *   body `{new_health: Healthy|Unhealthy, event_source?: pool|origin}` records an alert for every
 *   enabled `load_balancing_health_alert` policy whose filters match, and a legacy e-mail when the
 *   pool still has a notification_email; answers what it recorded.
 * - `GET /__zoneplan/accounts/:account_id/alerts` -> `{alerts: [...], legacy_emails: [...]}`, oldest first.
 */
import {
  EVENT_SOURCES,
  HEALTH_VALUES,
  policyMatchesHealthEvent,
  splitNotificationEmail,
  type PoolHealthEvent,
} from '../../../rules/notifications/index.js';
import { ApiError, ok } from '../../http/envelope.js';
import type { RequestContext } from '../../http/context.js';
import type { Router } from '../../http/router.js';
import { now } from '../../store/ids.js';
import { isPlainObject, parseJson } from '../area-helpers/replies.js';
import { getPool } from '../load-balancing/store.js';
import { NOTIFICATION_CODES, listPolicies } from './policies.js';

function recordHealthChange(ctx: RequestContext) {
  const { account_id: accountId, pool_id: poolId } = ctx.params;
  const body = isPlainObject(ctx.body) ? ctx.body : {};
  const event = { pool_id: poolId, new_health: body.new_health, event_source: body.event_source ?? 'pool' };
  if (!(HEALTH_VALUES as readonly unknown[]).includes(event.new_health)) {
    throw ApiError.of(400, NOTIFICATION_CODES.invalid, `new_health: must be ${HEALTH_VALUES.join(' or ')}`);
  }
  if (!(EVENT_SOURCES as readonly unknown[]).includes(event.event_source)) {
    throw ApiError.of(400, NOTIFICATION_CODES.invalid, `event_source: must be ${EVENT_SOURCES.join(' or ')}`);
  }
  const db = ctx.app.db;
  return db.transaction(() => {
    const pool = getPool(db, accountId, poolId);
    if (!pool)
      throw ApiError.of(
        404,
        NOTIFICATION_CODES.notFound,
        `Pool ${poolId} not found in account ${accountId}.`,
      );
    const at = now();
    const insert = db.prepare('INSERT INTO alert_deliveries (account_id, kind, data) VALUES (?, ?, ?)');
    const alerts = listPolicies(ctx, accountId)
      .filter((p) => policyMatchesHealthEvent(p, event as PoolHealthEvent))
      .map((p) => ({
        policy_id: p.id,
        policy_name: p.name,
        alert_type: p.alert_type,
        mechanisms: p.mechanisms,
        ...event,
        pool_name: pool.name,
        at,
      }));
    for (const a of alerts) insert.run(accountId, 'alert', JSON.stringify(a));
    const to = splitNotificationEmail(pool.notification_email);
    const legacy = to.length > 0 ? [{ ...event, pool_name: pool.name, to, at }] : [];
    for (const e of legacy) insert.run(accountId, 'legacy_email', JSON.stringify(e));
    return { alerts, legacy_emails: legacy };
  })();
}

function deliveries(ctx: RequestContext) {
  const rows = ctx.app.db
    .prepare('SELECT kind, data FROM alert_deliveries WHERE account_id = ? ORDER BY seq')
    .all(ctx.params.account_id) as { kind: string; data: string }[];
  return {
    alerts: rows.filter((r) => r.kind === 'alert').map((r) => parseJson(r.data, {})),
    legacy_emails: rows.filter((r) => r.kind === 'legacy_email').map((r) => parseJson(r.data, {})),
  };
}

export function healthTestRoutes(router: Router): void {
  router.add({
    method: 'POST',
    path: '/accounts/:account_id/load_balancers/pools/:pool_id/health',
    area: 'public',
    handler: (ctx) => ok(recordHealthChange(ctx)),
  });
  router.add({
    method: 'GET',
    path: '/accounts/:account_id/alerts',
    area: 'public',
    handler: (ctx) => ok(deliveries(ctx)),
  });
}
