/**
 * Account notification policies (alerting v3): `/accounts/:account_id/alerting/v3/policies[/:policy_id]`.
 * POST/PUT answer `{id}`, DELETE a bare envelope, as the real API does. Fields are checked by
 * src/rules/notifications; `filters.pool_id` must name pools of the account. Tokens and keys.
 */
import { randomUUID } from 'node:crypto';
import { POLICY_FIELDS, validateNotificationPolicy } from '../../../rules/notifications/index.js';
import { ok, type Reply } from '../../http/envelope.js';
import type { RequestContext } from '../../http/context.js';
import type { Router } from '../../http/router.js';
import { now } from '../../store/ids.js';
import { wholeListInfo } from '../area-helpers/listing.js';
import { assertValid, notFound, parseJson, requireId, UUID } from '../area-helpers/replies.js';
import { poolIds } from '../load-balancing/store.js';
import { SEEDS_TABLE_SQL } from '../area-helpers/seeds.js';

export const NOTIFICATION_CODES = { invalid: 17001, notFound: 17002 } as const;

export const NOTIFICATION_MIGRATIONS: readonly string[] = [
  `CREATE TABLE alert_policies (
     id TEXT PRIMARY KEY,
     account_id TEXT NOT NULL,
     created TEXT NOT NULL,
     data TEXT NOT NULL
   );
   CREATE INDEX alert_policies_account ON alert_policies(account_id, created);
   CREATE TABLE alert_deliveries (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     account_id TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('alert', 'legacy_email')),
     data TEXT NOT NULL
   );
   CREATE INDEX alert_deliveries_account ON alert_deliveries(account_id, seq);`,
  // policies seeded by fixtures are recorded there (seeded once)
  SEEDS_TABLE_SQL,
];

export type StoredPolicy = Record<string, unknown> & {
  id: string;
  name: string;
  alert_type: string;
  enabled: boolean;
  filters?: Record<string, string[]>;
};

export function listPolicies(ctx: { app: RequestContext['app'] }, accountId: string): StoredPolicy[] {
  const rows = ctx.app.db
    .prepare('SELECT data FROM alert_policies WHERE account_id = ? ORDER BY created, id')
    .all(accountId) as {
    data: string;
  }[];
  return rows
    .map((r) => parseJson<StoredPolicy>(r.data, { id: '', name: '', alert_type: '', enabled: false }))
    .filter((p) => p.id);
}

function load(ctx: RequestContext): StoredPolicy {
  requireId(ctx, 'policy_id', UUID);
  const row = ctx.app.db
    .prepare('SELECT data FROM alert_policies WHERE account_id = ? AND id = ?')
    .get(ctx.account!.id, ctx.params.policy_id) as { data: string } | undefined;
  if (!row) throw notFound(NOTIFICATION_CODES.notFound, `Policy ${ctx.params.policy_id} not found.`);
  return parseJson<StoredPolicy>(row.data, {
    id: ctx.params.policy_id,
    name: '',
    alert_type: '',
    enabled: false,
  });
}

function pick(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of POLICY_FIELDS) if (body[f] !== undefined) out[f] = body[f];
  return out;
}

function write(ctx: RequestContext, mode: 'create' | 'update'): Reply {
  const db = ctx.app.db;
  const accountId = ctx.account!.id;
  const id = db.transaction(() => {
    const current = mode === 'update' ? load(ctx) : undefined;
    assertValid(
      validateNotificationPolicy(ctx.body, {
        partial: mode === 'update',
        knownPoolIds: poolIds(db, accountId),
        currentAlertType: current?.alert_type,
      }),
      NOTIFICATION_CODES.invalid,
    );
    const stamp = now();
    const policy: StoredPolicy = {
      description: '',
      filters: {},
      ...(current ?? {}),
      ...pick(ctx.body as Record<string, unknown>),
      id: current?.id ?? randomUUID(),
      created: current?.created ?? stamp,
      modified: stamp,
    } as StoredPolicy;
    db.prepare(
      `INSERT INTO alert_policies (id, account_id, created, data) VALUES (?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET data = excluded.data`,
    ).run(policy.id, accountId, policy.created as string, JSON.stringify(policy));
    return policy.id;
  })();
  return ok({ id });
}

export function policyRoutes(router: Router): void {
  const area = 'notifications' as const;
  const base = '/accounts/:account_id/alerting/v3/policies';
  router.add({
    method: 'GET',
    path: base,
    area,
    handler: (ctx) => {
      const all = listPolicies(ctx, ctx.account!.id);
      return ok(all, wholeListInfo(all.length)); // every policy at once, with result_info as lists have
    },
  });
  router.add({ method: 'POST', path: base, area, handler: (ctx) => write(ctx, 'create') });
  router.add({ method: 'GET', path: `${base}/:policy_id`, area, handler: (ctx) => ok(load(ctx)) });
  router.add({ method: 'PUT', path: `${base}/:policy_id`, area, handler: (ctx) => write(ctx, 'update') });
  router.add({
    method: 'DELETE',
    path: `${base}/:policy_id`,
    area,
    handler: (ctx) => {
      const p = load(ctx);
      ctx.app.db.prepare('DELETE FROM alert_policies WHERE id = ?').run(p.id);
      return ok(null);
    },
  });
}
