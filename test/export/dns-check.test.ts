/**
 * The export's fast DNS check (src/kinds/dns/export-check.ts) must say exactly what the full check
 * (`zoneplan validate`'s schema and rules) says: the same problems at the same paths with the same
 * messages. Generated zones, biased to the edges of every rule (names, addresses, provider ranges,
 * TTLs, tags, duplicates, CNAME conflicts, proxied chains) and to records the fast path must hand
 * to the full check, are checked both ways.
 */
import { describe, expect, it } from 'vitest';
import { checkKindValue, checkKindValueFully } from '../../src/config/check-value.js';
import { checkDnsRecords } from '../../src/kinds/dns/export-check.js';
import { certify, fullNameOf, zoneOf } from '../../src/kinds/dns/certify.js';
import { NAMES, ZONES, entry, rng, zoneRecords, type Entry } from '../support/dns-entries.js';
import { normContent } from '../../src/kinds/dns/normalize.js';
import {
  PROVIDER_IPV4_CIDRS,
  PROVIDER_IPV6_CIDRS,
  checkRecord,
  formatIpv4,
  formatIpv6,
  parseIpv4,
  parseIpv6,
} from '../../src/rules/dns/index.js';

/** more zones for a longer search: DNS_CHECK_RUNS=30000 npx vitest run test/export/dns-check.test.ts */
const RUNS = Number(process.env.DNS_CHECK_RUNS ?? 1500);

const sorted = (ps: { path: string; message: string }[]) =>
  ps.map((p) => `${p.path}\u0000${p.message}`).sort();

describe('the fast DNS check', () => {
  it('finds exactly the problems of the full check, on generated zones', () => {
    let decided = 0;
    let certified = 0;
    let total = 0;
    for (let seed = 1; seed <= RUNS; seed++) {
      const r = rng(seed);
      const zone = r.pick(ZONES);
      const owner = { name: zone };
      // half the zones sorted by name, as an export lists them (a name's records side by side)
      const records = zoneRecords(r, zone);
      if (seed % 2 === 0) records.sort((a, b) => (String(a.name) < String(b.name) ? -1 : 1));
      const full = (v: unknown) => checkKindValueFully('zone', owner, 'dns', v);
      const expected = full({ records });
      const fast = checkDnsRecords(owner, { records }, full);
      if (fast) decided++;
      expect({ seed, problems: sorted(fast ?? expected) }).toEqual({ seed, problems: sorted(expected) });
      expect(sorted(checkKindValue('zone', owner, 'dns', { records }))).toEqual(sorted(expected));
      for (const [i, e] of records.entries()) {
        total++;
        if (certify(e, zoneOf(zone), i)) certified++;
      }
    }
    // the comparison means something only if the fast path decides most zones itself
    expect(decided / RUNS).toBeGreaterThan(0.65);
    expect(certified / total).toBeGreaterThan(0.5);
  });

  it('certifies a record only when the full check accepts it alone, normalised as the rules do', () => {
    for (let seed = 1; seed <= RUNS * 3; seed++) {
      const r = rng(seed * 7919);
      const zone = r.pick(ZONES);
      const e = entry(r, zone, NAMES, r.pick([0, 0.1, 0.3, 0.6]));
      const c = certify(e, zoneOf(zone), 0);
      if (!c) continue;
      // alone, a proxied CNAME to an in-zone name fails the chain rule: a rule across records
      const problems = checkKindValueFully('zone', { name: zone }, 'dns', { records: [e] }).filter(
        (p) => !p.message.startsWith('The proxied CNAME'),
      );
      expect({ seed, e, problems }).toEqual({ seed, e, problems: [] });
      const result = checkRecord(
        { ...e, ttl: e.ttl === 'auto' ? 1 : e.ttl },
        { name: zone, plan: 'enterprise' },
      );
      if (!('record' in result)) throw new Error(`seed ${seed}: the rules refuse a certified record`);
      const n = result.record;
      // the key (the labels before the zone's) names the same name
      expect(fullNameOf(c.key, zoneOf(zone))).toBe(n.name);
      expect(c).toEqual({
        index: 0,
        key: c.key,
        type: n.type,
        target: n.content,
        proxied: n.proxied,
        identity: normContent(n.type, n.content) ?? '',
      });
    }
  });

  it('decides a zone of exported records itself, and leaves an owner with problems to the full check', () => {
    const zone = 'unit.example';
    const records: Entry[] = [];
    for (let i = 0; i < 400; i++) {
      records.push(
        [
          { name: `h${i}`, type: 'A', content: `198.51.100.${(i % 250) + 1}`, ttl: 300 },
          {
            name: `h${i}`,
            type: 'AAAA',
            content: `2001:db8::${i.toString(16)}:1`,
            ttl: 'auto',
            proxied: true,
          },
          { name: `t${i}`, type: 'TXT', content: `record ${i}`, ttl: 3600, comment: 'c', tags: ['team:dns'] },
          { name: `c${i}`, type: 'CNAME', content: `h${i - 3}.${zone}`, ttl: 'auto', proxied: true },
          { name: '@', type: 'MX', content: `mx${i}.example.net`, priority: 10, ttl: 'auto' },
        ][i % 5],
      );
    }
    const zoneForms = zoneOf(zone);
    expect(records.every((e, i) => certify(e, zoneForms, i))).toBe(true);
    const full = (v: unknown) => checkKindValueFully('zone', { name: zone }, 'dns', v);
    expect(checkDnsRecords({ name: zone }, { records }, full)).toEqual([]);
    expect(checkDnsRecords({ name: zone }, { records, purge: true }, full)).toBeUndefined();
  });

  it('says what the full check says of the zone entry beside the records', () => {
    const r = rng(99);
    const names = [
      'unit.example',
      'Unit.Example.',
      'not a zone',
      'x',
      'a.b-c.example',
      '-a.example',
      '',
      5,
      'é.example',
    ];
    const accounts = [undefined, 'ab'.repeat(16), 'AB'.repeat(16), 'ab', 7, null];
    const types = [undefined, 'full', 'partial', 'secondary', 'other', 1];
    for (let i = 0; i < 300; i++) {
      const owner: Entry = { name: r.pick(names) };
      const account = r.pick(accounts);
      const type = r.pick(types);
      if (account !== undefined || r.chance(0.1)) owner.account = account;
      if (type !== undefined || r.chance(0.1)) owner.type = type;
      if (r.chance(0.1)) owner[r.pick(['delete', 'extra', 'dns'])] = r.pick([true, 'x', {}]);
      if (r.chance(0.05)) delete owner.name;
      // records with a problem of their own (a CNAME beside an A), which an owner's problems hide
      const records = [
        { name: 'www', type: 'A', content: '192.0.2.1', ttl: 'auto' },
        { name: 'www', type: 'CNAME', content: 'x.example' },
      ];
      const value = { records: r.chance(0.5) ? records : records.slice(0, 1) };
      const expected = sorted(checkKindValueFully('zone', owner, 'dns', value));
      expect({ owner, problems: sorted(checkKindValue('zone', owner, 'dns', value)) }).toEqual({
        owner,
        problems: expected,
      });
    }
  });

  it('certifies an address only when the rules accept it: provider ranges, private ones, spellings', () => {
    const zone = 'unit.example';
    const zoneForms = zoneOf(zone);
    const full = (e: Entry) => checkKindValueFully('zone', { name: zone }, 'dns', { records: [e] });
    const r = rng(42);
    const bits = (n: number) => BigInt(Math.floor(r.next() * 2 ** n));
    // addresses at random, and at the edges of each provider range (first, last, just outside)
    const near = (cidrs: readonly string[], v6: boolean) => {
      const [address, prefix] = r.pick(cidrs).split('/');
      const width = v6 ? 128n : 32n;
      const base = (v6 ? parseIpv6(address) : parseIpv4(address)) as bigint;
      const size = 1n << (width - BigInt(prefix));
      const offset = r.pick([0n, size - 1n, size, -1n, bits(v6 ? 64 : 8)]);
      const all = (1n << width) - 1n;
      return (base + offset) & all;
    };
    let certified = 0;
    for (let i = 0; i < 6000; i++) {
      const v6 = i % 2 === 1;
      const value = r.chance(0.5)
        ? near(v6 ? PROVIDER_IPV6_CIDRS : PROVIDER_IPV4_CIDRS, v6)
        : bits(v6 ? 128 : 32);
      // IPv6 with runs of zero groups, in every place, and IPv4-mapped addresses
      const masked =
        v6 && r.chance(0.5)
          ? value & ~(((1n << BigInt(16 * r.pick([1, 2, 3, 5]))) - 1n) << BigInt(16 * r.pick([0, 1, 2, 3])))
          : value;
      const mapped = v6 && r.chance(0.1) ? (0xffffn << 32n) | (masked & 0xffffffffn) : masked;
      const canonical = v6 ? formatIpv6(mapped & ((1n << 128n) - 1n)) : formatIpv4(mapped);
      // and other spellings: all eight groups (uncompressed zero runs), leading zeros
      const groups = Array.from({ length: 8 }, (_, g) =>
        ((mapped >> BigInt(112 - 16 * g)) & 0xffffn).toString(16),
      );
      const text =
        !v6 || r.chance(0.7) ? canonical : r.chance(0.5) ? groups.join(':') : `0${groups.join(':')}`;
      const e: Entry = {
        name: 'h',
        type: v6 ? 'AAAA' : 'A',
        content: r.chance(0.1) ? text.toUpperCase() : text,
        ttl: 'auto',
      };
      if (r.chance(0.5)) e.proxied = true;
      const c = certify(e, zoneForms, 0);
      if (!c) continue;
      certified++;
      expect({ e, problems: full(e) }).toEqual({ e, problems: [] });
      const stored = checkRecord({ ...e, ttl: 1 }, { name: zone, plan: 'enterprise' });
      expect({ e, target: c.target }).toEqual({
        e,
        target: 'record' in stored ? stored.record.content : '?',
      });
    }
    expect(certified).toBeGreaterThan(3000);
  });
});
