/**
 * `/accounts/:account_id/load_balancers/pools`: list, and PATCH on the collection, which accepts
 * only `{notification_email: ""}` (the legacy address can only be removed) and changes one page of
 * pools in ascending name order, 25 by default; `page`/`per_page` or `limit`/`offset` choose the
 * page. Also GET one, POST, PUT, PATCH one and DELETE. Token only.
 */
import { ApiError, ok, pageInfo, type Reply } from '../../http/envelope.js';
import type { RequestContext } from '../../http/context.js';
import { LIST_PAGING, lenientInt, pageParams, perPageParam } from '../../http/paging.js';
import type { Router } from '../../http/router.js';
import { newId, now } from '../../store/ids.js';
import { assertValid, isPlainObject, notFound, requireId } from '../area-helpers/replies.js';
import { checkPoolFields, poolDoc } from './pool-fields.js';
import { getPool, listPools, savePool, type Pool } from './store.js';

export const POOL_CODES = { invalid: 1002, notFound: 1003, duplicate: 1004 } as const;
/**
 * Which slice of the name-ordered pools a PATCH touches, from either pagination pair. Values are
 * clamped like every list's (http/paging.ts): `limit` in per_page's range, `offset` at least 0.
 */
function patchWindow(q: URLSearchParams): { offset: number; size: number; page: number } {
  const pagePair = q.has('page') || q.has('per_page');
  const limitPair = q.has('limit') || q.has('offset');
  if (pagePair && limitPair) {
    throw ApiError.of(400, POOL_CODES.invalid, 'Use either page/per_page or limit/offset, not both.');
  }
  if (limitPair) {
    const size = perPageParam(q, LIST_PAGING.poolsPatch, 'limit');
    const offset = Math.min(Math.max(lenientInt(q, 'offset') ?? 0, 0), Number.MAX_SAFE_INTEGER);
    return { offset, size, page: Math.floor(offset / size) + 1 };
  }
  const { page, perPage: size } = pageParams(q, LIST_PAGING.poolsPatch);
  return { offset: (page - 1) * size, size, page };
}

function patchCollection(ctx: RequestContext): Reply {
  const body = ctx.body;
  if (!isPlainObject(body) || Object.keys(body).length !== 1 || body.notification_email !== '') {
    throw ApiError.of(
      400,
      POOL_CODES.invalid,
      'notification_email: only {"notification_email": ""} is accepted here (the legacy address can only be removed; use notification policies)',
      '/notification_email',
    );
  }
  const win = patchWindow(ctx.query);
  const db = ctx.app.db;
  const accountId = ctx.account!.id;
  const { changed, total } = db.transaction(() => {
    const all = listPools(db, accountId);
    const stamp = now();
    const page = all.slice(win.offset, win.offset + win.size).map((p) => {
      if (p.notification_email === '') return p;
      const next = { ...p, notification_email: '', modified_on: stamp };
      savePool(db, accountId, next);
      return next;
    });
    return { changed: page, total: all.length };
  })();
  return ok(changed, pageInfo(win.page, win.size, changed.length, total));
}

function loadPool(ctx: RequestContext): Pool {
  requireId(ctx, 'pool_id');
  const pool = getPool(ctx.app.db, ctx.account!.id, ctx.params.pool_id);
  if (!pool) throw notFound(POOL_CODES.notFound, `Pool ${ctx.params.pool_id} not found.`);
  return pool;
}

function assertUniqueName(ctx: RequestContext, name: string, selfId?: string): void {
  const clash = listPools(ctx.app.db, ctx.account!.id).find((p) => p.name === name && p.id !== selfId);
  if (clash)
    throw ApiError.of(
      400,
      POOL_CODES.duplicate,
      `name: a pool named ${name} already exists in this account`,
      '/name',
    );
}

function writePool(ctx: RequestContext, mode: 'create' | 'replace' | 'edit'): Reply {
  if (mode !== 'create') requireId(ctx, 'pool_id'); // routing comes before the body
  assertValid(checkPoolFields(ctx.body, mode === 'edit'), POOL_CODES.invalid);
  const body = ctx.body as Record<string, unknown>;
  const db = ctx.app.db;
  const pool = db.transaction(() => {
    const current = mode === 'create' ? undefined : loadPool(ctx);
    const fields = mode === 'edit' ? { ...current, ...body } : body;
    assertUniqueName(ctx, String(fields.name), current?.id);
    const stamp = now();
    const next = poolDoc(current?.id ?? newId(), fields, (current?.created_on as string) ?? stamp, stamp);
    savePool(db, ctx.account!.id, next);
    return next;
  })();
  return ok(pool);
}

export function poolRoutes(router: Router): void {
  const area = 'load_balancers' as const;
  const base = '/accounts/:account_id/load_balancers/pools';
  router.add({
    method: 'GET',
    path: base,
    area,
    handler: (ctx) => {
      const pools = listPools(ctx.app.db, ctx.account!.id);
      const monitor = ctx.query.get('monitor');
      const shown = monitor ? pools.filter((p) => p.monitor === monitor) : pools;
      return ok(shown, pageInfo(1, Math.max(shown.length, 1), shown.length, shown.length));
    },
  });
  router.add({ method: 'PATCH', path: base, area, handler: patchCollection });
  router.add({ method: 'POST', path: base, area, handler: (ctx) => writePool(ctx, 'create') });
  router.add({ method: 'GET', path: `${base}/:pool_id`, area, handler: (ctx) => ok(loadPool(ctx)) });
  router.add({ method: 'PUT', path: `${base}/:pool_id`, area, handler: (ctx) => writePool(ctx, 'replace') });
  router.add({ method: 'PATCH', path: `${base}/:pool_id`, area, handler: (ctx) => writePool(ctx, 'edit') });
  router.add({
    method: 'DELETE',
    path: `${base}/:pool_id`,
    area,
    handler: (ctx) => {
      const pool = loadPool(ctx);
      ctx.app.db.prepare('DELETE FROM lb_pools WHERE id = ?').run(pool.id);
      return ok({ id: pool.id });
    },
  });
}
