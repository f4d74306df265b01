/**
 * URI-based WAF overrides of the previous WAF (`/zones/:zone_id/firewall/waf/overrides[/:id]`):
 * list, create, get, update, delete. While any exists, the zone cannot migrate.
 */
import { ok, type Reply } from '../../http/envelope.js';
import type { RequestContext } from '../../http/context.js';
import { LIST_PAGING } from '../../http/paging.js';
import type { Router } from '../../http/router.js';
import { newId, now } from '../../store/ids.js';
import { assertValid, isPlainObject, notFound, parseJson, requireId } from '../area-helpers/replies.js';
import { WAF_CODES } from './migration-routes.js';
import { listPage, previous } from './guard.js';
import type { Doc } from './store.js';

const RULE_ACTIONS = ['challenge', 'block', 'simulate', 'disable', 'default'];
const FIELDS = ['description', 'urls', 'rules', 'groups', 'rewrite_action', 'paused', 'priority'];

/** Checks an override body; `partial` for PUT of an existing one (urls then optional). */
export function checkOverride(body: unknown, partial: boolean): { path: string; message: string }[] {
  if (!isPlainObject(body)) return [{ path: '', message: 'the body must be a JSON object' }];
  const out: { path: string; message: string }[] = [];
  for (const k of Object.keys(body))
    if (!FIELDS.includes(k) && k !== 'id') out.push({ path: k, message: 'is not a field of a WAF override' });
  if (body.urls === undefined) {
    if (!partial)
      out.push({ path: 'urls', message: 'is required: the URL patterns the override applies to' });
  } else if (
    !Array.isArray(body.urls) ||
    body.urls.length === 0 ||
    body.urls.some((u) => typeof u !== 'string' || u === '')
  ) {
    out.push({
      path: 'urls',
      message: 'must be a non-empty list of URL patterns such as shop.example.com/*',
    });
  }
  for (const key of ['rules', 'groups', 'rewrite_action'] as const) {
    const v = body[key];
    if (v === undefined) continue;
    if (!isPlainObject(v)) out.push({ path: key, message: 'must be an object of id/action pairs' });
    else
      for (const [id, action] of Object.entries(v)) {
        if (typeof action !== 'string' || !RULE_ACTIONS.includes(action)) {
          out.push({ path: `${key}.${id}`, message: `must be one of ${RULE_ACTIONS.join(', ')}` });
        }
      }
  }
  if (body.paused !== undefined && typeof body.paused !== 'boolean')
    out.push({ path: 'paused', message: 'must be true or false' });
  if (
    body.priority !== undefined &&
    (typeof body.priority !== 'number' || !Number.isInteger(body.priority) || Math.abs(body.priority) > 1e9)
  ) {
    out.push({ path: 'priority', message: 'must be an integer between -1000000000 and 1000000000' });
  }
  if (body.description !== undefined && body.description !== null && typeof body.description !== 'string') {
    out.push({ path: 'description', message: 'must be a string' });
  }
  return out;
}

/** The override as the API returns it, defaults filled. */
export function overrideJson(id: string, data: Record<string, unknown>): Doc {
  return {
    id,
    description: data.description ?? null,
    urls: data.urls ?? [],
    rules: data.rules ?? {},
    groups: data.groups ?? {},
    rewrite_action: data.rewrite_action ?? {},
    paused: data.paused ?? false,
    priority: data.priority ?? 1,
  };
}

function load(ctx: RequestContext): Doc {
  requireId(ctx, 'override_id');
  const row = ctx.app.db
    .prepare('SELECT id, data FROM waf_overrides WHERE zone_id = ? AND id = ?')
    .get(ctx.zone!.id, ctx.params.override_id) as { id: string; data: string } | undefined;
  if (!row) throw notFound(WAF_CODES.notFound, `WAF override ${ctx.params.override_id} not found.`);
  return overrideJson(row.id, parseJson(row.data, {}));
}

export function insertOverride(
  ctx: { app: RequestContext['app'] },
  zoneId: string,
  id: string,
  data: Record<string, unknown>,
): void {
  ctx.app.db
    .prepare(
      `INSERT INTO waf_overrides (zone_id, id, created_on, data) VALUES (?, ?, ?, ?)
       ON CONFLICT(zone_id, id) DO UPDATE SET data = excluded.data`,
    )
    .run(zoneId, id, now(), JSON.stringify(overrideJson(id, data)));
}

function create(ctx: RequestContext): Reply {
  assertValid(checkOverride(ctx.body, false), WAF_CODES.invalid);
  const id = newId();
  insertOverride(ctx, ctx.zone!.id, id, ctx.body as Record<string, unknown>);
  return ok(load({ ...ctx, params: { ...ctx.params, override_id: id } }));
}

function update(ctx: RequestContext): Reply {
  requireId(ctx, 'override_id'); // routing comes before the body
  assertValid(checkOverride(ctx.body, true), WAF_CODES.invalid);
  const current = load(ctx);
  const next = overrideJson(current.id, { ...current, ...(ctx.body as Record<string, unknown>) });
  ctx.app.db
    .prepare('UPDATE waf_overrides SET data = ? WHERE zone_id = ? AND id = ?')
    .run(JSON.stringify(next), ctx.zone!.id, current.id);
  return ok(next);
}

export function overrideRoutes(router: Router): void {
  const area = 'waf' as const;
  const base = '/zones/:zone_id/firewall/waf/overrides';
  router.add({
    method: 'GET',
    path: base,
    area,
    handler: previous((ctx) => {
      const rows = ctx.app.db
        .prepare('SELECT id, data FROM waf_overrides WHERE zone_id = ? ORDER BY created_on, id')
        .all(ctx.zone!.id) as { id: string; data: string }[];
      return listPage(
        ctx,
        rows.map((r) => overrideJson(r.id, parseJson(r.data, {}))),
        LIST_PAGING.wafOverrides,
      );
    }),
  });
  router.add({ method: 'POST', path: base, area, handler: previous(create) });
  router.add({
    method: 'GET',
    path: `${base}/:override_id`,
    area,
    handler: previous((ctx) => ok(load(ctx))),
  });
  router.add({ method: 'PUT', path: `${base}/:override_id`, area, handler: previous(update) });
  router.add({
    method: 'DELETE',
    path: `${base}/:override_id`,
    area,
    handler: previous((ctx) => {
      const o = load(ctx);
      ctx.app.db.prepare('DELETE FROM waf_overrides WHERE zone_id = ? AND id = ?').run(ctx.zone!.id, o.id);
      return ok({ id: o.id });
    }),
  });
}
