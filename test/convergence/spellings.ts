/**
 * A seeded generator of DNS records of every type, each spelt in a random one of the forms the
 * validator accepts: names relative, absolute or with the trailing dot, in any letter case; hex
 * in either case; CAA tags in capitals; host names with the dot and capitals; IPv6 in any of its
 * forms; digit strings for numbers in content; blanks inside base64 and around values; tag names
 * in capitals. Deterministic: the same seed gives the same records.
 */
import { RECORD_TYPES, SERVICE_MANAGED_TYPES } from '../../src/rules/dns/index.js';
import { rng as seededRandom } from '../support/scenario.js';

type Rnd = () => number;
type Rec = Record<string, unknown>;

const pick = <T>(r: Rnd, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: Rnd, max: number) => Math.floor(r() * (max + 1));
const hex = (r: Rnd, n: number) => Array.from({ length: n }, () => pick(r, [...'0123456789abcdef'])).join('');
const b64 = (r: Rnd, n: number) =>
  Array.from({ length: n }, () =>
    pick(r, [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/']),
  ).join('');

/** Random letter case. */
function anyCase(r: Rnd, s: string): string {
  const mode = int(r, 2);
  if (mode === 0) return s;
  if (mode === 1) return s.toUpperCase();
  return [...s].map((c) => (r() < 0.5 ? c.toUpperCase() : c)).join('');
}

/** A name of the zone in one of its spellings. */
function spellName(r: Rnd, label: string, zone: string): string {
  const l = anyCase(r, label);
  return pick(r, [l, `${l}.${anyCase(r, zone)}`, `${l}.${anyCase(r, zone)}.`]);
}

/** A host name outside the zone, with or without the dot. */
function host(r: Rnd): string {
  const h = anyCase(
    r,
    pick(r, ['mail.example.net', 'ns1.example.org', 'target.example.com', 'sip.example.net']),
  );
  return r() < 0.5 ? h + '.' : h;
}

/** An IPv6 address in one of its spellings: full, compressed, upper case, leading zeros. */
function ipv6(r: Rnd, i: number): string {
  const groups = ['2001', '0db8', '0000', '0000', '0000', '0000', '0000', (i + 1).toString(16)];
  return pick(r, [
    groups.join(':'),
    `2001:db8::${(i + 1).toString(16)}`,
    `2001:DB8:0:0:0:0:0:${(i + 1).toString(16).toUpperCase()}`,
    `2001:0db8:0:0::${(i + 1).toString(16)}`,
  ]);
}

const pad = (r: Rnd, s: string) => (r() < 0.3 ? `  ${s} ` : s);

/** The value of one record of a type, as content or data, spelt at random. */
function value(r: Rnd, type: string, i: number): Rec {
  switch (type) {
    case 'A':
      return { content: pad(r, `192.0.2.${(i % 250) + 1}`) };
    case 'AAAA':
      return { content: pad(r, ipv6(r, i)) };
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return { content: host(r) };
    case 'MX':
      return { content: host(r), priority: int(r, 100) };
    case 'TXT':
    case 'SPF':
      return { content: pick(r, [`v=spf1 -all ${i}`, `"quoted ${i}"`, ` padded ${i} `, `Mixed Case ${i}`]) };
    case 'OPENPGPKEY': {
      const k = b64(r, 40);
      return { content: r() < 0.5 ? k : `${k.slice(0, 20)} ${k.slice(20)}` };
    }
    case 'CAA': {
      const tag = pick(r, ['issue', 'ISSUE', 'IssueWild', 'iodef']);
      const val = tag.toLowerCase() === 'iodef' ? 'mailto:sec@example.com' : `ca${i}.example.net`;
      return r() < 0.5
        ? { data: { flags: int(r, 1) * 128, tag, value: val } }
        : { content: `${int(r, 1) * 128} ${tag} "${val}"` };
    }
    case 'SRV': {
      const d = { priority: int(r, 50), weight: int(r, 50), port: 1000 + i, target: host(r) };
      return r() < 0.5 ? { data: d } : { content: `${d.weight} ${d.port} ${d.target}`, priority: d.priority };
    }
    case 'URI':
      return { data: { weight: int(r, 10), target: `https://example.com/${i}` }, priority: int(r, 10) };
    case 'SVCB':
    case 'HTTPS':
      return {
        data: { priority: 1 + int(r, 5), target: host(r), value: pick(r, ['alpn="h3,h2"', 'port=8443', '']) },
      };
    case 'DS': {
      const digest = anyCase(r, hex(r, 64));
      return r() < 0.5
        ? { data: { key_tag: 1000 + i, algorithm: 13, digest_type: 2, digest } }
        : { content: `${1000 + i} 13 2 ${digest}` };
    }
    case 'DNSKEY': {
      const k = b64(r, 44);
      return {
        data: {
          flags: 257,
          protocol: 3,
          algorithm: 13,
          public_key: r() < 0.5 ? k : `${k.slice(0, 22)} ${k.slice(22)}`,
        },
      };
    }
    case 'NAPTR':
      return {
        data: {
          order: 100,
          preference: 10 + i,
          flags: 'U',
          service: 'E2U+sip',
          regex: '!^.*$!sip:info@example.com!',
          replacement: '.',
        },
      };
    case 'SSHFP':
      return r() < 0.5
        ? { data: { algorithm: 4, type: 2, fingerprint: anyCase(r, hex(r, 64)) } }
        : { content: `4 2 ${anyCase(r, hex(r, 64))}` };
    case 'TLSA':
    case 'SMIMEA':
      return { data: { usage: 3, selector: 1, matching_type: 1, certificate: anyCase(r, hex(r, 64)) } };
    case 'CERT':
      return { data: { type: 1, key_tag: 100 + i, algorithm: 8, certificate: b64(r, 60) } };
    default:
      throw new Error(`no generator for ${type}`);
  }
}

/** Every type the validator takes (the service-managed ones it refuses). */
export const GENERATED_TYPES = RECORD_TYPES.filter((t) => !SERVICE_MANAGED_TYPES.has(t));

/** `perType` records of every type for a zone, each at its own name so no rule ties two together. */
export function generateRecords(seed: number, zone: string, perType: number): Rec[] {
  const r = seededRandom(seed);
  const out: Rec[] = [];
  let i = 0;
  for (const type of GENERATED_TYPES) {
    for (let k = 0; k < perType; k++, i++) {
      const label = type === 'SRV' ? `_s${i}._tcp` : `r${i}-${type.toLowerCase()}`;
      const rec: Rec = { name: spellName(r, label, zone), type, ...value(r, type, i) };
      if (r() < 0.3) rec.ttl = pick(r, [60, 300, 3600, 'auto']);
      if (r() < 0.3) rec.tags = [`${anyCase(r, 'env')}:Prod`, 'team:dns'];
      if (r() < 0.2) rec.comment = pick(r, ['', `note ${i}`]);
      // documentation addresses may not be proxied; a CNAME to an outside host may
      if (type === 'CNAME' && r() < 0.3) {
        rec.proxied = true;
        delete rec.ttl;
      }
      out.push(rec);
    }
  }
  return out;
}
