/**
 * Page Shield settings (`GET/PUT /zones/:zone_id/page_shield`) and CSP policies
 * (`/zones/:zone_id/page_shield/policies[/:policy_id]`). Field rules come from src/rules/page-shield.
 */
import { validateCspPolicy, type CspPolicyFields } from '../../../rules/page-shield/index.js';
import { ApiError, ok, type Reply } from '../../http/envelope.js';
import type { RequestContext } from '../../http/context.js';
import type { Router } from '../../http/router.js';
import { newId, now } from '../../store/ids.js';
import { wholeListInfo } from '../area-helpers/listing.js';
import { assertValid, isPlainObject, notFound, requireId } from '../area-helpers/replies.js';
import { policyJson, readSettings, writeSettings, type PolicyRow } from './store.js';

/** Error codes of this area (the real ones are not published). */
export const PAGE_SHIELD_CODES = { invalid: 1002, notFound: 1003 } as const;

/** The reporting-endpoint flag has two names: the spec's and the real API's; both are returned and accepted. */
const REPORTING_FLAGS = ['use_cloudflare_reporting_endpoint', 'use_service_reporting_endpoint'] as const;
const SETTINGS_FIELDS = ['enabled', 'use_connection_url_path', ...REPORTING_FLAGS];

function settingsJson(row: ReturnType<typeof readSettings>) {
  return {
    enabled: row.enabled === 1,
    updated_at: row.updated_at,
    use_cloudflare_reporting_endpoint: row.use_cloudflare_reporting_endpoint === 1,
    use_service_reporting_endpoint: row.use_cloudflare_reporting_endpoint === 1,
    use_connection_url_path: row.use_connection_url_path === 1,
  };
}

function putSettings(ctx: RequestContext): Reply {
  const zone = ctx.zone!;
  if (!isPlainObject(ctx.body))
    throw ApiError.of(400, PAGE_SHIELD_CODES.invalid, 'The request body must be a JSON object.');
  const body = ctx.body;
  const problems: { path: string; message: string }[] = [];
  for (const key of Object.keys(body)) {
    if (!SETTINGS_FIELDS.includes(key) && key !== 'updated_at')
      problems.push({ path: key, message: 'is not a Page Shield setting' });
    else if (key !== 'updated_at' && typeof body[key] !== 'boolean')
      problems.push({ path: key, message: 'must be true or false' });
  }
  const [real, spec] = REPORTING_FLAGS;
  if (typeof body[real] === 'boolean' && typeof body[spec] === 'boolean' && body[real] !== body[spec]) {
    problems.push({ path: spec, message: `contradicts ${real}; they are two names of one setting` });
  }
  assertValid(problems, PAGE_SHIELD_CODES.invalid);
  const db = ctx.app.db;
  const result = db.transaction(() => {
    const row = readSettings(db, zone);
    if (typeof body.enabled === 'boolean') row.enabled = body.enabled ? 1 : 0;
    if (typeof body.use_connection_url_path === 'boolean')
      row.use_connection_url_path = body.use_connection_url_path ? 1 : 0;
    const flag = body[real] ?? body[spec];
    if (typeof flag === 'boolean') row.use_cloudflare_reporting_endpoint = flag ? 1 : 0;
    // Every PUT moves updated_at forward, even within the same microsecond as the last one.
    const stamp = now();
    row.updated_at = stamp > row.updated_at ? stamp : bump(row.updated_at);
    writeSettings(db, row);
    return row;
  })();
  return ok(settingsJson(result));
}

/** The smallest timestamp after `ts` (same format), for two PUTs in one microsecond. */
function bump(ts: string): string {
  const d = new Date(Date.parse(ts) + 1);
  return d.toISOString().replace('Z', '000Z');
}

function getPolicyRow(ctx: RequestContext): PolicyRow {
  requireId(ctx, 'policy_id');
  const row = ctx.app.db
    .prepare('SELECT * FROM page_shield_policies WHERE zone_id = ? AND id = ?')
    .get(ctx.zone!.id, ctx.params.policy_id) as PolicyRow | undefined;
  if (!row) throw notFound(PAGE_SHIELD_CODES.notFound, `Policy ${ctx.params.policy_id} not found.`);
  return row;
}

function createPolicy(ctx: RequestContext): Reply {
  const { violations, fields } = validateCspPolicy(ctx.body, { partial: false });
  assertValid(violations, PAGE_SHIELD_CODES.invalid);
  const f = fields as CspPolicyFields;
  const row: PolicyRow = {
    id: newId(),
    zone_id: ctx.zone!.id,
    description: f.description,
    action: f.action,
    expression: f.expression,
    enabled: f.enabled ? 1 : 0,
    value: f.value,
    created_on: now(),
  };
  ctx.app.db
    .prepare(
      `INSERT INTO page_shield_policies (id, zone_id, description, action, expression, enabled, value, created_on)
       VALUES (@id, @zone_id, @description, @action, @expression, @enabled, @value, @created_on)`,
    )
    .run(row);
  return ok(policyJson(row));
}

function updatePolicy(ctx: RequestContext): Reply {
  requireId(ctx, 'policy_id'); // routing comes before the body
  const { violations, fields } = validateCspPolicy(ctx.body, { partial: true });
  assertValid(violations, PAGE_SHIELD_CODES.invalid);
  const db = ctx.app.db;
  const row = db.transaction(() => {
    const current = getPolicyRow(ctx);
    const next: PolicyRow = {
      ...current,
      ...(fields.description !== undefined && { description: fields.description }),
      ...(fields.action !== undefined && { action: fields.action }),
      ...(fields.expression !== undefined && { expression: fields.expression }),
      ...(fields.value !== undefined && { value: fields.value }),
      ...(fields.enabled !== undefined && { enabled: fields.enabled ? 1 : 0 }),
    };
    db.prepare(
      `UPDATE page_shield_policies SET description = @description, action = @action, expression = @expression,
         enabled = @enabled, value = @value WHERE id = @id`,
    ).run(next);
    return next;
  })();
  return ok(policyJson(row));
}

export function pageShieldSettingsAndPolicyRoutes(router: Router): void {
  const area = 'page_shield' as const;
  router.add({
    method: 'GET',
    path: '/zones/:zone_id/page_shield',
    area,
    handler: (ctx) => ok(settingsJson(readSettings(ctx.app.db, ctx.zone!))),
  });
  router.add({ method: 'PUT', path: '/zones/:zone_id/page_shield', area, handler: putSettings });
  router.add({
    method: 'GET',
    path: '/zones/:zone_id/page_shield/policies',
    area,
    handler: (ctx) => {
      const rows = ctx.app.db
        .prepare('SELECT * FROM page_shield_policies WHERE zone_id = ? ORDER BY created_on, id')
        .all(ctx.zone!.id) as PolicyRow[];
      // the API returns every policy at once; result_info still comes with it, as with every list
      return ok(rows.map(policyJson), wholeListInfo(rows.length));
    },
  });
  router.add({ method: 'POST', path: '/zones/:zone_id/page_shield/policies', area, handler: createPolicy });
  router.add({
    method: 'GET',
    path: '/zones/:zone_id/page_shield/policies/:policy_id',
    area,
    handler: (ctx) => ok(policyJson(getPolicyRow(ctx))),
  });
  router.add({
    method: 'PUT',
    path: '/zones/:zone_id/page_shield/policies/:policy_id',
    area,
    handler: updatePolicy,
  });
  router.add({
    method: 'DELETE',
    path: '/zones/:zone_id/page_shield/policies/:policy_id',
    area,
    handler: (ctx) => {
      const row = getPolicyRow(ctx);
      ctx.app.db.prepare('DELETE FROM page_shield_policies WHERE id = ?').run(row.id);
      return { status: 204, empty: true };
    },
  });
}
