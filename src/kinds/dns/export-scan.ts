/**
 * Character scanners for the plain forms ./certify.ts certifies without the full check: record
 * names and host names, in the lower-case form the exporter writes (addresses are read by the
 * rules' own parser, src/rules/dns/ip.ts). Each accepts only part of what the DNS rules
 * (src/rules/dns) accept, and nothing they refuse; whatever a scanner does not accept goes to the
 * rules' own functions. One pass over the characters, no regular expression and no allocation: a
 * zone of 10,000 records has some 20,000 such strings, and a regular expression costs several
 * times a scan. test/export/dns-check.test.ts compares the verdicts with the rules'.
 */

const isDigit = (c: number) => c >= 48 && c <= 57; // 0-9
const isLower = (c: number) => c >= 97 && c <= 122; // a-z
const DOT = 46;
const DASH = 45;
const UNDERSCORE = 95;

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
