/**
 * DNS records: `/zones/{zone_id}/dns_records[/{id}]` and `/dns_records/batch`, and the `records`
 * section of each fixtures zone. The list holds no SOA, as the real one does not (the SOA is zone
 * DNS settings there), and SPF is refused (the real schema dropped the type: use TXT).
 */
import { checkRecord, sameValue, violationText } from '../../../rules/dns/index.js';
import type { AreaModule, FixturePath, FixtureContext } from '../../area.js';
import type { RequestContext } from '../../http/context.js';
import { ApiError, ok, type Reply } from '../../http/envelope.js';
import { requireObject } from '../../http/request.js';
import type { ZoneRow } from '../../store/core.js';
import { sql } from '../../store/db.js';
import { isId32, now, stableId } from '../../store/ids.js';
import { requireId } from '../area-helpers/replies.js';
import { listRecords } from './list.js';
import {
  DNS_MIGRATIONS,
  deleteZoneRecords,
  getRecord,
  insertRecord,
  recordsAt,
  setRecordQuotaOverride,
  toApiRecord,
  type StoredAtName,
} from './store.js';
import { applyChanges, batchLimit } from './write.js';

const recordId = (ctx: RequestContext): string => requireId(ctx, 'dns_record_id');

function getOne(ctx: RequestContext): Reply {
  const row = getRecord(ctx.app.db, ctx.zone!.id, recordId(ctx));
  if (!row) throw ApiError.of(404, 81044, 'Record does not exist.');
  return { rawResult: row.json };
}

function create(ctx: RequestContext): Reply {
  const body = requireObject(ctx.body);
  return ok(applyChanges(ctx.app, ctx.zone!, { posts: [body] }, false).posts[0]);
}

function put(ctx: RequestContext): Reply {
  const body = requireObject(ctx.body);
  return ok(applyChanges(ctx.app, ctx.zone!, { puts: [{ ...body, id: recordId(ctx) }] }, false).puts[0]);
}

function patch(ctx: RequestContext): Reply {
  const body = requireObject(ctx.body);
  return ok(
    applyChanges(ctx.app, ctx.zone!, { patches: [{ ...body, id: recordId(ctx) }] }, false).patches[0],
  );
}

function remove(ctx: RequestContext): Reply {
  const id = recordId(ctx);
  applyChanges(ctx.app, ctx.zone!, { deletes: [{ id }] }, false);
  return ok({ id });
}

function batch(ctx: RequestContext): Reply {
  const body = requireObject(ctx.body);
  const changes: Record<string, unknown[]> = {};
  let total = 0;
  for (const key of ['deletes', 'patches', 'puts', 'posts'] as const) {
    const v = body[key];
    if (v === undefined || v === null) continue;
    if (!Array.isArray(v)) throw ApiError.badRequest(`"${key}" must be an array.`, `/${key}`);
    changes[key] = v;
    total += v.length;
  }
  const limit = batchLimit(ctx.zone!.plan);
  if (total > limit) {
    throw ApiError.badRequest(
      `A batch may hold at most ${limit} changes on the ${ctx.zone!.plan} plan; this one has ${total}. Split it into several requests.`,
    );
  }
  const { json } = applyChanges(ctx.app, ctx.zone!, changes);
  const list = (items: string[]) => '[' + items.join(',') + ']';
  return {
    rawResult: `{"deletes":${list(json.deletes)},"patches":${list(json.patches)},"puts":${list(json.puts)},"posts":${list(json.posts)}}`,
  };
}

const FIXTURE_EXTRA = ['id', 'locked', 'meta'];

/** `zones[].records`: records checked by the same rules as the API; idempotent by (name, type, content). */
function loadRecords(value: unknown, zone: ZoneRow, path: FixturePath, ctx: FixtureContext): void {
  if (!Array.isArray(value)) ctx.fail(path, 'must be a list of records');
  const db = ctx.app.db;
  // one list, one instant: a 10,000-record zone (a rehearsal's sandbox) pays for one clock read
  const time = now();
  // a zone with no record yet (a fresh store, the sandbox) has nothing to look up per record: only
  // this list's own records can repeat one another, so they are remembered here instead
  const fresh = sql(db, 'SELECT 1 FROM dns_records WHERE zone_id = ? LIMIT 1').get(zone.id) === undefined;
  const loadedIds = new Set<string>();
  const loadedAt = new Map<string, StoredAtName[]>();
  (value as unknown[]).forEach((item, i) => {
    const where = [...path, i];
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      ctx.fail(where, 'must be a mapping');
    const { id, locked, meta, ...body } = item as Record<string, unknown>;
    void FIXTURE_EXTRA;
    const checked = checkRecord(body, { name: zone.name, plan: zone.plan });
    if ('violations' in checked) ctx.fail(where, checked.violations.map(violationText).join('; '));
    const rec = (checked as { record: Parameters<typeof toApiRecord>[2] }).record;
    if (id !== undefined && (typeof id !== 'string' || !isId32(id)))
      ctx.fail([...where, 'id'], 'must be 32 hexadecimal characters');
    // MX, URI and SRV records that differ only in priority are distinct records (docs/reference/design.md section 2)
    const priority = rec.priority === undefined ? '' : `\0${rec.priority}`;
    const recId =
      (id as string | undefined) ??
      stableId('record', `${zone.id}\0${rec.name}\0${rec.type}\0${rec.content}${priority}`);
    if (fresh ? loadedIds.has(recId) : getRecord(db, zone.id, recId)) return;
    const atName = fresh ? (loadedAt.get(rec.name) ?? []) : recordsAt(db, zone.id, rec.name);
    if (atName.some((r) => r.type === rec.type && sameValue(r, rec))) return;
    const extra: { locked?: boolean; meta?: Record<string, boolean | string> } = {};
    if (locked !== undefined) extra.locked = locked === true;
    if (meta !== undefined) {
      if (typeof meta !== 'object' || meta === null) ctx.fail([...where, 'meta'], 'must be a mapping');
      extra.meta = meta as Record<string, boolean | string>;
    }
    const stored = toApiRecord(recId, zone, rec, time, undefined, extra);
    insertRecord(db, stored);
    if (fresh) {
      loadedIds.add(recId);
      if (atName.length === 0) loadedAt.set(rec.name, atName);
      atName.push(stored);
    }
  });
}

/**
 * `zones[].record_quota`: the records the zone may hold, in place of its plan's quota, so a test
 * can reach the quota without hundreds of records (docs/fixtures.md).
 */
function loadRecordQuota(value: unknown, zone: ZoneRow, path: FixturePath, ctx: FixtureContext): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    ctx.fail(path, 'must be a whole number of records, 0 or more');
  }
  setRecordQuotaOverride(ctx.app.db, zone.id, value as number);
}

export const dnsArea: AreaModule = {
  name: 'dns',
  permissions: [{ name: 'dns' }],
  migrations: DNS_MIGRATIONS,
  routes(router) {
    const base = '/zones/:zone_id/dns_records';
    router.add({ method: 'GET', path: base, area: 'dns', cacheable: true, handler: listRecords });
    router.add({ method: 'POST', path: base, area: 'dns', handler: create });
    router.add({ method: 'POST', path: `${base}/batch`, area: 'dns', handler: batch });
    router.add({
      method: 'GET',
      path: `${base}/:dns_record_id`,
      area: 'dns',
      cacheable: true,
      handler: getOne,
    });
    router.add({ method: 'PUT', path: `${base}/:dns_record_id`, area: 'dns', handler: put });
    router.add({ method: 'PATCH', path: `${base}/:dns_record_id`, area: 'dns', handler: patch });
    router.add({ method: 'DELETE', path: `${base}/:dns_record_id`, area: 'dns', handler: remove });
  },
  fixtures: { zone: { records: loadRecords, record_quota: loadRecordQuota } },
  onZoneDeleted(app, zone) {
    deleteZoneRecords(app.db, zone.id);
  },
};
