/**
 * Record names: normalisation to the full lower-case name the API stores and back to the relative
 * form a desired-state file uses, and the spec's name rules.
 */
import { typesWhere } from './model.js';
import { withArticle } from './types.js';
import { CODES, dnsError, type Violation } from './violation.js';

/** The longest full name (docs/reference/api-facts.md: `name` max 255). */
export const MAX_NAME_LENGTH = 255;
export const MAX_LABEL_LENGTH = 63;

// The rules normalise the zone's name several times per record, and a zone's records come one after
// another: the last answer is kept.
let lastZoneIn: string | undefined;
let lastZoneOut = '';

/** Lower case, trimmed, without the trailing dot of an absolute name. */
export function normaliseZoneName(zone: string): string {
  if (zone !== lastZoneIn) {
    lastZoneOut = zone.trim().toLowerCase().replace(/\.$/, '');
    lastZoneIn = zone;
  }
  return lastZoneOut;
}

/**
 * The full lower-case name for `name` in `zone`: `@` and the empty name are the apex; a name that
 * already ends in the zone is kept; any other name is relative and gets the zone appended.
 * Returns null for an absolute name (trailing dot) outside the zone, which cannot be stored.
 */
export function fullName(name: string, zone: string): string | null {
  const z = normaliseZoneName(zone);
  let n = name.trim().toLowerCase();
  if (n === '@' || n === '' || n === '.') return z;
  const absolute = n.endsWith('.');
  if (absolute) n = n.slice(0, -1);
  if (n === z || n.endsWith('.' + z)) return n;
  if (n.endsWith('.@')) return n.slice(0, -2) + '.' + z;
  if (absolute) return null;
  return n + '.' + z;
}

// relativeName runs once per record of a zone (export, ignore patterns): the zone's normal forms
// are kept from one call to the next
let lastZone: string | undefined;
let lastZ = '';
let lastDotZ = '';

/** The name relative to the zone (`@` for the apex); names outside the zone come back as they are. */
export function relativeName(full: string, zone: string): string {
  if (zone !== lastZone) {
    lastZone = zone;
    lastZ = normaliseZoneName(zone);
    lastDotZ = '.' + lastZ;
  }
  let n = full.trim().toLowerCase();
  if (n.endsWith('.')) n = n.slice(0, -1);
  if (n === lastZ) return '@';
  if (n.endsWith(lastDotZ)) return n.slice(0, -lastDotZ.length);
  return n;
}

/** Whether a full name is the zone or inside it. */
export function isInZone(full: string, zone: string): boolean {
  const z = normaliseZoneName(zone);
  const n = full.toLowerCase().replace(/\.$/, '');
  return n === z || n.endsWith('.' + z);
}

// A, AAAA, CNAME labels: a letter first (an underscore is accepted), a letter or digit last,
// letters, digits, hyphens and underscores between.
const HOST_LABEL = /^[a-z_]([a-z0-9_-]*[a-z0-9])?$/i;
// Other types: any label of letters, digits, hyphens and underscores (`_sip`, `_tcp`, `_dmarc`, `1`).
const ANY_LABEL = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?$/i;

/** Types whose names follow the host-name rules of the spec: the proxiable ones (./model.ts). */
export const HOST_NAMED_TYPES = typesWhere((m) => m.proxiable === true);

/**
 * Checks a full record name for a record type. The zone's own labels are not judged (a zone may be
 * `1password.com`); the labels the record adds are, with the spec's host rules for A/AAAA/CNAME.
 */
export function checkRecordName(full: string, type: string, zone: string): Violation | null {
  const z = normaliseZoneName(zone);
  if (full.length > MAX_NAME_LENGTH) {
    return dnsError(CODES.badName, `The name ${full} is longer than ${MAX_NAME_LENGTH} characters.`);
  }
  if (!isInZone(full, z)) return dnsError(CODES.badName, `The name ${full} is not inside the zone ${z}.`);
  const labels = full === z ? [] : full.slice(0, -(z.length + 1)).split('.');
  if (
    type.toUpperCase() === 'SRV' &&
    !(labels.length >= 2 && labels[0].startsWith('_') && labels[1].startsWith('_'))
  ) {
    return dnsError(
      CODES.badName,
      `An SRV record name must be _service._proto[.name], such as _sip._tcp (got ${full}).`,
    );
  }
  if (full === z) return null;
  const hostRules = HOST_NAMED_TYPES.has(type.toUpperCase());
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i];
    if (label === '*' && i === 0) continue;
    if (label.length === 0) return dnsError(CODES.badName, `The name ${full} has an empty label.`);
    if (label.length > MAX_LABEL_LENGTH) {
      return dnsError(
        CODES.badName,
        `The label "${label.slice(0, 20)}..." of ${full} is ${label.length} characters long; at most ${MAX_LABEL_LENGTH} are allowed.`,
      );
    }
    if (label.includes('*')) {
      return dnsError(
        CODES.badName,
        `The name ${full}: a wildcard "*" is allowed only as the whole leftmost label.`,
      );
    }
    if (hostRules && !HOST_LABEL.test(label)) {
      return dnsError(
        CODES.badName,
        `The name ${full} is not valid for ${withArticle(type.toUpperCase())} record: the label "${label}" must start with a letter, end with a letter or digit, and contain only letters, digits, hyphens or underscores.`,
      );
    }
    if (!hostRules && !ANY_LABEL.test(label)) {
      return dnsError(
        CODES.badName,
        `The name ${full} is not a valid DNS name: the label "${label}" may contain only letters, digits, hyphens and underscores.`,
      );
    }
  }
  return null;
}

/**
 * Whether text is a host name as record content (CNAME, MX, NS, PTR and data targets): labels of
 * letters, digits, hyphens and underscores, each at most 63, the whole at most 255, an optional
 * trailing dot. IDNs must be sent as punycode, as the real API requires. The last label may not be
 * all digits: no top-level domain is, and `192.0.2.1` is an address, which these record types
 * cannot hold (an MX or CNAME must name a host, RFC 1123 2.1).
 */
export function isHostname(text: string): boolean {
  const t = text.endsWith('.') ? text.slice(0, -1) : text;
  if (t.length === 0 || t.length > MAX_NAME_LENGTH) return false;
  const labels = t.split('.');
  if (/^[0-9]+$/.test(labels[labels.length - 1])) return false;
  return labels.every((l) => l.length > 0 && l.length <= MAX_LABEL_LENGTH && ANY_LABEL.test(l));
}

/** Host name content in the stored form: lower case, no trailing dot. */
export function normaliseHostname(text: string): string {
  return text.trim().toLowerCase().replace(/\.$/, '');
}
