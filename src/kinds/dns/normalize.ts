/**
 * Normalisation of DNS records, so that equivalent spellings and server-set fields never show as
 * changes: names to lower-case FQDNs without the trailing dot (`@`, relative and absolute forms are
 * one), IPv6 to its RFC 5952 form, hostnames in content and data to lower case without the dot,
 * TTL Auto (1) for every proxied record, comment null = absent = '', tags sorted.
 * Both sides (the file and the API) go through the same functions; planning compares the results.
 */
import type { DesiredRecord } from './desired.js';
import { canonicalJson } from '../../core/canonical.js';
import { canonicalIpv6 as rulesCanonicalIpv6, canonicalIpv6Top } from '../../rules/dns/ip.js';
import { hasData } from '../../rules/dns/content.js';
import { MANAGED_FIELDS, type GivenFields } from '../../rules/dns/fields.js';
import { typesWhere } from '../../rules/dns/model.js';
import { canonicalValue } from '../../rules/dns/normal-form.js';
import { RECORD_TYPES } from '../../rules/dns/types.js';
import {
  LIVE_FORMS,
  desiredForm,
  hasKeys,
  normComment,
  normData,
  normTags,
  stripDot,
} from './field-forms.js';

export { normComment, normData, normTags, stripDot };

/**
 * A record as the planner compares it; optional fields are present only when managed (the shared
 * ones, `comment`, `tags`, `settings`, come from the record model: src/rules/dns/fields.ts).
 */
export interface NormRecord extends GivenFields {
  name: string;
  type: string;
  content?: string;
  data?: Record<string, unknown>;
  ttl: number;
  proxied: boolean;
  priority?: number;
}

/** A live record after normalisation, with its server id. */
export interface LiveRecord extends NormRecord {
  id: string;
  /** the value identity: normalised content, or canonical data for structured types */
  value: string;
}

/** Types whose content is a host name, compared case-insensitively without the dot (the model's). */
const HOST_CONTENT = typesWhere((m) => m.content === 'alias' || m.content === 'mail' || m.content === 'host');
export const ADDRESS_TYPES = typesWhere((m) => m.content === 'ipv4' || m.content === 'ipv6');
/**
 * Types whose priority the API keeps beside `content` / `data`, not inside `data` (SRV, SVCB and
 * HTTPS carry theirs in `data`, where it is compared with the rest of the value).
 */
const PRIORITY_BESIDE_DATA = typesWhere((m) => m.priority === 'beside');

// fqdn runs once per record on both sides; the zone's own forms are computed once per zone
let lastZone = '';
let lastZ = '';
let lastDotZ = '';

/**
 * `@`, relative, FQDN and trailing-dot names of a zone all map to one lower-case FQDN. The same
 * rules as src/rules/dns fullName, which this does not call because it runs once per record on
 * every plan and keeps the zone's forms between calls; an absolute name outside the zone (which
 * the validator refuses) comes back as it is rather than null.
 */
export function fqdn(name: string, zone: string): string {
  if (zone !== lastZone) {
    lastZone = zone;
    lastZ = stripDot(zone.toLowerCase());
    lastDotZ = '.' + lastZ;
  }
  const z = lastZ;
  const n = name.trim().toLowerCase();
  if (n === '@' || n === '' || n === z) return z;
  if (n.endsWith('.')) return stripDot(n);
  if (n.endsWith(lastDotZ)) return n;
  if (n.endsWith('.@')) return n.slice(0, -2) + lastDotZ;
  return n + lastDotZ;
}

/** The name relative to the zone, `@` for the apex (for ignore patterns and short addresses). */
export { relativeName } from '../../rules/dns/names.js';

export function canonicalIpv6(text: string): string {
  const s = text.trim().toLowerCase();
  if (!s.includes(':')) return s;
  // an address already in its stored form is returned as it is (the rules' scan, which rejects
  // what it is not sure of, and the parser for the rest): this runs once per AAAA record of every
  // plan, and the shared parser keeps both sides on one form
  if (canonicalIpv6Top(s) >= 0) return s;
  return rulesCanonicalIpv6(s) ?? s;
}

/** Canonical content text of a record type. */
export function normContent(type: string, content: string | undefined): string | undefined {
  if (content === undefined || content === null) return undefined;
  const c = String(content).trim();
  if (type === 'AAAA') return canonicalIpv6(c);
  if (type === 'A') return /(^|\.)0\d/.test(c) ? c.replace(/(^|\.)0+(\d)/g, '$1$2') : c;
  if (HOST_CONTENT.has(type)) return stripDot(c.toLowerCase());
  if (type === 'TXT' && /^"[^"]*"$/.test(c)) return c.slice(1, -1);
  return c;
}

/**
 * Whether the file's content is, once normalised, the live record's normalised value. Equal text is
 * enough without normalising (most files spell content as the API does), because normContent gives
 * back its own output unchanged, with two exceptions, both rare and both sent the long way: a value
 * with white space at either end (trimming comes before unquoting a TXT value or dropping a host
 * name's dot, so `" hi"` normalises to ` hi`, which normalises to `hi`), and a host name still
 * ending in a dot (it had two, and one is stripped a time).
 */
export function contentMatches(type: string, content: string | undefined, liveValue: string): boolean {
  if (content === liveValue && isOwnNormalForm(liveValue)) return true;
  return normDesiredContent(type, content, undefined) === liveValue;
}

/**
 * A file's content in the form the API stores it (the shared rules, src/rules/dns/normal-form.ts),
 * then the comparison form normContent gives both sides: whatever spelling the file uses, the
 * planner expects what the read-back will show.
 */
export function normDesiredContent(
  type: string,
  content: string | undefined,
  priority: unknown,
): string | undefined {
  if (content === undefined || content === null) return undefined;
  const stored = canonicalValue(type, { content, priority });
  return normContent(type, stored ? stored.content : content);
}

/**
 * Structured data in the stored form (hex and CAA tags lower case, digit strings as numbers, host
 * names without the dot, base64 without blanks), from `data` or parsed from `content`; undefined
 * when the rules refuse it (the validator said why) so the caller keeps the raw form.
 */
function storedData(type: string, input: { content?: unknown; data?: unknown; priority?: unknown }) {
  return canonicalValue(type, input)?.data;
}

function isOwnNormalForm(value: string): boolean {
  if (value === '') return true;
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  // 32 and below: space and the control characters; 160 and up may be Unicode white space
  return first > 32 && first < 160 && last > 32 && last < 160 && last !== 46; // 46 is '.'
}

export { canonicalJson };

/** The value identity of a record: data when the file or API uses data, else content. */
export function valueOf(r: { type: string; content?: string; data?: Record<string, unknown> }): string {
  return r.data ? canonicalJson(r.data) : (r.content ?? '');
}

const KNOWN_TYPES = new Set<unknown>(RECORD_TYPES);

/**
 * The upper-case type. The API already sends it so, and a set lookup is several times cheaper than
 * toUpperCase (a runtime call in V8), which would otherwise run twice per record of every read.
 */
export function upperType(type: unknown): string {
  return KNOWN_TYPES.has(type) ? (type as string) : String(type ?? '').toUpperCase();
}

/** A desired record, normalised for comparison; comment/tags only when the file sets them. */
export function normDesired(r: DesiredRecord, zone: string): NormRecord {
  const type = upperType(r.type);
  const proxied = r.proxied === true;
  const out: NormRecord = {
    name: fqdn(r.name, zone),
    type,
    ttl: proxied || r.ttl === undefined ? 1 : r.ttl,
    proxied,
  };
  const data = hasData(type)
    ? storedData(type, { content: r.content, data: r.data, priority: r.priority })
    : undefined;
  if (data) out.data = normData(data);
  else if (r.data) out.data = normData(r.data);
  else out.content = normDesiredContent(type, r.content, r.priority);
  // an SRV priority given beside its data is stored inside it (and compared there)
  if (r.priority !== undefined && !(data && !PRIORITY_BESIDE_DATA.has(type))) out.priority = r.priority;
  // the shared fields (the record model's), each only when the file sets it
  const given = r as unknown as Record<string, unknown>;
  const norm = out as unknown as Record<string, unknown>;
  for (const field of MANAGED_FIELDS) {
    if (given[field.name] !== undefined) norm[field.name] = desiredForm(field, given[field.name]);
  }
  return out;
}

/** Records the service manages itself: never planned, purged or shown as drift. */
export function isServiceManaged(raw: Record<string, unknown>, zone: string): boolean {
  const meta = raw.meta as Record<string, unknown> | undefined;
  if (
    meta &&
    (meta.auto_added === true || meta.managed_by_apps === true || meta.managed_by_argo_tunnel === true)
  ) {
    return true;
  }
  if (raw.locked === true) return true;
  // no SOA here: the real record list never holds one (it is zone DNS settings)
  const type = upperType(raw.type);
  return type === 'NS' && fqdn(String(raw.name ?? ''), zone) === stripDot(zone.toLowerCase());
}

/** A record as the API returns it, normalised; comment and tags always present (null / []). */
export function normLive(raw: Record<string, unknown>, zone: string): LiveRecord {
  const type = upperType(raw.type);
  const proxied = raw.proxied === true;
  const data = hasKeys(raw.data)
    ? normData(storedData(type, { data: raw.data, priority: raw.priority }) ?? raw.data)
    : undefined;
  const content = data ? undefined : normContent(type, raw.content as string | undefined);
  // every field in the same order on every record: one object shape for the whole zone
  const rec: LiveRecord = {
    id: String(raw.id),
    name: fqdn(String(raw.name), zone),
    type,
    content,
    data,
    ttl: proxied ? 1 : Number(raw.ttl ?? 1),
    proxied,
    priority:
      typeof raw.priority === 'number' && (!data || PRIORITY_BESIDE_DATA.has(type))
        ? raw.priority
        : undefined,
    value: data ? canonicalJson(data) : (content ?? ''),
  };
  // the shared fields, always present (a note null, tags [], settings undefined when empty): the
  // same fields in the same order on every record
  const fields = rec as unknown as Record<string, unknown>;
  for (let i = 0; i < LIVE_FORMS.length; i++) {
    const { name, form } = LIVE_FORMS[i]!;
    fields[name] = form(raw[name]);
  }
  return rec;
}
