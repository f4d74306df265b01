/**
 * Generated DNS record entries for the differential tests of the fast DNS checks (the export's,
 * test/export/dns-check.test.ts, and validate's, test/kinds/dns/validate-certify.test.ts): plain
 * records, biased to the edges of every rule (names, addresses, provider ranges, TTLs, tags) and
 * beyond them, and zones whose records meet (duplicates, CNAMEs beside others, proxied chains).
 */

import { seededRandom } from '../../src/seeded-random.js';

export type Entry = Record<string, unknown>;

/** The seeded generator with pick and chance, so a failure is reproducible from its seed */
export function rng(seed: number) {
  const next = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  return { next, pick, chance: (p: number) => next() < p };
}
export type Rng = ReturnType<typeof rng>;

export const ZONES = ['unit.example', 'Mixed.Example', 'a.b-c.example', 'xn--bcher-kva.example'];
export const NAMES = ['@', 'www', 'api', 'h1', 'a.b', '_dmarc', '_sip._tcp', '*', '*.w', 'mail', 'x-y', 'z_'];
const ODD_NAMES = [
  '',
  ' ',
  '-bad',
  'bad-',
  'Upper',
  'sp ace',
  'a..b',
  'a.',
  'x.@',
  'a*b',
  '*.*',
  'w.*',
  '1abc',
  '9',
  'other.example.',
  'l'.repeat(63),
  'l'.repeat(64),
  `${'abcdefghi.'.repeat(25)}x`,
  `${'abcdefghi.'.repeat(24)}abcd`,
  'é',
  5,
  null,
];
const TYPES = ['A', 'AAAA', 'CNAME', 'TXT', 'MX', 'NS', 'PTR'];
const ODD_TYPES = ['SRV', 'CAA', 'HTTPS', 'LOC', 'cname', 'SOA', 'SPF', 'DS', 'URI', '', 7];
const A = ['192.0.2.1', '198.51.100.7', '8.8.8.8', '0.0.0.0', '255.255.255.255', '10.1.2.3', '127.0.0.1'];
const ODD_A = [
  '104.16.0.1',
  '172.64.3.4',
  '131.0.75.1',
  '01.2.3.4',
  '256.1.1.1',
  ' 1.2.3.4',
  '1.2.3',
  '1.2.3.4.5',
];
const AAAA = [
  '2001:db8::1',
  '2001:db8::1:abc',
  '2001:db8:1:2:3:4:5:6',
  '1:0:2:0:3:0:4:0',
  '2a00::',
  'fe80::1',
];
const ODD_AAAA = [
  '2001:DB8::1',
  '2001:db8:0:0:1::1',
  '2001:db8::0:1',
  '1:0:0:2:3:4:5:6',
  '1::2:3:4:5:6:7',
  '::1',
  '::',
  '::ffff:104.16.0.1',
  '::ffff:6810:1',
  '::ffff:c000:201',
  '2606:4700::1',
  '2a06:98c7::1',
  '2a06:98c8::1',
  'fc00::1',
  'fd12:3456::1',
  '2001:0db8::1',
  'gggg::1',
  '1.2.3.4',
  '2001:db8::1.2.3.4',
];
const HOSTS = ['target.example.net', 'mx.example.com', 'unit.example', 'example'];
const ODD_HOSTS = ['Target.Example.Net.', '1.2.3.4', 'a..b', '-x.example', '_x.example', ' t.example ', '.'];
const TXT = ['hello', '"quoted"', 'v=spf1 -all', '${env:HOME}', 'a: b # c', 'é'];
const ODD_TXT = ['x'.repeat(2048), 'x'.repeat(2049), '  ', '', 'é'.repeat(2049)];

/** `odd`: how often a value is taken from the edges and beyond (zones differ in it) */
function content(r: Rng, type: string, names: string[], odd: number): unknown {
  if (r.chance(odd / 6)) return r.pick([undefined, null, 5, '', ' ']);
  const edge = r.chance(odd);
  switch (type) {
    case 'A':
      return r.pick(edge ? ODD_A : A);
    case 'AAAA':
      return r.pick(edge ? ODD_AAAA : AAAA);
    case 'TXT':
    case 'SPF':
      return r.pick(edge ? ODD_TXT : TXT);
    default: {
      // in-zone targets make CNAME chains, loops and self references
      if (r.chance(0.4)) return r.pick(names).replace('@', 'unit.example');
      return r.pick(edge ? ODD_HOSTS : HOSTS);
    }
  }
}

const DATA = [
  { priority: 1, weight: 2, port: 3, target: 'sip.example.com' },
  { flags: 0, tag: 'issue', value: 'ca.example' },
  { priority: 1, target: '.', value: 'alpn="h2"' },
  { weight: 1, target: 'https://x' },
  { key_tag: 1, algorithm: 8, digest_type: 2, digest: 'abcd' },
  { bad: 1 },
];

export function entry(r: Rng, zone: string, names: string[], odd: number): Entry {
  const type = r.chance(1 - odd / 3) ? r.pick(TYPES) : r.pick(ODD_TYPES);
  let name: unknown = r.chance(1 - odd / 3) ? r.pick(names) : r.pick(ODD_NAMES);
  if (r.chance(0.05) && typeof name === 'string') name = `${name}.${zone.toLowerCase()}`;
  const e: Entry = { name, type };
  if (r.chance(0.3) && ['SRV', 'CAA', 'HTTPS', 'URI', 'DS'].includes(String(type))) e.data = r.pick(DATA);
  else e.content = content(r, String(type), names, odd);
  if (type === 'MX' || r.chance(odd)) {
    const p = r.chance(odd) ? r.pick([65536, -1, 1.5, '10', undefined]) : r.pick([10, 0, 65535]);
    if (p !== undefined || r.chance(0.5)) e.priority = p;
  }
  const ttls = r.chance(odd)
    ? [30, 59, 86400, 86401, 0, 29, 1.5, '300', null, undefined]
    : ['auto', 1, 300, 3600];
  e.ttl = r.pick(ttls);
  if (r.chance(0.3))
    e.proxied = r.chance(1 - odd / 3) ? r.pick([true, true, false]) : r.pick([null, 'yes', 1]);
  if (r.chance(0.15))
    e.comment = r.chance(odd)
      ? r.pick(['x'.repeat(501), '😀'.repeat(300), 5, undefined])
      : r.pick([null, '', 'a note', 'x'.repeat(500)]);
  if (r.chance(0.15))
    e.tags = r.chance(odd)
      ? r.pick([['a', 'a'], ['bad tag'], ['x:y\nz'], [5], 'str', [' a'], null])
      : r.pick([[], ['a:b'], ['a', 'b:c d'], ['A:1', 'a:1'], ['team:dns', 'x']]);
  if (r.chance(0.1))
    e.settings = r.chance(odd)
      ? r.pick([{ ipv4_only: 'yes' }, { other: true }, [], null, { flatten_cname: true }])
      : r.pick([{}, { ipv4_only: true }, { ipv6_only: false }]);
  if (r.chance(odd / 10)) e[r.pick(['path', 'extra', 'data'])] = r.pick(['x', 1, undefined]);
  return e;
}

export function zoneRecords(r: Rng, zone: string): Entry[] {
  const odd = r.pick([0, 0.02, 0.1, 0.3]);
  // a small pool of names, so that records meet: duplicates, CNAMEs beside others, chains
  const names = Array.from({ length: 1 + Math.floor(r.next() * 8) }, () => r.pick(NAMES));
  return Array.from({ length: Math.floor(r.next() * 30) }, () => entry(r, zone, names, odd));
}
