/**
 * Character scanners for the plain forms ./export-check.ts certifies without the full check: record
 * names, host names, IPv4 and IPv6 addresses, in the lower-case, canonical form the exporter
 * writes. Each accepts only part of what the DNS rules (src/rules/dns) accept, and nothing they
 * refuse; whatever a scanner does not accept goes to the rules' own functions. One pass over the
 * characters, no regular expression and no allocation: a zone of 10,000 records has some 30,000
 * such strings, and a regular expression costs several times a scan. test/export/dns-check.test.ts
 * compares the verdicts with the rules'.
 */

const isDigit = (c: number) => c >= 48 && c <= 57; // 0-9
const isLower = (c: number) => c >= 97 && c <= 122; // a-z
const DOT = 46;
const DASH = 45;
const UNDERSCORE = 95;
const COLON = 58;

/**
 * Whether `labels` (the labels a record name adds to its zone's, `www` or `_sip._tcp`) pass the
 * rules' label checks (checkRecordName): lower case, 1-63 characters, letters, digits, `-` and `_`;
 * for A, AAAA and CNAME (`host`) a letter or `_` first and a letter or digit last, else no `-` at
 * either end; `*` only as the whole first label.
 */
export function plainLabels(labels: string, host: boolean): boolean {
  let start = 0;
  if (labels.charCodeAt(0) === 42) {
    if (labels.length === 1) return true;
    if (labels.charCodeAt(1) !== DOT) return false;
    start = 2;
  }
  if (start >= labels.length) return false;
  let labelStart = start;
  let last = 0;
  for (let i = start; i <= labels.length; i++) {
    const c = i < labels.length ? labels.charCodeAt(i) : DOT;
    if (c === DOT) {
      const length = i - labelStart;
      if (length === 0 || length > 63) return false;
      // the last character (of a label longer than one: a one-character label has only a first)
      const lastFine = isLower(last) || isDigit(last) || (!host && last === UNDERSCORE);
      if (length > 1 && !lastFine) return false;
      labelStart = i + 1;
      continue;
    }
    const first = i === labelStart;
    if (isDigit(c)) {
      if (first && host) return false;
    } else if (c === DASH) {
      if (first) return false;
    } else if (!isLower(c) && c !== UNDERSCORE) return false;
    last = c;
  }
  return true;
}

/**
 * Whether `text` is a host name by the rules' isHostname and already in its stored form (lower
 * case, no final dot, no blanks), so that the stored content is `text` itself.
 */
export function plainHostname(text: string): boolean {
  if (text.length === 0 || text.length > 255) return false;
  let labelStart = 0;
  let digitsOnly = true;
  let last = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : DOT;
    if (c === DOT) {
      const length = i - labelStart;
      if (length === 0 || length > 63 || last === DASH) return false;
      // no top-level label is all digits (`192.0.2.1` is an address)
      if (i === text.length && digitsOnly) return false;
      labelStart = i + 1;
      digitsOnly = true;
      continue;
    }
    if (isDigit(c)) last = c;
    else if (isLower(c) || c === UNDERSCORE || (c === DASH && i > labelStart)) {
      digitsOnly = false;
      last = c;
    } else return false;
  }
  return true;
}

/** The value of a dotted quad in canonical form (0-255 each, no leading zeros), or -1. */
export function ipv4Value(text: string): number {
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === DOT) {
      if (digits === 0 || dots === 3) return -1;
      value = value * 256 + part;
      // (two assignments, not `[part, digits] = [0, 0]`: destructuring an array literal is an
      // iterator walk until V8 optimises the loop, and this runs for every address of a file)
      part = 0;
      digits = 0;
      dots++;
    } else if (isDigit(c)) {
      if (digits > 0 && part === 0) return -1; // a leading zero
      part = part * 10 + (c - 48);
      if (part > 255) return -1;
      digits++;
    } else return -1;
  }
  return digits === 0 || dots !== 3 ? -1 : value * 256 + part;
}

/** A lower-case hexadecimal digit's value, or -1. */
function hex(c: number): number {
  if (isDigit(c)) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/**
 * The top 32 bits of an IPv6 address written in the canonical form (RFC 5952, as the rules store
 * it), or -1 when `text` is not in one of the two canonical shapes scanned here: eight groups with
 * no two zero groups side by side, or `::` (not first) with at most six groups, none of them zero.
 * An address starting with `::` (IPv4-mapped ones among them, which the rules look up as IPv4)
 * gets -1.
 */
export function ipv6Top(text: string): number {
  if (text.length < 3 || text.length > 39 || text.charCodeAt(0) === COLON) return -1;
  let i = 0;
  let groups = 0;
  let compressed = false;
  let zeroBefore = false; // a zero group written out before any `::`
  let previousZero = false;
  let g0 = 0;
  let g1 = 0;
  for (;;) {
    const start = i;
    let value = 0;
    // (no read past the end: V8's optimised code gives way on the first such read)
    for (let d = hex(text.charCodeAt(i)); d >= 0 && i - start < 5;) {
      value = value * 16 + d;
      d = ++i < text.length ? hex(text.charCodeAt(i)) : -1;
    }
    const length = i - start;
    if (length === 0 || length > 4 || (length > 1 && text.charCodeAt(start) === 48)) return -1;
    if (value === 0) {
      if (compressed || previousZero) return -1;
      zeroBefore = true;
    }
    previousZero = value === 0;
    if (groups === 0) g0 = value;
    else if (groups === 1 && !compressed) g1 = value;
    groups++;
    if (i === text.length) break;
    if (text.charCodeAt(i++) !== COLON || i === text.length) return -1;
    if (text.charCodeAt(i) === COLON) {
      if (compressed || zeroBefore) return -1;
      compressed = true;
      if (++i === text.length) break;
    }
  }
  if (compressed ? groups > 6 : groups !== 8) return -1;
  return g0 * 65536 + g1;
}
