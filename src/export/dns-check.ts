/**
 * The export's check of a zone's DNS records, with the verdict of `zoneplan validate` and a
 * fraction of its cost. The full check (the composed JSON Schema through ajv, then the kind's
 * semantic rules) costs about 10 microseconds a record: for a zone of 10,000 records, several times
 * the time it takes to read them. Exported records are plain: A, AAAA, CNAME, TXT, MX, NS, PTR with
 * lower-case names and canonical content, built by the exporter from live records. For those, a
 * record is certified here by direct tests that imply both the schema and the per-record rules
 * (`certify`); anything else (another type, `data`, an unusual name or address) is decided by the
 * full check itself, run on those records only. The rules across records (duplicates, a CNAME
 * beside others, proxied CNAME chains) then run once over every record, with the shared rule
 * functions, as src/kinds/dns/validate.ts runs them.
 *
 * The result is the full check's problems, same paths and messages (order aside); nothing here
 * may accept what `validate` refuses. test/export/dns-check.test.ts compares the two on generated
 * zones, valid and invalid, field by field. Where this cannot be sure, it returns undefined and
 * the caller runs the full check.
 */
import { normContent, normData, valueOf } from '../kinds/dns/normalize.js';
import { dnsSchema } from '../kinds/dns/schema.js';
import {
  CODES,
  PROVIDER_IPV4_CIDRS,
  PROVIDER_IPV6_CIDRS,
  canonicalIpv6,
  checkCnameChain,
  checkRecord,
  conflictWith,
  indexByName,
  isHostname,
  isNonRoutable,
  normaliseHostname,
  normaliseZoneName,
  parseIpv4,
  parseIpv6,
  violationText,
  type Violation,
  type ZoneRecord,
} from '../rules/dns/index.js';
import type { ExportProblem } from './types.js';

type Entry = Record<string, unknown>;
type FullCheck = (value: unknown) => ExportProblem[];

/** A record that passed the per-record rules: what the rules across records need (validate.ts). */
export interface Checked {
  index: number;
  /** full lower-case name */
  name: string;
  type: string;
  /** the normalised content (the chain rule follows it) */
  target: string;
  proxied: boolean;
  /** the value identity duplicates are judged on */
  identity: string;
}

const isEntry = (v: unknown): v is Entry => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---- certify: direct tests for the plain records an export writes ----

/** The keys the exporter writes for a plain record; any other key goes to the full check. */
const KEYS = new Set(['name', 'type', 'content', 'priority', 'ttl', 'proxied', 'comment', 'tags', 'settings']);
const FAST_TYPES = new Set(['A', 'AAAA', 'CNAME', 'MX', 'NS', 'PTR', 'TXT']);
const HOST_TYPES = new Set(['A', 'AAAA', 'CNAME']); // proxiable, and named by the host rules
const SETTINGS = new Set(['ipv4_only', 'ipv6_only', 'flatten_cname']);
/** the schema's own tag pattern, compiled as ajv compiles patterns (unicode) */
const TAG = new RegExp(
  String(
    (dnsSchema as { properties: { records: { items: { properties: { tags: { items: { pattern: string } } } } } } })
      .properties.records.items.properties.tags.items.pattern,
  ),
  'u',
);
/** The labels a record adds to its zone, lower case (`*` only as the whole first label), 1-63 each. */
const HOST_LABELS =
  /^(?:\*|[a-z_](?:[a-z0-9_-]{0,61}[a-z0-9])?)(?:\.[a-z_](?:[a-z0-9_-]{0,61}[a-z0-9])?)*$/;
const ANY_LABELS =
  /^(?:\*|[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
/** a dotted quad in the canonical form (no leading zeros), which is what the rules store */
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);
const GROUP = '[1-9a-f][0-9a-f]{0,3}';
/** RFC 5952 with `::`: no zero group besides the compressed run (which must then be 2+ groups) */
const IPV6_COMPRESSED = new RegExp(`^(?:${GROUP}(?::${GROUP})*)?::(?:${GROUP}(?::${GROUP})*)?$`);
/** eight groups, single zero groups allowed where no two are adjacent */
const IPV6_FULL = new RegExp(`^(?:0|${GROUP})(?::(?:0|${GROUP})){7}$`);

export interface Zone {
  /** as the owner entry spells it: the rules are given this, as validate gives it */
  raw: string;
  /** normalised (lower case, no final dot) */
  z: string;
  dotZ: string;
}

/** The full name of a plain record name, or undefined to leave it to the full check. */
function fullNameOf(name: unknown, type: string, zone: Zone): string | undefined {
  if (typeof name !== 'string' || name.length === 0 || name.length > 255) return undefined;
  if (name === '@' || name === zone.z) return zone.z;
  // the labels the record adds to the zone's: a name in the zone's form, or relative to it
  const inZone = name.endsWith(zone.dotZ);
  const labels = inZone ? name.slice(0, -zone.dotZ.length) : name;
  const full = inZone ? name : name + zone.dotZ;
  if (full.length > 255 || !(HOST_TYPES.has(type) ? HOST_LABELS : ANY_LABELS).test(labels)) return undefined;
  return full;
}

interface Range32 {
  base: number;
  mask: number;
  /** the range is narrower than 32 bits: a match says only "maybe" */
  coarse: boolean;
}

/** The provider's ranges on the top 32 bits of an address, from the rules' own lists. */
function ranges(cidrs: readonly string[], v6: boolean): Range32[] {
  return cidrs.map((cidr) => {
    const [address, bitsText] = cidr.split('/');
    const bits = Number(bitsText);
    const value = (v6 ? parseIpv6(address) : parseIpv4(address)) as bigint;
    const top = Number(v6 ? value >> 96n : value);
    const used = Math.min(bits, 32);
    const mask = used === 0 ? 0 : (0xffffffff << (32 - used)) >>> 0;
    return { base: (top & mask) >>> 0, mask, coarse: bits > 32 };
  });
}
const V4_RANGES = ranges(PROVIDER_IPV4_CIDRS, false);
const V6_RANGES = ranges(PROVIDER_IPV6_CIDRS, true);

/** 'out' when no provider range holds the address, 'maybe' otherwise. */
function providerRange(top: number, list: Range32[]): 'out' | 'maybe' {
  for (const r of list) if ((top & r.mask) >>> 0 === r.base) return 'maybe';
  return 'out';
}

function ipv4Number(text: string): number {
  let n = 0;
  let part = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) [n, part] = [n * 256 + part, 0];
    else part = part * 10 + (c - 48);
  }
  return n * 256 + part;
}

function isCanonicalIpv6(text: string): boolean {
  if (IPV6_COMPRESSED.test(text)) {
    let colons = 0;
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 58) colons++;
    const groups = colons - (text.startsWith('::') ? 1 : 0) - (text.endsWith('::') ? 1 : 0);
    return groups <= 6;
  }
  if (IPV6_FULL.test(text)) return !/(^|:)0:0(:|$)/.test(text);
  return canonicalIpv6(text) === text; // any other spelling: the rules' own parser decides
}

/**
 * The top 32 bits of a canonical IPv6 address that does not start with `::` (those, which include
 * the IPv4-mapped ones the rules look up as IPv4, go to the full check).
 */
function ipv6Top(text: string): number {
  const c1 = text.indexOf(':');
  const g0 = parseInt(text.slice(0, c1), 16);
  if (text.charCodeAt(c1 + 1) === 58) return g0 * 65536;
  const c2 = text.indexOf(':', c1 + 1);
  return g0 * 65536 + parseInt(text.slice(c1 + 1, c2 < 0 ? undefined : c2), 16);
}

/** The stored content of a plain record's value, or undefined to leave it to the full check. */
function targetOf(type: string, content: string, full: string, proxied: boolean): string | undefined {
  switch (type) {
    case 'A':
      if (!IPV4.test(content) || providerRange(ipv4Number(content), V4_RANGES) !== 'out') return undefined;
      return proxied && isNonRoutable(content) ? undefined : content;
    case 'AAAA':
      if (content.startsWith('::') || !isCanonicalIpv6(content)) return undefined;
      if (providerRange(ipv6Top(content), V6_RANGES) !== 'out') return undefined;
      return proxied && isNonRoutable(content) ? undefined : content;
    case 'TXT':
      return content.length <= 2048 ? content : undefined;
    default: {
      // CNAME, MX, NS, PTR: a host name (a null MX is `.`)
      const text = content.trim();
      if (type === 'MX' && text === '.') return '.';
      if (!isHostname(text)) return undefined;
      const target = normaliseHostname(text);
      return type === 'CNAME' && target === full ? undefined : target;
    }
  }
}

const optional = (v: unknown, test: (v: unknown) => boolean) => v === undefined || test(v);
const isInt = (v: unknown, min: number, max: number) =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

function tagsFine(tags: unknown): boolean {
  if (!Array.isArray(tags)) return false;
  for (const t of tags) if (typeof t !== 'string' || !TAG.test(t)) return false;
  return new Set(tags).size === tags.length;
}

function settingsFine(settings: unknown, type: string): boolean {
  if (!isEntry(settings)) return false;
  for (const k in settings) {
    const v = settings[k];
    if (!SETTINGS.has(k) || !optional(v, (x) => typeof x === 'boolean')) return false;
    if (k === 'flatten_cname' && v !== undefined && type !== 'CNAME') return false;
  }
  return true;
}

/**
 * A plain record the schema and the per-record rules certainly accept, as the rules across records
 * see it; undefined when that is not certain (the full check then decides).
 */
export function certify(e: Entry, zone: Zone, index: number): Checked | undefined {
  for (const k in e) if (!KEYS.has(k)) return undefined;
  const { type, content, proxied, ttl } = e;
  if (typeof type !== 'string' || !FAST_TYPES.has(type)) return undefined;
  if (typeof content !== 'string' || content.trim() === '') return undefined;
  if (!(proxied === undefined || proxied === false || (proxied === true && HOST_TYPES.has(type))))
    return undefined;
  // `auto`, or seconds; a proxied record's TTL is Auto only
  const ttlFine = ttl === undefined || ttl === 'auto' || ttl === 1 || (isInt(ttl, 30, 86400) && !proxied);
  if (!ttlFine) return undefined;
  if (type === 'MX' ? !isInt(e.priority, 0, 65535) : e.priority !== undefined) return undefined;
  // the rules count UTF-16 units, the schema code points: under 500 units passes both
  if (!optional(e.comment, (c) => c === null || (typeof c === 'string' && c.length <= 500))) return undefined;
  if (!optional(e.tags, tagsFine) || !optional(e.settings, (s) => settingsFine(s, type))) return undefined;
  const name = fullNameOf(e.name, type, zone);
  if (name === undefined) return undefined;
  const target = targetOf(type, content, name, proxied === true);
  if (target === undefined) return undefined;
  return { index, name, type, target, proxied: proxied === true, identity: normContent(type, target) ?? '' };
}

export function zoneOf(raw: string): Zone {
  const z = normaliseZoneName(raw);
  return { raw, z, dotZ: '.' + z };
}

/** A record the full check accepted, normalised exactly as validate.ts's checkOne does. */
function normalised(e: Entry, zone: Zone, index: number): Checked | undefined {
  const ttl = e.ttl === 'auto' ? 1 : e.ttl;
  const result = checkRecord({ ...e, ttl }, { name: zone.raw, plan: 'enterprise' });
  if ('violations' in result) return undefined;
  const r = result.record;
  const identity = valueOf({ type: r.type, content: normContent(r.type, r.content), data: normData(r.data) });
  return { index, name: r.name, type: r.type, target: r.content, proxied: r.proxied, identity };
}

// ---- the rules across records, as validate.ts's checkZoneWide applies them ----

const asRecord = (c: Checked, content: string): ZoneRecord => ({
  name: c.name,
  type: c.type,
  content,
  proxied: c.proxied,
});

function clash(earlier: Checked, later: Checked, violation: Violation): boolean {
  if (violation.code === CODES.identical)
    return earlier.type === later.type && earlier.identity === later.identity;
  return earlier.type === 'CNAME' || later.type === 'CNAME';
}

/**
 * Duplicates and CNAME conflicts (a name's earlier records, compared with the shared
 * `conflictWith`), then, when every record passed its own rules (`partial` false), proxied CNAME
 * chains with the shared `checkCnameChain`. Most names hold one record: a list is made only for
 * a name's second record, so a large zone costs one map entry per name.
 */
export function checkAcross(checked: Checked[], zone: string, partial: boolean): ExportProblem[] {
  const out: ExportProblem[] = [];
  const first = new Map<string, Checked>();
  const shared = new Map<string, { records: ZoneRecord[]; checked: Checked[] }>();
  for (const c of checked) {
    const one = first.get(c.name);
    if (one === undefined) {
      first.set(c.name, c);
      continue;
    }
    let same = shared.get(c.name);
    if (!same) shared.set(c.name, (same = { records: [asRecord(one, one.identity)], checked: [one] }));
    const violation = conflictWith(asRecord(c, c.identity), same.records);
    if (violation) {
      const other = same.checked.find((o) => clash(o, c, violation));
      const earlier = other ? `records[${other.index}]` : 'another record';
      const message =
        violation.code === CODES.identical
          ? `duplicate record: ${earlier} already has this name, type and value`
          : `a CNAME must be the only record at its name, and ${earlier} (${other?.type ?? 'a record'}) is also at ${c.name}`;
      out.push({ path: `records[${c.index}]`, message });
    }
    same.records.push(asRecord(c, c.identity));
    same.checked.push(c);
  }
  if (partial || !checked.some((c) => c.type === 'CNAME' && c.proxied)) return out;
  const lookup = indexByName(checked.map((c) => asRecord(c, c.target)));
  for (const c of checked) {
    if (c.type !== 'CNAME' || !c.proxied) continue;
    const v = checkCnameChain(asRecord(c, c.target), zone, lookup);
    if (v) out.push({ path: `records[${c.index}].content`, message: violationText(v).replace(/\.$/, '') });
  }
  return out;
}

// ---- the whole check ----

/** Records failing the full check on their own are looked at one by one up to this many. */
const ALONE_LIMIT = 64;

const RECORD_PATH = /^records\[(\d+)\]/;

/**
 * The problems the full check (`full`, as ExportContext.check) finds in `value`, the `dns` value of
 * the zone `owner` (its entry without `dns`); undefined when the value is not `{ records: [...] }`,
 * the owner itself has problems, or the answer is not certain: the caller runs the full check.
 */
export function checkDnsRecords(owner: Entry, value: unknown, full: FullCheck): ExportProblem[] | undefined {
  if (!isEntry(value) || !Array.isArray(value.records) || Object.keys(value).length !== 1) return undefined;
  if (typeof owner.name !== 'string' || full({ records: [] }).length > 0) return undefined;
  const zone = zoneOf(owner.name);
  const entries = value.records as unknown[];
  const checked: (Checked | undefined)[] = new Array(entries.length);
  const unsure: number[] = [];
  for (let index = 0; index < entries.length; index++) {
    const e = entries[index];
    const c = isEntry(e) ? certify(e, zone, index) : undefined;
    if (c) checked[index] = c;
    else unsure.push(index);
  }
  const problems: ExportProblem[] = [];
  if (unsure.length > 0) {
    // the per-record verdicts of the others from the full check; a problem there may also come
    // from the rules across records, judged on this subset only, so such records are checked alone
    const failing = new Set<number>();
    for (const p of full({ records: unsure.map((i) => entries[i]) })) {
      const m = RECORD_PATH.exec(p.path);
      if (!m) return undefined;
      failing.add(Number(m[1]));
    }
    if (failing.size > ALONE_LIMIT) return undefined;
    for (let k = 0; k < unsure.length; k++) {
      const index = unsure[k];
      const e = entries[index];
      if (failing.has(k)) {
        // alone, a proxied CNAME can still fail the chain rule (its target is missing): undecided
        if (isEntry(e) && e.proxied === true && String(e.type).trim().toUpperCase() === 'CNAME') return undefined;
        const alone = full({ records: [e] });
        if (alone.length > 0) {
          for (const p of alone) {
            if (!p.path.startsWith('records[0]')) return undefined;
            problems.push({ path: `records[${index}]${p.path.slice('records[0]'.length)}`, message: p.message });
          }
          continue;
        }
      }
      const c = isEntry(e) ? normalised(e, zone, index) : undefined;
      if (!c) return undefined;
      checked[index] = c;
    }
  }
  const valid = checked.filter((c): c is Checked => c !== undefined);
  problems.push(...checkAcross(valid, zone.raw, valid.length < entries.length));
  return problems;
}
