/**
 * Plain DNS records certified valid by direct tests, without the general rules: the types the
 * record model calls plain (A, AAAA, CNAME, TXT, MX, NS and PTR) with a lower-case name in the
 * zone, canonical content, a TTL in seconds or `auto` and the few optional keys a plain record has
 * (the shared fields of the model, each tested by its kind: ./field-forms.ts plainValue). For these, the tests below imply both the
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
import {
  BODY_FIELDS,
  MANAGED_FIELDS,
  MANAGED_FIELD_NAMES,
  PROVIDER_IPV4_CIDRS,
  PROVIDER_IPV6_CIDRS,
  canonicalIpv6Top,
  ipv4Value,
  modelOf,
  isNonRoutable,
  normaliseZoneName,
  parseIpv4,
  parseIpv6,
  typesWhere,
  type ContentKind,
} from '../../rules/dns/index.js';
import { plainHostname, plainLabels } from './export-scan.js';
import { plainValue } from './field-forms.js';
import type { Entry } from '../../rules/shared/values.js';

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

/**
 * The keys of a plain record: a record body's (the record model's, src/rules/dns/body.ts) but
 * `data`; any other key goes to the full check.
 */
const KEYS = new Map<string, boolean>(
  BODY_FIELDS.filter((k) => k !== 'data').map((k) => [
    k,
    (MANAGED_FIELD_NAMES as readonly string[]).includes(k),
  ]),
);
/** What certify needs of a plain type's model, found with one lookup per record. */
interface PlainType {
  /** how its content is scanned */
  kind: ContentKind;
  /** proxiable, and named by the host rules */
  host: boolean;
  /** its priority sits beside its content, and is required (MX) */
  priority: boolean;
}
/** the types the model calls plain: `content` of a kind scanned below */
const PLAIN_TYPES = new Map<string, PlainType>(
  [...typesWhere((m) => m.plain === true && m.content !== undefined)].map((t) => {
    const m = modelOf(t)!;
    return [t, { kind: m.content!, host: m.proxiable === true, priority: m.priority === 'beside' }];
  }),
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
function labelsOf(name: unknown, host: boolean, zone: Zone): string | undefined {
  if (typeof name !== 'string' || name.length === 0 || name.length > 255) return undefined;
  if (name === '@' || name === zone.z) return '';
  // a name in the zone's form, or relative to it
  const labels = name.endsWith(zone.dotZ) ? name.slice(0, -zone.dotZ.length) : name;
  const fine = labels.length + zone.dotZ.length <= 255 && plainLabels(labels, host);
  return fine ? labels : undefined;
}

/** The full lower-case name a record's key stands for (a name outside the zone keeps its own, after `\0`). */
export function fullNameOf(key: string, zone: Zone): string {
  if (key === '') return zone.z;
  return key.charCodeAt(0) === 0 ? key.slice(1) : key + zone.dotZ;
}

/** The key of a full lower-case name: `fullNameOf` undone (a name outside the zone gets `\0` first). */
export function keyOf(name: string, zone: Zone): string {
  if (name === zone.z) return '';
  return name.endsWith(zone.dotZ) ? name.slice(0, -zone.dotZ.length) : `\u0000${name}`;
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
  kind: ContentKind,
  content: string,
  key: string,
  zone: Zone,
  proxied: boolean,
): string | undefined {
  switch (kind) {
    case 'ipv4': {
      const value = ipv4Value(content);
      if (value < 0 || maybeProvider(value, V4_RANGES)) return undefined;
      return proxied && isNonRoutable(content) ? undefined : content;
    }
    case 'ipv6': {
      const top = canonicalIpv6Top(content);
      if (top < 0 || maybeProvider(top, V6_RANGES)) return undefined;
      return proxied && isNonRoutable(content) ? undefined : content;
    }
    case 'text':
      return content.length <= 2048 ? content : undefined;
    case 'alias':
    case 'mail':
    case 'host': {
      // a host name (a null MX is `.`)
      if (kind === 'mail' && content === '.') return '.';
      if (!plainHostname(content)) return undefined;
      // a CNAME may not point at its own name
      return kind === 'alias' && isNameOf(content, key, zone) ? undefined : content;
    }
    default:
      return undefined;
  }
}

const isInt = (v: unknown, min: number, max: number) =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/**
 * A plain record the schema and the per-record rules certainly accept, as the rules across records
 * see it; undefined when that is not certain (the full check then decides).
 */
export function certify(e: Entry, zone: Zone, index: number): Checked | undefined {
  // (the map says which keys are shared fields: most plain records have none, and skip their tests)
  let shared = false;
  for (const k in e) {
    const isShared = KEYS.get(k);
    if (isShared === undefined) return undefined;
    shared ||= isShared;
  }
  const { content, proxied, ttl } = e;
  const plain = typeof e.type === 'string' ? PLAIN_TYPES.get(e.type) : undefined;
  if (plain === undefined || typeof content !== 'string') return undefined;
  const type = e.type as string;
  if (!(proxied === undefined || proxied === false || (proxied === true && plain.host))) return undefined;
  // `auto`, or seconds; a proxied record's TTL is Auto only
  const ttlFine = ttl === undefined || ttl === 'auto' || ttl === 1 || (isInt(ttl, 30, 86400) && !proxied);
  if (!ttlFine) return undefined;
  if (plain.priority ? !isInt(e.priority, 0, 65535) : e.priority !== undefined) return undefined;
  // the shared fields (the record model's): comment, tags, settings
  for (let f = 0; shared && f < MANAGED_FIELDS.length; f++) {
    const field = MANAGED_FIELDS[f]!;
    if (!plainValue(field, e[field.name], type)) return undefined;
  }
  const key = labelsOf(e.name, plain.host, zone);
  if (key === undefined) return undefined;
  // blank content is refused; the scanners accept no blank, and TXT is checked here
  const text = plain.kind === 'text';
  if (text && content.trim() === '') return undefined;
  const target = targetOf(plain.kind, content, key, zone, proxied === true);
  if (target === undefined) return undefined;
  // the stored forms above are already the planner's normal form, but for TXT quotes and the
  // null MX (`.`, whose identity is '')
  const identity = text || target === '.' ? (normContent(type, target) ?? '') : target;
  return { index, key, type, target, proxied: proxied === true, identity };
}

export function zoneOf(raw: string): Zone {
  const z = normaliseZoneName(raw);
  return { raw, z, dotZ: '.' + z };
}
