/**
 * `PATCH /zones/:zone_id` (OpenAPI zones-0-patch): "Only one zone property can be changed at a
 * time", one of `paused`, `type`, `vanity_name_servers` or `plan` ({id}). Each follows the
 * OpenAPI's notes: `type` is for Enterprise zones, vanity name servers for Business and Enterprise,
 * `plan.id` one of the plan ids this server shows in `zone.plan.id`.
 */
import { isHostname } from '../../../rules/dns/index.js';
import type { RequestContext } from '../../http/context.js';
import { ApiError, ok, type Reply } from '../../http/envelope.js';
import { requireObject } from '../../http/request.js';
import { getAccount, getZone, PLANS, type Plan, type ZoneRow } from '../../store/core.js';
import { sql } from '../../store/db.js';
import { now } from '../../store/ids.js';
import { planJson, zoneJson } from './json.js';

const EDITABLE = ['paused', 'type', 'vanity_name_servers', 'plan'] as const;
type Editable = (typeof EDITABLE)[number];
const ZONE_TYPES = ['full', 'partial', 'secondary'] as const;

/** The one column update a PATCH body asks for, checked against the zone. */
function change(zone: ZoneRow, key: Editable, value: unknown): { column: string; value: unknown } {
  const pointer = `/${key}`;
  switch (key) {
    case 'paused':
      if (typeof value !== 'boolean') throw ApiError.badRequest('"paused" must be true or false.', pointer);
      return { column: 'paused', value: value ? 1 : 0 };
    case 'type':
      if (typeof value !== 'string' || !(ZONE_TYPES as readonly string[]).includes(value))
        throw ApiError.badRequest(`"type" must be one of ${ZONE_TYPES.join(', ')}.`, pointer);
      // the OpenAPI: "only available to Enterprise customers"; asking for the current type is a no-op
      if (value !== zone.type && zone.plan !== 'enterprise')
        throw ApiError.badRequest('"type" can be changed only on Enterprise zones.', pointer);
      return { column: 'type', value };
    case 'vanity_name_servers': {
      const valid =
        Array.isArray(value) && value.every((v) => typeof v === 'string' && v.length <= 253 && isHostname(v));
      if (!valid) throw ApiError.badRequest('"vanity_name_servers" must be an array of host names.', pointer);
      if (zone.plan !== 'business' && zone.plan !== 'enterprise')
        throw ApiError.badRequest(
          '"vanity_name_servers" is only available for Business and Enterprise plans.',
          pointer,
        );
      const names = (value as string[]).map((v) => v.toLowerCase().replace(/\.$/, ''));
      return { column: 'vanity_name_servers', value: names.length > 0 ? JSON.stringify(names) : null };
    }
    case 'plan': {
      const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
      const plan = PLANS.find((p: Plan) => planJson(p).id === id);
      if (!plan)
        throw ApiError.badRequest(
          `"plan.id" must be one of the plan ids: ${PLANS.map((p) => `${String(planJson(p).id)} (${p})`).join(', ')}.`,
          '/plan/id',
        );
      return { column: 'plan', value: plan };
    }
  }
}

export function patchZone(ctx: RequestContext): Reply {
  const body = requireObject(ctx.body);
  const keys = Object.keys(body);
  const unknown = keys.filter((k) => !(EDITABLE as readonly string[]).includes(k));
  if (unknown.length > 0)
    throw ApiError.badRequest(
      `"${unknown[0]}" cannot be edited; a PATCH changes one of ${EDITABLE.join(', ')}.`,
      `/${unknown[0]}`,
    );
  if (keys.length !== 1)
    throw ApiError.badRequest(
      `Only one zone property can be changed at a time (one of ${EDITABLE.join(', ')}).`,
    );
  const key = keys[0] as Editable;
  const db = ctx.app.db;
  const zone = db.transaction((): ZoneRow => {
    const current = getZone(db, ctx.zone!.id)!;
    const { column, value } = change(current, key, body[key]);
    // column comes from the fixed list above, never from the request
    sql(db, `UPDATE zones SET ${column} = ?, modified_on = ? WHERE id = ?`).run(value, now(), current.id);
    return getZone(db, current.id)!;
  })();
  return ok(zoneJson(zone, getAccount(db, zone.account_id)?.name ?? ''));
}
