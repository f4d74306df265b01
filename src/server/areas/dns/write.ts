/**
 * Every DNS write (POST, PUT, PATCH, DELETE and batch) goes through applyChanges, so every rule
 * holds on every path. The changes run in one transaction in the batch order (deletes, patches,
 * puts, posts); each is checked against the zone as the earlier ones left it, and the zone-wide
 * rules (at least one A/AAAA, proxied CNAME chains) are judged on the final state. Any failure
 * throws and the transaction rolls back: all or nothing.
 */
import {
  BODY_FIELDS,
  CODES,
  LOCAL_CODES,
  checkCnameChain,
  checkKeepsAddress,
  checkRecord,
  conflictWith,
  dnsError,
  planFieldViolation,
  recordBody,
  recordQuotaOf,
  recordQuotaViolation,
  type NormalisedRecord,
} from '../../../rules/dns/index.js';
import type { App } from '../../app.js';
import { ApiError } from '../../http/envelope.js';
import type { ZoneRow } from '../../store/core.js';
import { isId32, newId, now } from '../../store/ids.js';
import {
  countAddresses,
  countRecords,
  deleteRecord,
  getRecord,
  insertRecord,
  recordQuotaOverride,
  recordsAt,
  recordsAtNames,
  toApiRecord,
  updateRecord,
  type ApiRecord,
} from './store.js';

export interface Changes {
  deletes?: unknown[];
  patches?: unknown[];
  puts?: unknown[];
  posts?: unknown[];
}

export interface ChangeResult {
  deletes: ApiRecord[];
  patches: ApiRecord[];
  puts: ApiRecord[];
  posts: ApiRecord[];
  /** the same, as the JSON stored for each record: the batch answer is built from it, not re-serialised */
  json: { deletes: string[]; patches: string[]; puts: string[]; posts: string[] };
}

/** The largest batch per plan (docs/reference/api-facts.md). */
export function batchLimit(plan: string): number {
  return plan === 'free' ? 200 : 3500;
}

function pick(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of BODY_FIELDS) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

function objectAt(item: unknown, pointer: string): Record<string, unknown> {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw ApiError.badRequest('Each change must be a JSON object.', pointer);
  }
  return item as Record<string, unknown>;
}

function existing(
  app: App,
  zone: ZoneRow,
  item: Record<string, unknown>,
  pointer: string,
  forWrite: boolean,
): ApiRecord {
  const id = item.id;
  if (typeof id !== 'string' || !isId32(id)) {
    throw ApiError.of(
      404,
      CODES.recordMissing,
      'Record does not exist.',
      pointer ? `${pointer}/id` : undefined,
    );
  }
  const row = getRecord(app.db, zone.id, id);
  if (!row)
    throw ApiError.of(
      404,
      CODES.recordMissing,
      'Record does not exist.',
      pointer ? `${pointer}/id` : undefined,
    );
  const rec = JSON.parse(row.json) as ApiRecord;
  if (forWrite && rec.locked) {
    throw ApiError.fromViolations(
      [
        dnsError(
          LOCAL_CODES.locked,
          `The ${rec.type} record ${rec.name} is managed by the service and cannot be changed or deleted.`,
        ),
      ],
      pointer || undefined,
    );
  }
  return rec;
}

/** A record body checked by the rules, then by its zone's plan (tags, comment length). */
function validate(zone: ZoneRow, body: Record<string, unknown>, pointer: string): NormalisedRecord {
  const checked = checkRecord(body, { name: zone.name, plan: zone.plan });
  if ('violations' in checked) throw ApiError.fromViolations(checked.violations, pointer || undefined);
  const overPlan = planFieldViolation(checked.record, zone.plan);
  if (overPlan) throw ApiError.fromViolations([overPlan], pointer || undefined);
  return checked.record;
}

/**
 * The record quota, judged on the state the changes leave (a batch that deletes as many as it
 * adds passes on a full zone); a zone already over its quota may still shrink or be edited.
 */
function checkRecordQuota(app: App, zone: ZoneRow, before: number): void {
  const after = countRecords(app.db, zone.id);
  if (after <= before) return;
  const quota = recordQuotaOverride(app.db, zone.id) ?? recordQuotaOf(zone.plan, zone.created_on);
  if (after > quota) throw ApiError.fromViolations([recordQuotaViolation()]);
}

function checkConflicts(
  app: App,
  zone: ZoneRow,
  rec: NormalisedRecord,
  id: string | undefined,
  pointer: string,
): void {
  const v = conflictWith({ ...rec, id }, recordsAt(app.db, zone.id, rec.name));
  if (v) throw ApiError.fromViolations([v], pointer || undefined);
}

/**
 * Applies a set of changes to a zone in one transaction and returns the records as written
 * (deletes: the records as they were). `pointers` false: errors carry no `/posts/3` source.
 */
export function applyChanges(app: App, zone: ZoneRow, changes: Changes, pointers = true): ChangeResult {
  const at = (kind: string, i: number): string => (pointers ? `/${kind}/${i}` : '');
  return app.db.transaction((): ChangeResult => {
    const before = countAddresses(app.db, zone.id);
    const recordsBefore = (changes.posts ?? []).length > 0 ? countRecords(app.db, zone.id) : 0;
    const result: ChangeResult = {
      deletes: [],
      patches: [],
      puts: [],
      posts: [],
      json: { deletes: [], patches: [], puts: [], posts: [] },
    };
    const written: ApiRecord[] = [];
    const time = now();

    (changes.deletes ?? []).forEach((item, i) => {
      const rec = existing(app, zone, objectAt(item, at('deletes', i)), at('deletes', i), true);
      deleteRecord(app.db, rec.id);
      result.deletes.push(rec);
      result.json.deletes.push(JSON.stringify(rec));
    });
    (changes.patches ?? []).forEach((item, i) => {
      const p = at('patches', i);
      const body = objectAt(item, p);
      const prev = existing(app, zone, body, p, true);
      const patch = pick(body);
      const merged = { ...recordBody(prev), ...patch };
      // new content replaces old data and the other way round; a new type starts afresh
      if (patch.content !== undefined && patch.data === undefined) delete merged.data;
      if (patch.data !== undefined && patch.content === undefined) delete merged.content;
      if (patch.proxied === true && patch.ttl === undefined) delete merged.ttl;
      const rec = validate(zone, merged, p);
      checkConflicts(app, zone, rec, prev.id, p);
      const api = toApiRecord(prev.id, zone, rec, time, prev);
      result.json.patches.push(updateRecord(app.db, api));
      result.patches.push(api);
      written.push(api);
    });
    (changes.puts ?? []).forEach((item, i) => {
      const p = at('puts', i);
      const body = objectAt(item, p);
      const prev = existing(app, zone, body, p, true);
      const rec = validate(zone, pick(body), p);
      checkConflicts(app, zone, rec, prev.id, p);
      const api = toApiRecord(prev.id, zone, rec, time, prev);
      result.json.puts.push(updateRecord(app.db, api));
      result.puts.push(api);
      written.push(api);
    });
    // posts: every body is checked first (it needs nothing of the zone), then the records at
    // their names are read in one query and kept current as the posts go in, so a 3,500-post
    // batch does not make 3,500 lookups. Errors still come out in the order of the posts.
    const posts = changes.posts ?? [];
    const checked = posts.map((item, i) => {
      try {
        return validate(zone, pick(objectAt(item, at('posts', i))), at('posts', i));
      } catch (err) {
        return err as ApiError;
      }
    });
    const atName = recordsAtNames(
      app.db,
      zone.id,
      checked.flatMap((c) => (c instanceof ApiError ? [] : [c.name])),
    );
    checked.forEach((rec, i) => {
      if (rec instanceof ApiError) throw rec;
      const here = atName.get(rec.name) ?? [];
      const v = conflictWith(rec, here);
      if (v) throw ApiError.fromViolations([v], at('posts', i) || undefined);
      const api = toApiRecord(newId(), zone, rec, time);
      result.json.posts.push(insertRecord(app.db, api));
      result.posts.push(api);
      written.push(api);
      here.push({
        id: api.id,
        name: api.name,
        type: api.type,
        content: api.content,
        proxied: api.proxied,
        priority: api.priority,
        data: api.data,
      });
      atName.set(rec.name, here);
    });

    if ((changes.posts ?? []).length > 0) checkRecordQuota(app, zone, recordsBefore);
    const keeps = checkKeepsAddress(before, countAddresses(app.db, zone.id), zone.name);
    if (keeps) throw ApiError.fromViolations([keeps]);
    const lookup = (name: string) => recordsAt(app.db, zone.id, name);
    for (const w of written) {
      // only CNAMEs have chains; judged as the record ended up (a later change may have edited it)
      if (w.type !== 'CNAME') continue;
      const row = getRecord(app.db, zone.id, w.id);
      if (!row) continue;
      const rec = { name: row.name, type: row.type, content: row.content, proxied: row.proxied === 1 };
      const v = checkCnameChain(rec, zone.name, lookup);
      if (v) throw ApiError.fromViolations([v]);
    }
    return result;
  })();
}
