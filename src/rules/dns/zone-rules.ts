/**
 * Rules that judge a record against the other records of its zone: CNAME conflicts, identical
 * records, proxied CNAME chains and the at-least-one-address rule. They take plain arrays so the
 * local API can run them on a transaction's final state and the validator on a desired state.
 */
import { isInZone, normaliseZoneName } from './names.js';
import { PRIORITY_TYPES } from './types.js';
import { CODES, LOCAL_CODES, dnsError, type Violation } from './violation.js';

/** The fields these rules need; NormalisedRecord and stored records both fit. */
export interface ZoneRecord {
  id?: string;
  /** full lower-case name */
  name: string;
  type: string;
  content: string;
  /** normalised structured data (SRV, URI, CAA, ...); when both sides have it, it is the value compared */
  data?: Record<string, string | number>;
  /** MX, URI and SRV: part of the record's identity beside its content or data */
  priority?: number;
  proxied?: boolean;
}

const ADDRESS = new Set(['A', 'AAAA']);

/**
 * The conflict a candidate record would have with the records already at its name (the candidate
 * itself, matched by id, is skipped):
 * - 81053: a CNAME where any other record exists (a CNAME must be alone at its name);
 * - 81054: any record where a CNAME exists;
 * - 81058: a record of the same name, type and value exists: the same normalised data for
 *   structured types (SRV, URI, CAA, ...), else the same content, and for MX, URI and SRV the
 *   same priority (docs/reference/design.md section 2: two SRVs that differ only in priority are two records).
 */
export function conflictWith(candidate: ZoneRecord, existing: Iterable<ZoneRecord>): Violation | null {
  return conflictAmong(candidate, existing, candidate.id);
}

/** conflictWith, skipping the record whose id is `self` (none when undefined). */
function conflictAmong(
  candidate: ZoneRecord,
  existing: Iterable<ZoneRecord>,
  self: string | undefined,
): Violation | null {
  for (const r of existing) {
    if (self !== undefined && r.id === self) continue;
    if (r.name !== candidate.name) continue;
    // the apex SOA lives beside an apex CNAME (flattened) without conflict
    if (r.type === 'SOA') continue;
    if (candidate.type === 'CNAME' && r.type === 'CNAME') {
      if (sameValue(r, candidate)) return identical();
      return {
        code: CODES.cnameTargetTaken,
        message: 'An A, AAAA, or CNAME record with that host already exists.',
      };
    }
    if (candidate.type === 'CNAME') {
      return {
        code: CODES.cnameTargetTaken,
        message: 'An A, AAAA, or CNAME record with that host already exists.',
      };
    }
    if (r.type === 'CNAME') {
      return { code: CODES.cnameExists, message: 'A CNAME record with that host already exists.' };
    }
    if (r.type === candidate.type && sameValue(r, candidate)) return identical();
  }
  return null;
}

/**
 * Whether two records of one type hold the same value (their identity per docs/reference/design.md section 2):
 * the normalised data when both carry it, else the content; for MX, URI and SRV also the
 * priority (from `priority`, or `data.priority` for SRV). A side that does not say its priority
 * (a caller that passes content only) is judged on its content alone.
 */
export function sameValue(a: ZoneRecord, b: ZoneRecord): boolean {
  if (a.data && b.data) {
    if (!sameData(a.data, b.data)) return false;
  } else if (a.content !== b.content) return false;
  if (PRIORITY_TYPES.has(a.type.toUpperCase())) {
    const pa = priorityOf(a);
    const pb = priorityOf(b);
    if (pa !== undefined && pb !== undefined && pa !== pb) return false;
  }
  return true;
}

function priorityOf(r: ZoneRecord): number | undefined {
  const p = r.priority ?? r.data?.priority;
  if (p === undefined || p === null) return undefined;
  return Number(p);
}

function sameData(a: Record<string, string | number>, b: Record<string, string | number>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const x = a[k];
    const y = b[k];
    if (x === undefined || y === undefined) {
      if (x !== y) return false;
    } else if (String(x) !== String(y)) return false;
  }
  return true;
}

function identical(): Violation {
  return { code: CODES.identical, message: 'An identical record already exists.' };
}

/** The first conflict inside a whole set of records (a desired state, or a batch's final state). */
export function conflictsIn(records: readonly ZoneRecord[]): { record: ZoneRecord; violation: Violation }[] {
  // a name's first record stands alone; a list is made for a name met twice (most names of a
  // large zone hold one record: no list for each)
  const byName = new Map<string, ZoneRecord | ZoneRecord[]>();
  const out: { record: ZoneRecord; violation: Violation }[] = [];
  // (indexed loops here and below: they run once per record, and for...of walks an iterator until
  // V8 optimises the loop)
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const seen = byName.get(r.name);
    if (seen === undefined) {
      byName.set(r.name, r);
      continue;
    }
    const same = Array.isArray(seen) ? seen : [seen];
    // each record is judged against the earlier ones, ids aside (no copy of it for that)
    const v = conflictAmong(r, same, undefined);
    if (v) out.push({ record: r, violation: v });
    same.push(r);
    if (same !== seen) byName.set(r.name, same);
  }
  return out;
}

/**
 * Follows a proxied CNAME through the zone. The chain is fine when it reaches an A/AAAA record, or
 * leaves the zone (an external name, resolved elsewhere). It is refused when it loops or reaches
 * an in-zone name that has no record (a wildcard at the closest parent counts as a record).
 * `lookup(name)` returns the records at a full name.
 */
export function checkCnameChain(
  start: ZoneRecord,
  zone: string,
  lookup: (name: string) => readonly ZoneRecord[],
): Violation | null {
  if (start.type !== 'CNAME' || !start.proxied) return null;
  const z = normaliseZoneName(zone);
  const seen = new Set<string>([start.name]);
  const path = [start.name];
  let target = start.content;
  for (;;) {
    if (!isInZone(target, z)) return null;
    if (seen.has(target)) {
      return dnsError(
        LOCAL_CODES.cnameChain,
        `The proxied CNAME ${start.name} loops: ${[...path, target].join(' -> ')}. A proxied CNAME must end in an A or AAAA record.`,
      );
    }
    seen.add(target);
    path.push(target);
    let here = lookup(target);
    if (here.length === 0) here = wildcardFor(target, z, lookup);
    if (here.some((r) => ADDRESS.has(r.type))) return null;
    const next = here.find((r) => r.type === 'CNAME');
    if (!next) {
      return dnsError(
        LOCAL_CODES.cnameChain,
        `The proxied CNAME ${start.name} points to ${path.slice(1).join(' -> ')}, which has no A, AAAA or CNAME record in the zone.`,
      );
    }
    target = next.content;
  }
}

function wildcardFor(
  name: string,
  zone: string,
  lookup: (name: string) => readonly ZoneRecord[],
): readonly ZoneRecord[] {
  let parent = name;
  while (parent !== zone && parent.includes('.')) {
    parent = parent.slice(parent.indexOf('.') + 1);
    const found = lookup('*.' + parent);
    if (found.length > 0) return found;
    // a name that exists blocks wildcards above it
    if (lookup(parent).length > 0) return [];
  }
  return [];
}

/** An index of records by name, for checkCnameChain's lookup over an array. */
export function indexByName(records: Iterable<ZoneRecord>): (name: string) => readonly ZoneRecord[] {
  const map = new Map<string, ZoneRecord[]>();
  for (const r of records) {
    const list = map.get(r.name);
    if (list) list.push(r);
    else map.set(r.name, [r]);
  }
  return (name) => map.get(name) ?? [];
}

/** Whether any of the records is an A or AAAA record (the zone must keep one). */
export function hasAddressRecord(records: readonly ZoneRecord[]): boolean {
  for (let i = 0; i < records.length; i++) if (ADDRESS.has(records[i]!.type)) return true;
  return false;
}

/**
 * A zone that had an A or AAAA record must keep one, judged on the final state of a change:
 * a batch that replaces the last A is fine; a change that leaves none is refused.
 */
export function checkKeepsAddress(beforeCount: number, afterCount: number, zone: string): Violation | null {
  if (beforeCount > 0 && afterCount === 0) {
    return dnsError(
      LOCAL_CODES.lastAddress,
      `This change would leave the zone ${normaliseZoneName(zone)} without any A or AAAA record; a zone must keep at least one. Add the new address record first (a batch may replace it in one request).`,
    );
  }
  return null;
}
