/**
 * IPv4/IPv6 parsing with canonical forms, and the provider's own address ranges. Addresses are
 * handled as bigints so one CIDR test serves both families.
 */

/** The provider's published ranges (docs/reference/api-facts.md); served by `GET /ips`. */
export const PROVIDER_IPV4_CIDRS: readonly string[] = [
  '173.245.48.0/20',
  '103.21.244.0/22',
  '103.22.200.0/22',
  '103.31.4.0/22',
  '141.101.64.0/18',
  '108.162.192.0/18',
  '190.93.240.0/20',
  '188.114.96.0/20',
  '197.234.240.0/22',
  '198.41.128.0/17',
  '162.158.0.0/15',
  '104.16.0.0/13',
  '104.24.0.0/14',
  '172.64.0.0/13',
  '131.0.72.0/22',
];

export const PROVIDER_IPV6_CIDRS: readonly string[] = [
  '2400:cb00::/32',
  '2606:4700::/32',
  '2803:f800::/32',
  '2405:b500::/32',
  '2405:8100::/32',
  '2a06:98c0::/29',
  '2c0f:f248::/32',
];

/** Parses a dotted-quad IPv4 address (no leading zeros, which are ambiguous) to a number. */
export function parseIpv4(text: string): bigint | null {
  const n = ipv4Value(text);
  return n < 0 ? null : BigInt(n);
}

/**
 * The dotted quad as a 32-bit number, or -1: four parts of `0` or 1-3 digits without a leading
 * zero, each at most 255. The one IPv4 parser (the rules, the fast checks and export): a character
 * loop that runs for every A record of a file, with the range test several times faster than
 * node:net's BlockList (docs/kinds/dns.md, "Record types").
 */
export function ipv4Value(text: string): number {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46 /* . */) {
      if (digits === 0 || dots === 3) return -1;
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      dots++;
      continue;
    }
    if (c < 48 || c > 57) return -1;
    if (digits === 1 && octet === 0) return -1; // a leading zero
    octet = octet * 10 + (c - 48);
    if (++digits > 3 || octet > 255) return -1;
  }
  if (digits === 0 || dots !== 3) return -1;
  return value * 256 + octet;
}

/** Parses an IPv6 address (with `::` and an optional embedded IPv4 tail) to a 128-bit number. */
export function parseIpv6(text: string): bigint | null {
  const groups = ipv6Groups(text);
  return groups === null ? null : groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}

const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

/**
 * The eight 16-bit groups of an IPv6 address (with `::` and an optional embedded IPv4 tail), or
 * null. Plain numbers: it runs for every AAAA record of a file, and BigInt is needed only to
 * compare with ranges.
 */
function ipv6Groups(text: string): number[] | null {
  if (text.length > 45) return null;
  return text.includes('.') ? ipv6GroupsWithIpv4(text) : hexOnlyGroups(text);
}

/** The value of a hex digit's character code, or -1. */
function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

/**
 * ipv6Groups of an address without an IPv4 tail, in one pass over its characters: groups of 1-4
 * hex digits separated by `:`, at most one `::`, eight groups in all.
 */
function hexOnlyGroups(text: string): number[] | null {
  const n = text.length;
  const groups: number[] = [];
  let gap = -1; // where the `::` stands among the groups
  let i = 0;
  if (text.charCodeAt(0) === 0x3a) {
    if (text.charCodeAt(1) !== 0x3a) return null;
    gap = 0;
    i = 2;
  }
  while (i < n) {
    let value = 0;
    let digits = 0;
    for (let h = hexValue(text.charCodeAt(i)); h >= 0 && i < n; h = hexValue(text.charCodeAt(i))) {
      if (++digits > 4) return null;
      value = value * 16 + h;
      i++;
    }
    if (digits === 0) return null;
    groups.push(value);
    if (i === n) break;
    if (text.charCodeAt(i) !== 0x3a) return null;
    i++;
    if (text.charCodeAt(i) === 0x3a) {
      if (gap >= 0) return null;
      gap = groups.length;
      i++;
    } else if (i === n) return null; // a single `:` at the end
  }
  if (gap < 0) return groups.length === 8 ? groups : null;
  const missing = 8 - groups.length;
  if (missing < 1) return null;
  groups.splice(gap, 0, ...new Array<number>(missing).fill(0));
  return groups;
}

/** ipv6Groups of an address with an IPv4 tail (`::ffff:192.0.2.1`). */
function ipv6GroupsWithIpv4(text: string): number[] | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return null;
  let head = text;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const v4 = ipv4Value(text.slice(lastColon + 1));
  if (v4 < 0) return null;
  tail = [Math.floor(v4 / 0x10000), v4 % 0x10000];
  head = text.slice(0, lastColon + 1);
  // "::1.2.3.4" leaves "::", "a::1.2.3.4" leaves "a::", "a:b:1.2.3.4" leaves "a:b:"
  if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  const halves = head.split('::');
  if (halves.length > 2) return null;
  const hexGroups = (s: string): number[] | null => {
    if (s === '') return [];
    const out: number[] = [];
    for (const g of s.split(':')) {
      if (!HEX_GROUP.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const left = hexGroups(halves[0]);
  if (left === null) return null;
  let groups: number[];
  if (halves.length === 2) {
    const right = hexGroups(halves[1]);
    if (right === null) return null;
    const missing = 8 - left.length - right.length - tail.length;
    if (missing < 1) return null;
    groups = [...left, ...new Array<number>(missing).fill(0), ...right, ...tail];
  } else {
    groups = [...left, ...tail];
  }
  return groups.length === 8 ? groups : null;
}

export function formatIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join('.');
}

/** RFC 5952 form: lower case, no leading zeros, the longest run (2+) of zero groups as `::`. */
export function formatIpv6(value: bigint): string {
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((value >> BigInt(i * 16)) & 0xffffn));
  return formatGroups(groups);
}

function formatGroups(groups: number[]): string {
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return hex.slice(0, bestStart).join(':') + '::' + hex.slice(bestStart + bestLen).join(':');
}

/**
 * The canonical text of an IPv4 address, or null when it is not one. A dotted quad that parses is
 * already canonical (no leading zeros, no other spelling), so it is its own canonical text.
 */
export function canonicalIpv4(text: string): string | null {
  const t = text.trim();
  return ipv4Value(t) < 0 ? null : t;
}

/** The canonical (RFC 5952) text of an IPv6 address, or null when it is not one. */
export function canonicalIpv6(text: string): string | null {
  const groups = ipv6Groups(text.trim());
  return groups === null ? null : formatGroups(groups);
}

interface Cidr {
  text: string;
  base: bigint;
  mask: bigint;
}

function parseCidr(text: string, v6: boolean): Cidr {
  const [addr, bits] = text.split('/');
  const width = v6 ? 128n : 32n;
  const base = (v6 ? parseIpv6(addr) : parseIpv4(addr)) as bigint;
  const all = (1n << width) - 1n;
  const mask = (all << (width - BigInt(Number(bits)))) & all;
  return { text, base: base & mask, mask };
}

/**
 * A range as plain numbers, for the checks that run for every A and AAAA record of a file: the base
 * and mask of each 16-bit group (two for IPv4, eight for IPv6), so no BigInt is made per address.
 */
interface GroupRange {
  text: string;
  base: number[];
  mask: number[];
}

function groupRange(text: string, v6: boolean): GroupRange {
  const { base, mask } = parseCidr(text, v6);
  const count = v6 ? 8 : 2;
  const groupsOf = (value: bigint) =>
    Array.from({ length: count }, (_, i) => Number((value >> BigInt((count - 1 - i) * 16)) & 0xffffn));
  return { text, base: groupsOf(base), mask: groupsOf(mask) };
}

function inRange(groups: readonly number[], r: GroupRange): boolean {
  for (let i = 0; i < r.base.length; i++) if ((groups[i] & r.mask[i]) !== r.base[i]) return false;
  return true;
}

const V4_RANGES = PROVIDER_IPV4_CIDRS.map((c) => groupRange(c, false));
const V6_RANGES = PROVIDER_IPV6_CIDRS.map((c) => groupRange(c, true));

/** `::ffff:0:0/96`: an IPv6 address that carries an IPv4 one in its last 32 bits. */
const V4_MAPPED = parseCidr('::ffff:0:0/96', true);

/**
 * The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:104.16.0.1`), or null. Such an AAAA
 * reaches the same host as the A, so the rules about IPv4 targets must apply to it as well.
 */
export function mappedIpv4(v6: bigint): bigint | null {
  return (v6 & V4_MAPPED.mask) === V4_MAPPED.base ? v6 & 0xffffffffn : null;
}

/** The groups the range checks compare: an IPv4-mapped IPv6 address gives the IPv4 it carries. */
function rangeGroups(g: number[]): number[] {
  const mapped = g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0xffff;
  return mapped ? [g[6], g[7]] : g;
}

/**
 * An address as 16-bit groups for the range checks: two for IPv4 (an IPv4-mapped IPv6 address
 * gives the IPv4 address it carries), eight for IPv6; null when it is neither.
 */
function addressGroups(address: string): number[] | null {
  const text = address.trim();
  const v4 = ipv4Value(text);
  if (v4 >= 0) return [Math.floor(v4 / 0x10000), v4 % 0x10000];
  const g = ipv6Groups(text);
  return g === null ? null : rangeGroups(g);
}

/** An A or AAAA record's address, parsed once for every check it goes through. */
export interface ParsedAddress {
  /** the canonical text (RFC 5952 for IPv6) */
  canonical: string;
  /** the provider range (CIDR text) it is in, or null */
  providerRange: string | null;
  /** private, loopback or link-local */
  nonRoutable: boolean;
}

/** `text` (trimmed) as an IPv4 address, or with `v6` an IPv6 one; null when it is not one. */
export function parseAddress(text: string, v6: boolean): ParsedAddress | null {
  let canonical: string;
  let groups: number[];
  if (v6) {
    const g = ipv6Groups(text);
    if (g === null) return null;
    canonical = formatGroups(g);
    groups = rangeGroups(g);
  } else {
    const v4 = ipv4Value(text);
    if (v4 < 0) return null;
    canonical = text;
    groups = [Math.floor(v4 / 0x10000), v4 % 0x10000];
  }
  const family = groups.length === 2;
  return {
    canonical,
    providerRange: (family ? V4_RANGES : V6_RANGES).find((r) => inRange(groups, r))?.text ?? null,
    nonRoutable: (family ? PRIVATE_V4 : PRIVATE_V6).some((r) => inRange(groups, r)),
  };
}

/**
 * The provider range (CIDR text) containing the address, or null. Accepts either family; an
 * IPv4-mapped IPv6 address is looked up by the IPv4 address it carries.
 */
export function providerRangeOf(address: string): string | null {
  const groups = addressGroups(address);
  if (groups === null) return null;
  return (groups.length === 2 ? V4_RANGES : V6_RANGES).find((r) => inRange(groups, r))?.text ?? null;
}

const PRIVATE_V4 = [
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '0.0.0.0/8',
].map((c) => groupRange(c, false));
const PRIVATE_V6 = ['::1/128', '::/128', 'fc00::/7', 'fe80::/10'].map((c) => groupRange(c, true));

/**
 * Whether an address is private, loopback or link-local: the proxy cannot reach it, so a
 * proxied record may not point at it (the real API's 9003).
 */
export function isNonRoutable(address: string): boolean {
  const groups = addressGroups(address); // ::ffff:10.0.0.1 is 10.0.0.1
  if (groups === null) return false;
  return (groups.length === 2 ? PRIVATE_V4 : PRIVATE_V6).some((r) => inRange(groups, r));
}

/** A lower-case hexadecimal digit's value, or -1. */
function lowerHex(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/**
 * The top 32 bits of an IPv6 address already in its stored form (RFC 5952), for the fast checks'
 * range test; -1 when `text` is not in one of the two canonical shapes scanned here: eight groups
 * with no two zero groups side by side, or `::` (not first) with at most six groups, none zero.
 * An address starting with `::` (IPv4-mapped ones among them) gets -1: the rules decide those.
 */
export function canonicalIpv6Top(text: string): number {
  if (text.length < 3 || text.length > 39 || text.charCodeAt(0) === 0x3a) return -1;
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
    for (let d = lowerHex(text.charCodeAt(i)); d >= 0 && i - start < 5;) {
      value = value * 16 + d;
      d = ++i < text.length ? lowerHex(text.charCodeAt(i)) : -1;
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
    if (text.charCodeAt(i++) !== 0x3a || i === text.length) return -1;
    if (text.charCodeAt(i) === 0x3a) {
      if (compressed || zeroBefore) return -1;
      compressed = true;
      if (++i === text.length) break;
    }
  }
  if (compressed ? groups > 6 : groups !== 8) return -1;
  return g0 * 65536 + g1;
}
