/**
 * The previous WAF managed rules APIs (deprecated): packages, groups, rules and URI-based overrides
 * under `/zones/:zone_id/firewall/waf/...`. They work while the previous WAF runs (states default,
 * start, validation) and answer a clear 400 once the zone has migrated.
 */
import { ApiError, ok, type Reply } from '../../http/envelope.js';
import type { RequestContext } from '../../http/context.js';
import { LIST_PAGING } from '../../http/paging.js';
import type { Router } from '../../http/router.js';
import { isPlainObject, notFound, requireId } from '../area-helpers/replies.js';
import { WAF_CODES } from './migration-routes.js';
import { listPage, previous } from './guard.js';
import { overrideRoutes } from './overrides.js';
import { getDoc, listDocs, saveDoc, type Doc } from './store.js';

/** Malformed ids are 400 code 7003 (requireId); a well-formed unknown one is this area's 404. */
function packageOf(ctx: RequestContext, param = 'package_id'): Doc {
  requireId(ctx, param);
  const doc = getDoc(ctx.app.db, 'waf_packages', ctx.zone!.id, ctx.params[param]);
  if (!doc) throw notFound(WAF_CODES.notFound, `WAF package ${ctx.params[param]} not found.`);
  return doc;
}

function childOf(ctx: RequestContext, table: 'waf_groups' | 'waf_rules', param: string, what: string): Doc {
  const pkg = packageOf(ctx);
  requireId(ctx, param);
  const doc = getDoc(ctx.app.db, table, ctx.zone!.id, ctx.params[param]);
  if (!doc || doc.package_id !== pkg.id)
    throw notFound(WAF_CODES.notFound, `WAF ${what} ${ctx.params[param]} not found.`);
  return doc;
}

function patchBody(ctx: RequestContext): Record<string, unknown> {
  if (!isPlainObject(ctx.body))
    throw ApiError.of(400, WAF_CODES.invalid, 'The request body must be a JSON object.');
  return ctx.body;
}

function bad(field: string, message: string): never {
  throw ApiError.of(400, WAF_CODES.invalid, `${field}: ${message}`, `/${field}`);
}

function patchPackage(ctx: RequestContext): Reply {
  const pkg = packageOf(ctx, 'package_id'); // routing (the id) comes before the body
  const body = patchBody(ctx);
  if (pkg.detection_mode !== 'anomaly' && Object.keys(body).length > 0) {
    bad(Object.keys(body)[0], 'only anomaly packages have settings to change');
  }
  for (const key of Object.keys(body)) {
    if (key === 'sensitivity' && !['high', 'medium', 'low', 'off'].includes(String(body[key])))
      bad(key, 'must be high, medium, low or off');
    else if (key === 'action_mode' && !['simulate', 'block', 'challenge'].includes(String(body[key])))
      bad(key, 'must be simulate, block or challenge');
    else if (key !== 'sensitivity' && key !== 'action_mode')
      bad(key, 'is not a package setting (sensitivity, action_mode)');
  }
  const next = { ...pkg, ...body };
  saveDoc(ctx.app.db, 'waf_packages', ctx.zone!.id, next);
  return ok(next);
}

function patchMode(table: 'waf_groups' | 'waf_rules', param: string, what: string) {
  return (ctx: RequestContext): Reply => {
    const doc = childOf(ctx, table, param, what); // routing (the ids) comes before the body
    const body = patchBody(ctx);
    for (const key of Object.keys(body))
      if (key !== 'mode') bad(key, `is not a setting of a WAF ${what} (mode)`);
    const allowed = Array.isArray(doc.allowed_modes) ? (doc.allowed_modes as string[]) : ['on', 'off'];
    if (typeof body.mode !== 'string' || !allowed.includes(body.mode))
      bad('mode', `must be one of ${allowed.join(', ')}`);
    const next = { ...doc, mode: body.mode };
    saveDoc(ctx.app.db, table, ctx.zone!.id, next);
    return ok(next);
  };
}

export function previousWafRoutes(router: Router): void {
  const area = 'waf' as const;
  const pkgs = '/zones/:zone_id/firewall/waf/packages';
  router.add({
    method: 'GET',
    path: pkgs,
    area,
    handler: previous((ctx) =>
      listPage(ctx, listDocs(ctx.app.db, 'waf_packages', ctx.zone!.id), LIST_PAGING.wafPackages),
    ),
  });
  router.add({
    method: 'GET',
    path: `${pkgs}/:package_id`,
    area,
    handler: previous((ctx) => ok(packageOf(ctx))),
  });
  router.add({ method: 'PATCH', path: `${pkgs}/:package_id`, area, handler: previous(patchPackage) });
  for (const [plural, table, param, what, paging] of [
    ['groups', 'waf_groups', 'group_id', 'group', LIST_PAGING.wafGroups],
    ['rules', 'waf_rules', 'rule_id', 'rule', LIST_PAGING.wafRules],
  ] as const) {
    router.add({
      method: 'GET',
      path: `${pkgs}/:package_id/${plural}`,
      area,
      handler: previous((ctx) =>
        listPage(ctx, listDocs(ctx.app.db, table, ctx.zone!.id, packageOf(ctx).id), paging),
      ),
    });
    router.add({
      method: 'GET',
      path: `${pkgs}/:package_id/${plural}/:${param}`,
      area,
      handler: previous((ctx) => ok(childOf(ctx, table, param, what))),
    });
    router.add({
      method: 'PATCH',
      path: `${pkgs}/:package_id/${plural}/:${param}`,
      area,
      handler: previous(patchMode(table, param, what)),
    });
  }
  overrideRoutes(router);
}
