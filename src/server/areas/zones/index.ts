/**
 * Zones, accounts and the provider's address ranges: `/zones`, `/accounts`, `/ips`.
 * The tables are core (store/core.ts) because every area refers to them.
 */
import { normaliseZoneName } from '../../../rules/dns/index.js';
import { checkZoneName } from '../../../rules/zones.js';
import type { AreaModule } from '../../area.js';
import type { App } from '../../app.js';
import { reachesAccount, reachesZone } from '../../auth/principal.js';
import type { RequestContext } from '../../http/context.js';
import { ApiError, ok, pageInfo, type Reply } from '../../http/envelope.js';
import { LIST_PAGING, pageParams } from '../../http/paging.js';
import { enumParam, requireObject } from '../../http/request.js';
import type { Router } from '../../http/router.js';
import {
  getAccount,
  getZone,
  getZoneByName,
  nameServersFor,
  type AccountRow,
  type ZoneRow,
} from '../../store/core.js';
import { sql } from '../../store/db.js';
import { isId32, newId, now } from '../../store/ids.js';
import { zoneFilter } from './filters.js';
import { accountJson, ipsJson, zoneJson } from './json.js';
import { patchZone } from './patch.js';

function accountName(app: App, id: string): string {
  return getAccount(app.db, id)?.name ?? '';
}

function listZones(ctx: RequestContext): Reply {
  const q = ctx.query;
  const { page, perPage } = pageParams(q, LIST_PAGING.zones);
  const order = enumParam(q, 'order', ['name', 'status', 'account.id', 'account.name'] as const, 'name');
  const direction = enumParam(q, 'direction', ['asc', 'desc'] as const, 'asc');
  const p = ctx.principal!;
  const accounts = new Map(
    (sql(ctx.app.db, 'SELECT * FROM accounts').all() as AccountRow[]).map((a) => [a.id, a.name] as const),
  );
  const matches = zoneFilter(q, (z) => accounts.get(z.account_id) ?? '');
  let zones = (sql(ctx.app.db, 'SELECT * FROM zones ORDER BY name').all() as ZoneRow[]).filter(
    (z) => reachesZone(p, z) && matches(z),
  );
  const key = (z: ZoneRow): string =>
    order === 'status'
      ? z.status
      : order === 'account.id'
        ? z.account_id
        : order === 'account.name'
          ? (accounts.get(z.account_id) ?? '')
          : z.name;
  zones = zones.sort((a, b) => key(a).localeCompare(key(b)) || a.name.localeCompare(b.name));
  if (direction === 'desc') zones.reverse();
  const slice = zones.slice((page - 1) * perPage, page * perPage);
  return ok(
    slice.map((z) => zoneJson(z, accounts.get(z.account_id) ?? '')),
    pageInfo(page, perPage, slice.length, zones.length),
  );
}

function createZone(ctx: RequestContext): Reply {
  const body = requireObject(ctx.body);
  const app = ctx.app;
  if (typeof body.name !== 'string' || body.name.trim() === '')
    throw ApiError.badRequest('"name" is required.', '/name');
  const invalid = checkZoneName(body.name);
  if (invalid) throw ApiError.fromViolations([invalid], '/name');
  const name = normaliseZoneName(body.name);
  const acc = body.account as { id?: unknown } | undefined;
  if (typeof acc !== 'object' || acc === null || typeof acc.id !== 'string') {
    throw ApiError.badRequest('"account": {"id": "<account id>"} is required.', '/account/id');
  }
  const account = isId32(acc.id) ? getAccount(app.db, acc.id) : undefined;
  if (!account || !reachesAccount(ctx.principal!, acc.id)) {
    throw ApiError.of(403, 10000, 'Authentication error: the credential does not reach that account.');
  }
  const type = body.type ?? 'full';
  if (type !== 'full' && type !== 'partial' && type !== 'secondary') {
    throw ApiError.badRequest('"type" must be full, partial or secondary.', '/type');
  }
  // pending, as on the real API, until its name servers point at the service (they never will
  // here: fixtures' `status` or POST /__zoneplan/zones/:zone_id/activate make a zone active)
  const zone = app.db.transaction((): ZoneRow => {
    if (getZoneByName(app.db, name)) throw ApiError.of(400, 1061, `${name} already exists.`);
    const id = newId();
    const t = now();
    sql(
      app.db,
      `INSERT INTO zones (id, name, account_id, plan, status, type, paused, name_servers, created_on, modified_on)
       VALUES (?, ?, ?, 'free', 'pending', ?, 0, ?, ?, ?)`,
    ).run(id, name, account.id, type, JSON.stringify(nameServersFor(id)), t, t);
    const row = getZone(app.db, id)!;
    app.zoneCreated(row);
    return row;
  })();
  return ok(zoneJson(zone, account.name));
}

function deleteZone(ctx: RequestContext): Reply {
  const zone = ctx.zone!;
  ctx.app.db.transaction(() => {
    ctx.app.zoneDeleted(zone);
    sql(ctx.app.db, 'DELETE FROM zones WHERE id = ?').run(zone.id);
  })();
  return ok({ id: zone.id });
}

function listAccounts(ctx: RequestContext): Reply {
  const q = ctx.query;
  const { page, perPage } = pageParams(q, LIST_PAGING.accounts);
  const nameFilter = q.get('name')?.toLowerCase();
  const all = (sql(ctx.app.db, 'SELECT * FROM accounts ORDER BY name, id').all() as AccountRow[]).filter(
    (a) => reachesAccount(ctx.principal!, a.id) && (!nameFilter || a.name.toLowerCase().includes(nameFilter)),
  );
  if (q.get('direction') === 'desc') all.reverse();
  const slice = all.slice((page - 1) * perPage, page * perPage);
  return ok(slice.map(accountJson), pageInfo(page, perPage, slice.length, all.length));
}

/** SDKs and the Terraform provider call this to check a token before anything else. */
function verifyToken(ctx: RequestContext): Reply {
  const p = ctx.principal!;
  if (p.kind !== 'token') {
    throw ApiError.of(
      400,
      1000,
      'Invalid API Token: this endpoint verifies API tokens, not e-mail/key pairs.',
    );
  }
  return ok({ id: p.id, status: 'active', not_before: null, expires_on: null });
}

/**
 * Local only (`/__zoneplan`, with `--test-routes` and its admin credential): what the real API does once a pending zone's name servers
 * point at it, for tests and clients that only work on active zones. An active zone is left as is.
 */
function activate(ctx: RequestContext): Reply {
  const id = ctx.params.zone_id;
  if (!isId32(id)) throw ApiError.badId(ctx.path);
  const zone = getZone(ctx.app.db, id);
  if (!zone) throw ApiError.badId(ctx.path, 404);
  if (zone.status !== 'active')
    sql(ctx.app.db, "UPDATE zones SET status = 'active', modified_on = ? WHERE id = ?").run(now(), id);
  const row = getZone(ctx.app.db, id)!;
  return ok(zoneJson(row, accountName(ctx.app, row.account_id)));
}

export const zonesArea: AreaModule = {
  name: 'zones',
  permissions: [{ name: 'zone' }],
  routes(router: Router) {
    router.add({ method: 'GET', path: '/zones', area: 'zone', cacheable: true, handler: listZones });
    router.add({ method: 'POST', path: '/zones', area: 'zone', handler: createZone });
    router.add({
      method: 'GET',
      path: '/zones/:zone_id',
      area: 'zone',
      handler: (ctx) => ok(zoneJson(ctx.zone!, accountName(ctx.app, ctx.zone!.account_id))),
    });
    router.add({ method: 'PATCH', path: '/zones/:zone_id', area: 'zone', handler: patchZone });
    router.add({ method: 'DELETE', path: '/zones/:zone_id', area: 'zone', handler: deleteZone });
    router.add({ method: 'GET', path: '/accounts', area: 'any', handler: listAccounts });
    router.add({
      method: 'GET',
      path: '/accounts/:account_id',
      area: 'any',
      handler: (ctx) => ok(accountJson(ctx.account!)),
    });
    router.add({ method: 'GET', path: '/ips', area: 'public', handler: () => ok(ipsJson()) });
    // SDKs and the Terraform provider call this to check a token before anything else
    router.add({ method: 'GET', path: '/user/tokens/verify', area: 'any', handler: verifyToken });
  },
  testRoutes(router: Router) {
    router.add({ method: 'POST', path: '/zones/:zone_id/activate', area: 'public', handler: activate });
  },
};
