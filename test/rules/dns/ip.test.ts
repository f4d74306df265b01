/**
 * The IPv6 reader of the DNS rules (a character loop: it runs for every AAAA record of a file)
 * agrees with the WHATWG URL parser, whose IPv6 form is the RFC 5952 one, on generated addresses
 * written every way (compressed or not, leading zeros, upper case) and on broken ones; and one
 * parse of an address gives what the separate checks give.
 */
import { describe, expect, it } from 'vitest';
import { canonicalIpv6, isNonRoutable, parseAddress, providerRangeOf } from '../../../src/rules/dns/ip.js';

/** A small deterministic generator (the same cases every run). */
function random(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s % n;
  };
}

/** The URL parser's canonical form, or null when it refuses the text as an IPv6 address. */
function viaUrl(text: string): string | null {
  if (!/^[0-9a-fA-F:]+$/.test(text)) return null;
  try {
    return new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
}

function writtenSomeWay(next: (n: number) => number): string {
  const groups = Array.from({ length: 8 }, () => [0, 0, 1, 0xffff, next(0x10000)][next(5)]);
  const hex = groups.map((g) => {
    let h = g.toString(16);
    if (next(4) === 0) h = h.padStart(4, '0');
    return next(3) === 0 ? h.toUpperCase() : h;
  });
  if (next(3) === 0) return hex.join(':');
  const start = next(8);
  const end = start + next(9 - start);
  return `${hex.slice(0, start).join(':')}::${hex.slice(end).join(':')}`;
}

function broken(next: (n: number) => number): string {
  const parts = ['1', 'ab', 'ffff', '12345', 'g', ':', '::', ':::', '0', ''];
  return Array.from({ length: 1 + next(9) }, () => parts[next(parts.length)]).join(next(2) ? ':' : '');
}

describe('IPv6 addresses in the DNS rules', () => {
  it('reads and writes them as the URL parser does', () => {
    const next = random(2026);
    for (let i = 0; i < 5000; i++) {
      const text = i % 3 === 0 ? broken(next) : writtenSomeWay(next);
      expect(canonicalIpv6(text), text).toBe(viaUrl(text));
    }
    for (const text of ['::', '::1', '1::', '1:2:3:4:5:6:7::', '::2:3:4:5:6:7:8', ':1::', '1:::2', '1:', ':'])
      expect(canonicalIpv6(text), text).toBe(viaUrl(text));
  });

  it('gives in one parse what the separate checks give', () => {
    const addresses = [
      '192.0.2.1',
      '10.1.2.3',
      '104.16.0.1',
      '2001:db8::1',
      '2606:4700::6810:1',
      '::ffff:104.16.0.1',
      '::ffff:10.0.0.1',
      'fe80::1',
      '::1',
    ];
    for (const text of addresses) {
      const v6 = text.includes(':');
      expect(parseAddress(text, v6), text).toEqual({
        canonical: v6 ? canonicalIpv6(text) : text,
        providerRange: providerRangeOf(text),
        nonRoutable: isNonRoutable(text),
      });
    }
    expect(parseAddress('2001:db8::1', false)).toBeNull();
    expect(parseAddress('192.0.2.1', true)).toBeNull();
  });
});
