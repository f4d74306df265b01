/**
 * Plain DNS records certified valid by direct tests, without the general rules: A, AAAA, CNAME,
 * TXT, MX, NS and PTR with a lower-case name in the zone, canonical content, a TTL in seconds or
 * `auto` and the few optional keys a plain record has. For these, the tests below imply both the
 * JSON Schema and the per-record rules of src/rules/dns (checkRecord and validate.ts's own), at a
 * fraction of their cost: the general rules cost 10-20 microseconds a record, several times the
 * time it takes to read a file of 10,000 records. Anything else (another type, `data`, an unusual
 * name or address) is left to the general rules: certify gives undefined when it is not sure.
 *
 * Two checks use it: the export's (./export-check.ts, on the records an export writes) and
 * `zoneplan validate`'s (./validate.ts, on a file's records). Nothing here may accept what the
 * rules refuse: test/export/dns-check.test.ts and test/kinds/dns/validate-certify.test.ts compare
 * the verdicts and the normalised records on generated records.
 */
import { normContent } from './normalize.js';
import { dnsSchema } from './schema.js';
import {
  PROVIDER_IPV4_CIDRS,
  PROVIDER_IPV6_CIDRS,
  isNonRoutable,
  normaliseZoneName,
  parseIpv4,
  parseIpv6,
} from '../../rules/dns/index.js';
import { ipv4Value, ipv6Top, plainHostname, plainLabels } from './export-scan.js';
import { copyOf } from '../../config/entry-copy.js';
import { isObject, type Entry } from '../../rules/shared/values.js';

/** A record that passed the per-record rules: what the rules across records need (validate.ts). */
export interface Checked {
  index: number;
  /**
   * the name: the labels before the zone's ('' at the apex), one key per full name (`nameOf`);
   * the full names, built for 10,000 records, would cost more to build and to compare
   */
  key: string;
  type: string;
  /** the normalised content (the chain rule follows it) */
  target: string;
  proxied: boolean;
  /** the value identity duplicates are judged on */
  identity: string;
}

/** The keys of a plain record (those the exporter writes); any other key goes to the full check. */
const KEYS = new Set([
  'name',
  'type',
  'content',
  'priority',
  'ttl',
  'proxied',
  'comment',
  'tags',
  'settings',
]);
const FAST_TYPES = new Set(['A', 'AAAA', 'CNAME', 'MX', 'NS', 'PTR', 'TXT']);
const HOST_TYPES = new Set(['A', 'AAAA', 'CNAME']); // proxiable, and named by the host rules
const SETTINGS = new Set(['ipv4_only', 'ipv6_only', 'flatten_cname']);
/** the schema's own tag pattern, compiled as ajv compiles patterns (unicode) */
const TAG = new RegExp(
  String(
    (
      dnsSchema as {
        properties: { records: { items: { properties: { tags: { items: { pattern: string } } } } } };
      }
    ).properties.records.items.properties.tags.items.pattern,
  ),
  'u',
);

export interface Zone {
  /** as the owner entry spells it: the rules are given this, as validate gives it */
  raw: string;
  /** normalised (lower case, no final dot) */
  z: string;
  dotZ: string;
}

/**
 * The labels a plain record name adds to its zone's ('' at the apex), or undefined to leave the
 * name to the full check (the key of `Checked`).
 */
function labelsOf(name: unknown, type: string, zone: Zone): string | undefined {
  if (typeof name !== 'string' || name.length === 0 || name.length > 255) return undefined;
  if (name === '@' || name === zone.z) return '';
  // a name in the zone's form, or relative to it
  const labels = name.endsWith(zone.dotZ) ? name.slice(0, -zone.dotZ.length) : name;
  const fine = labels.length + zone.dotZ.length <= 255 && plainLabels(labels, HOST_TYPES.has(type));
  return fine ? labels : undefined;
}

/** The full lower-case name of a record's key (a name outside the zone keeps its own, after `\0`). */
export function nameOf(c: Checked, zone: Zone): string {
  if (c.key === '') return zone.z;
  return c.key.charCodeAt(0) === 0 ? c.key.slice(1) : c.key + zone.dotZ;
}

/** Whether `text` is the full name of the labels `key`, without building it. */
function isNameOf(text: string, key: string, zone: Zone): boolean {
  if (key === '') return text === zone.z;
  return text.length === key.length + zone.dotZ.length && text.startsWith(key) && text.endsWith(zone.dotZ);
}

interface Range32 {
  base: number;
  mask: number;
}

/**
 * The provider's ranges on the top 32 bits of an address, from the rules' own lists. A range
 * narrower than 32 bits (none is, today) then matches more than itself: a match only sends the
 * address to the rules.
 */
function ranges(cidrs: readonly string[], v6: boolean): Range32[] {
  return cidrs.map((cidr) => {
    const [address, bitsText] = cidr.split('/');
    const value = (v6 ? parseIpv6(address) : parseIpv4(address)) as bigint;
    const top = Number(v6 ? value >> 96n : value);
    const used = Math.min(Number(bitsText), 32);
    const mask = used === 0 ? 0 : (0xffffffff << (32 - used)) >>> 0;
    return { base: (top & mask) >>> 0, mask };
  });
}
const V4_RANGES = ranges(PROVIDER_IPV4_CIDRS, false);
const V6_RANGES = ranges(PROVIDER_IPV6_CIDRS, true);

/** Whether a provider range may hold the address of these top 32 bits. */
function maybeProvider(top: number, list: Range32[]): boolean {
  for (let i = 0; i < list.length; i++) if ((top & list[i]!.mask) >>> 0 === list[i]!.base) return true;
  return false;
}

/** The stored content of a plain record's value, or undefined to leave it to the full check. */
function targetOf(
  type: string,
  content: string,
  key: string,
  zone: Zone,
  proxied: boolean,
): string | undefined {
  switch (type) {
    case 'A': {
      const value = ipv4Value(content);
      if (value < 0 || maybeProvider(value, V4_RANGES)) return undefined;
      return proxied && isNonRoutable(content) ? undefined : content;
    }
    case 'AAAA': {
      const top = ipv6Top(content);
      if (top < 0 || maybeProvider(top, V6_RANGES)) return undefined;
      return proxied && isNonRoutable(content) ? undefined : content;
    }
    case 'TXT':
      return content.length <= 2048 ? content : undefined;
    default: {
      // CNAME, MX, NS, PTR: a host name (a null MX is `.`)
      if (type === 'MX' && content === '.') return '.';
      if (!plainHostname(content)) return undefined;
      // a CNAME may not point at its own name
      return type === 'CNAME' && isNameOf(content, key, zone) ? undefined : content;
    }
  }
}

const isInt = (v: unknown, min: number, max: number) =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

function tagsFine(tags: unknown): boolean {
  if (!Array.isArray(tags)) return false;
  for (const t of tags) if (typeof t !== 'string' || !TAG.test(t)) return false;
  return new Set(tags).size === tags.length;
}

function settingsFine(settings: unknown, type: string): boolean {
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return false;
  for (const k in settings) {
    const v = (settings as Entry)[k];
    if (!SETTINGS.has(k) || !(v === undefined || typeof v === 'boolean')) return false;
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
  const { type, content, proxied, ttl, comment, tags, settings } = e;
  if (typeof type !== 'string' || !FAST_TYPES.has(type)) return undefined;
  if (typeof content !== 'string') return undefined;
  if (!(proxied === undefined || proxied === false || (proxied === true && HOST_TYPES.has(type))))
    return undefined;
  // `auto`, or seconds; a proxied record's TTL is Auto only
  const ttlFine = ttl === undefined || ttl === 'auto' || ttl === 1 || (isInt(ttl, 30, 86400) && !proxied);
  if (!ttlFine) return undefined;
  if (type === 'MX' ? !isInt(e.priority, 0, 65535) : e.priority !== undefined) return undefined;
  // the rules count UTF-16 units, the schema code points: up to 500 units passes both
  if (!(comment === undefined || comment === null || (typeof comment === 'string' && comment.length <= 500)))
    return undefined;
  if (tags !== undefined && !tagsFine(tags)) return undefined;
  if (settings !== undefined && !settingsFine(settings, type)) return undefined;
  const key = labelsOf(e.name, type, zone);
  if (key === undefined) return undefined;
  // blank content is refused; the scanners accept no blank, and TXT is checked here
  if (type === 'TXT' && content.trim() === '') return undefined;
  const target = targetOf(type, content, key, zone, proxied === true);
  if (target === undefined) return undefined;
  // the stored forms above are already the planner's normal form, but for TXT quotes and the
  // null MX (`.`, whose identity is '')
  const identity = type === 'TXT' || target === '.' ? (normContent(type, target) ?? '') : target;
  return { index, key, type, target, proxied: proxied === true, identity };
}

export function zoneOf(raw: string): Zone {
  const z = normaliseZoneName(raw);
  return { raw, z, dotZ: '.' + z };
}

/** What the schema sees in place of a certified record: a record it accepts at once. */
const STAND_IN: Readonly<Entry> = Object.freeze({ name: '@', type: 'A' });

/**
 * The `dns` value as the JSON Schema check is to see it (KindDefinition.schemaView): a record
 * certify accepts is valid under the schema, so the schema is given a small stand-in for it, and
 * none for those after the last record it must see (the list itself has no rule of its length or
 * content, ./schema.ts): a file of plain records leaves the schema nothing to do per record. Every
 * record the schema sees keeps its index.
 */
export function dnsSchemaView(value: unknown, owner: Entry): unknown {
  if (!isObject(value) || !Array.isArray(value.records) || typeof owner.name !== 'string') return value;
  const zone = zoneOf(owner.name);
  const records = value.records as unknown[];
  let seen: unknown[] | undefined;
  let certified = false;
  for (let i = records.length - 1; i >= 0; i--) {
    const e = records[i];
    if (isObject(e) && certify(e, zone, i)) {
      certified = true;
      if (seen) seen[i] = STAND_IN;
    } else seen ??= records.slice(0, i + 1);
  }
  if (!certified) return value;
  const view = copyOf<Entry>(value);
  view.records = seen ?? [];
  return view;
}
