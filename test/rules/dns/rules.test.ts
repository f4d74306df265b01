import { describe, expect, it } from 'vitest';
import {
  canonicalIpv6,
  canonicalIpv4,
  checkCnameChain,
  checkKeepsAddress,
  checkRecord,
  checkRecordName,
  conflictWith,
  conflictsIn,
  fullName,
  indexByName,
  providerRangeOf,
  relativeName,
  violationText,
  withArticle,
  type NormalisedRecord,
  type Violation,
} from '../../../src/rules/dns/index.js';

const zone = { name: 'example.com', plan: 'free' };

function ok(body: Record<string, unknown>, z = zone): NormalisedRecord {
  const r = checkRecord(body, z);
  if ('violations' in r) throw new Error(JSON.stringify(r.violations));
  return r.record;
}

function codes(body: Record<string, unknown>, z = zone): number[] {
  const r = checkRecord(body, z);
  if ('record' in r) return [];
  return r.violations.flatMap((v: Violation) => [v.code, ...(v.chain ?? []).map((c) => c.code)]);
}

describe('names', () => {
  it('normalises @, relative, FQDN, trailing dot and case', () => {
    expect(fullName('@', 'Example.com')).toBe('example.com');
    expect(fullName('WWW', 'example.com')).toBe('www.example.com');
    expect(fullName('www.example.com', 'example.com')).toBe('www.example.com');
    expect(fullName('www.example.com.', 'example.com')).toBe('www.example.com');
    expect(fullName('www.other.org.', 'example.com')).toBeNull();
    expect(relativeName('www.example.com', 'example.com')).toBe('www');
    expect(relativeName('example.com', 'example.com')).toBe('@');
  });

  it('applies the host rules to A/AAAA/CNAME only', () => {
    expect(checkRecordName('*.example.com', 'A', 'example.com')).toBeNull();
    expect(checkRecordName('_x.example.com', 'A', 'example.com')).toBeNull();
    expect(checkRecordName('1www.example.com', 'A', 'example.com')?.chain?.[0].code).toBe(9000);
    expect(checkRecordName('www-.example.com', 'CNAME', 'example.com')).not.toBeNull();
    expect(checkRecordName('a.*.example.com', 'A', 'example.com')).not.toBeNull();
    expect(checkRecordName('_sip._tcp.example.com', 'SRV', 'example.com')).toBeNull();
    expect(checkRecordName('1.example.com', 'TXT', 'example.com')).toBeNull();
    expect(checkRecordName('sip.example.com', 'SRV', 'example.com')?.chain?.[0].message).toMatch(
      /_service\._proto/,
    );
    expect(checkRecordName('example.com', 'SRV', 'example.com')).not.toBeNull();
    expect(checkRecordName('a'.repeat(64) + '.example.com', 'TXT', 'example.com')).not.toBeNull();
    expect(checkRecordName('a'.repeat(63) + '.example.com', 'A', 'example.com')).toBeNull();
    const long = Array.from({ length: 5 }, () => 'a'.repeat(60)).join('.') + '.example.com';
    expect(checkRecordName(long, 'TXT', 'example.com')?.chain?.[0].message).toMatch(/longer than 255/);
  });
});

describe('messages', () => {
  it('use the right article before a record type', () => {
    expect(['A', 'AAAA', 'MX', 'NS', 'SRV', 'SPF', 'HTTPS', 'SVCB'].map((t) => withArticle(t))).toEqual([
      'an A',
      'an AAAA',
      'an MX',
      'an NS',
      'an SRV',
      'an SPF',
      'an HTTPS',
      'an SVCB',
    ]);
    expect(['CNAME', 'TXT', 'CAA', 'URI', 'PTR', 'DS'].map((t) => withArticle(t))).toEqual([
      'a CNAME',
      'a TXT',
      'a CAA',
      'a URI',
      'a PTR',
      'a DS',
    ]);
    expect(withArticle('MX', true)).toBe('An MX');
    expect(withArticle('CNAME', true)).toBe('A CNAME');
  });

  it('say "an A record", "An MX record", "A CNAME record" in the rules', () => {
    const text = (body: Record<string, unknown>) => {
      const r = checkRecord(body, zone);
      return 'violations' in r ? r.violations.map(violationText).join('; ') : '';
    };
    expect(text({ type: 'A', name: '-web', content: '192.0.2.1' })).toContain('not valid for an A record');
    expect(text({ type: 'AAAA', name: 'web-', content: '2001:db8::1' })).toContain(
      'not valid for an AAAA record',
    );
    expect(text({ type: 'CNAME', name: '9x', content: 'x.example.net' })).toContain(
      'not valid for a CNAME record',
    );
    expect(text({ type: 'MX', name: '@', content: 'mx.example.net' })).toMatch(
      /^An MX record needs "priority"/,
    );
    expect(text({ type: 'URI', name: '_ftp._tcp', data: { weight: 1, target: 'ftp://x/' } })).toMatch(
      /^A URI record needs "priority"/,
    );
    expect(text({ type: 'NS', name: 'sub' })).toBe('An NS record needs "content".');
    expect(text({ type: 'TXT', name: 'sub' })).toBe('A TXT record needs "content".');
  });
});

describe('addresses', () => {
  it('parses and canonicalises', () => {
    expect(canonicalIpv4('192.0.2.1')).toBe('192.0.2.1');
    expect(canonicalIpv4('192.0.2.01')).toBeNull();
    expect(canonicalIpv4('256.0.0.1')).toBeNull();
    expect(canonicalIpv6('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(canonicalIpv6('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(canonicalIpv6('::ffff:192.0.2.1')).toBe('::ffff:c000:201');
    expect(canonicalIpv6('::')).toBe('::');
    expect(canonicalIpv6('1::2::3')).toBeNull();
    expect(canonicalIpv6('1:2:3:4:5:6:7:8:9')).toBeNull();
  });

  it('knows the provider ranges', () => {
    expect(providerRangeOf('104.16.1.1')).toBe('104.16.0.0/13');
    expect(providerRangeOf('2606:4700::1')).toBe('2606:4700::/32');
    expect(providerRangeOf('2a06:98c7::1')).toBe('2a06:98c0::/29');
    expect(providerRangeOf('192.0.2.1')).toBeNull();
  });

  it('looks an IPv4-mapped IPv6 address up by the IPv4 address it carries', () => {
    expect(providerRangeOf('::ffff:104.16.0.1')).toBe('104.16.0.0/13');
    expect(providerRangeOf('::ffff:6810:1')).toBe('104.16.0.0/13'); // the same address in hex
    expect(providerRangeOf('::ffff:192.0.2.1')).toBeNull();
    expect(providerRangeOf('::104.16.0.1')).toBeNull(); // not mapped: ::/96 is another address
  });
});

describe('checkRecord', () => {
  it('normalises A, AAAA, CNAME and the TTL', () => {
    expect(ok({ type: 'a', name: '@', content: '192.0.2.1' })).toMatchObject({
      name: 'example.com',
      type: 'A',
      ttl: 1,
      proxied: false,
      proxiable: true,
      comment: null,
      tags: [],
    });
    expect(ok({ type: 'AAAA', name: 'v6', content: '2001:DB8::0:1', ttl: 3600 }).content).toBe('2001:db8::1');
    expect(ok({ type: 'A', name: 'p', content: '192.0.2.1', proxied: true, ttl: 3600 }).ttl).toBe(1);
    expect(ok({ type: 'CNAME', name: 'www', content: 'Target.Example.NET.' }).content).toBe(
      'target.example.net',
    );
  });

  it('refuses with the real codes', () => {
    expect(codes({ type: 'A', name: 'x', content: '1.2.3' })).toEqual([1004, 9005]);
    expect(codes({ type: 'AAAA', name: 'x', content: 'zz::1' })).toEqual([1004, 9006]);
    expect(codes({ type: 'A', name: 'x', content: '104.16.0.1' })).toEqual([1004, 9003]);
    expect(codes({ type: 'A', name: 'x', content: '10.0.0.1', proxied: true })).toEqual([1004, 9003]);
    expect(codes({ type: 'A', name: 'x', content: '10.0.0.1' })).toEqual([]);
    expect(codes({ type: 'TXT', name: 'x', content: 'hi', proxied: true })).toEqual([1004, 9004]);
    expect(codes({ type: 'A', name: 'x', content: '192.0.2.1', ttl: 59 })).toEqual([1004, 9021]);
    expect(
      codes(
        { type: 'A', name: 'x', content: '192.0.2.1', ttl: 30 },
        { name: 'example.com', plan: 'enterprise' },
      ),
    ).toEqual([]);
    expect(codes({ type: 'A', name: 'x', content: '192.0.2.1', ttl: 86401 })).toEqual([1004, 9021]);
    expect(codes({ type: 'MX', name: '@', content: '192.0.2.1 x', priority: 10 })).toEqual([1004, 9009]);
    // an address is not a host name: the last label of a host name is never all digits
    expect(codes({ type: 'MX', name: '@', content: '192.0.2.1', priority: 10 })).toEqual([1004, 9009]);
    expect(codes({ type: 'CNAME', name: 'www', content: '192.0.2.1' })).toEqual([1004, 9007]);
    expect(codes({ type: 'CNAME', name: 'www', content: 'host.123' })).toEqual([1004, 9007]);
    expect(codes({ type: 'CNAME', name: 'www', content: '123.example.net' })).toEqual([]);
    expect(codes({ type: 'AAAA', name: 'x', content: '::ffff:104.16.0.1' })).toEqual([1004, 9003]);
    expect(codes({ type: 'AAAA', name: 'x', content: '::ffff:10.0.0.1', proxied: true })).toEqual([
      1004, 9003,
    ]);
    expect(codes({ type: 'AAAA', name: 'x', content: '::ffff:192.0.2.1' })).toEqual([]);
    expect(codes({ type: 'CNAME', name: 'www', content: 'www.example.com' })).toEqual([1004, 9007]);
    expect(codes({ type: 'SOA', name: '@', content: 'x' })).toEqual([1004, 9105]);
    expect(codes({ type: 'BOGUS', name: '@', content: 'x' })).toEqual([1004, 9100]);
    expect(codes({ type: 'SPF', name: '@', content: 'v=spf1 -all' })).toEqual([1004, 9100]);
  });

  it('builds SRV content and priority from data, and data from content', () => {
    const srv = ok({
      type: 'SRV',
      name: '_sip._tcp',
      data: { priority: 10, weight: 5, port: 5060, target: 'SIP.example.com.' },
    });
    expect(srv).toMatchObject({
      content: '5 5060 sip.example.com',
      priority: 10,
      data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.com' },
      proxiable: false,
    });
    const fromContent = ok({
      type: 'SRV',
      name: '_sip._tcp',
      content: '5 5060 sip.example.com',
      priority: 10,
    });
    expect(fromContent.data).toEqual(srv.data);
    expect(
      codes({ type: 'SRV', name: '_sip._tcp', data: { priority: 10, weight: 5, port: 70000, target: 'x' } }),
    ).toEqual([1004, 9101]);
  });

  it('handles CAA, URI, HTTPS, DS, TLSA, NAPTR data', () => {
    expect(
      ok({ type: 'CAA', name: '@', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } }).content,
    ).toBe('0 issue "letsencrypt.org"');
    expect(ok({ type: 'CAA', name: '@', content: '0 issue "letsencrypt.org"' }).data).toEqual({
      flags: 0,
      tag: 'issue',
      value: 'letsencrypt.org',
    });
    expect(
      ok({ type: 'URI', name: '_http', priority: 1, data: { weight: 2, target: 'http://x/' } }).content,
    ).toBe('2 "http://x/"');
    expect(
      ok({ type: 'HTTPS', name: '@', data: { priority: 1, target: '.', value: 'alpn="h3,h2"' } }).content,
    ).toBe('1 . alpn="h3,h2"');
    expect(
      codes({ type: 'DS', name: '@', data: { key_tag: 1, algorithm: 8, digest_type: 2, digest: 'xyz' } }),
    ).toEqual([1004, 9101]);
    expect(
      ok({
        type: 'TLSA',
        name: '_443._tcp',
        data: { usage: 3, selector: 1, matching_type: 1, certificate: 'ABCD' },
      }).content,
    ).toBe('3 1 1 abcd');
    expect(
      ok({
        type: 'NAPTR',
        name: '@',
        data: {
          order: 100,
          preference: 10,
          flags: 'S',
          service: 'SIP+D2U',
          regex: '',
          replacement: '_sip._udp.example.com',
        },
      }).content,
    ).toBe('100 10 "S" "SIP+D2U" "" _sip._udp.example.com');
  });

  it('requires MX priority and normalises tags', () => {
    expect(codes({ type: 'MX', name: '@', content: 'mx.example.com' })).toEqual([1004, 9106]);
    expect(ok({ type: 'TXT', name: 'x', content: 'v', tags: ['Env:prod', 'a'] }).tags).toEqual([
      'a',
      'env:prod',
    ]);
  });
});

describe('zone rules', () => {
  const a = { id: '1', name: 'www.example.com', type: 'A', content: '192.0.2.1' };
  const cname = { id: '2', name: 'alias.example.com', type: 'CNAME', content: 'x.example.net' };

  it('reports CNAME conflicts and identical records', () => {
    expect(conflictWith({ name: 'www.example.com', type: 'CNAME', content: 'y' }, [a])?.code).toBe(81053);
    expect(conflictWith({ name: 'alias.example.com', type: 'A', content: '192.0.2.9' }, [cname])?.code).toBe(
      81054,
    );
    expect(conflictWith({ name: 'www.example.com', type: 'A', content: '192.0.2.1' }, [a])?.code).toBe(81058);
    expect(conflictWith({ name: 'www.example.com', type: 'A', content: '192.0.2.2' }, [a])).toBeNull();
    expect(conflictWith({ ...a }, [a])).toBeNull();
    expect(conflictsIn([a, { ...a, id: '3' }]).map((c) => c.violation.code)).toEqual([81058]);
  });

  it('compares structured records by their full data, priority included', () => {
    const srv = (priority: number) => ({
      name: '_sip._tcp.example.com',
      type: 'SRV',
      content: '5 5060 sip.example.com',
      priority,
      data: { priority, weight: 5, port: 5060, target: 'sip.example.com' },
    });
    expect(conflictWith(srv(20), [{ ...srv(10), id: '1' }])).toBeNull();
    expect(conflictWith(srv(10), [{ ...srv(10), id: '1' }])?.code).toBe(81058);
    expect(conflictsIn([srv(10), srv(20)])).toEqual([]);
    const mx = (priority: number) => ({
      name: 'example.com',
      type: 'MX',
      content: 'mx.example.net',
      priority,
    });
    expect(conflictWith(mx(20), [{ ...mx(10), id: '1' }])).toBeNull();
    expect(conflictWith(mx(10), [{ ...mx(10), id: '1' }])?.code).toBe(81058);
    // a caller that passes content only is judged on content
    expect(conflictWith({ name: 'example.com', type: 'MX', content: 'mx.example.net' }, [mx(10)])?.code).toBe(
      81058,
    );
  });

  it('follows proxied CNAME chains', () => {
    const recs = [
      a,
      { name: 'c1.example.com', type: 'CNAME', content: 'c2.example.com', proxied: true },
      { name: 'c2.example.com', type: 'CNAME', content: 'www.example.com' },
      { name: 'l1.example.com', type: 'CNAME', content: 'l2.example.com', proxied: true },
      { name: 'l2.example.com', type: 'CNAME', content: 'l1.example.com' },
      { name: 'm.example.com', type: 'CNAME', content: 'nothing.example.com', proxied: true },
      { name: 'e.example.com', type: 'CNAME', content: 'elsewhere.net', proxied: true },
      { name: '*.w.example.com', type: 'A', content: '192.0.2.5' },
      { name: 'wc.example.com', type: 'CNAME', content: 'x.w.example.com', proxied: true },
    ];
    const lookup = indexByName(recs);
    const chain = (n: string) =>
      checkCnameChain(
        recs.find((r) => r.name === n)!,
        'example.com',
        lookup,
      );
    expect(chain('c1.example.com')).toBeNull();
    expect(chain('l1.example.com')?.chain?.[0].message).toMatch(/loops/);
    expect(chain('m.example.com')?.chain?.[0].message).toMatch(/no A, AAAA or CNAME/);
    expect(chain('e.example.com')).toBeNull();
    expect(chain('wc.example.com')).toBeNull();
  });

  it('keeps an address record', () => {
    expect(checkKeepsAddress(1, 0, 'example.com')?.chain?.[0].code).toBe(9104);
    expect(checkKeepsAddress(1, 1, 'example.com')).toBeNull();
    expect(checkKeepsAddress(0, 0, 'example.com')).toBeNull();
  });
});
