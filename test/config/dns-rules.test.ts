/**
 * Every DNS rule of the spec (docs/reference/design.md section 3), checked offline, each at its exact place.
 * Records are written one per line by zoneWith(); pos() finds the column of the offending text.
 */
import { describe, expect, it } from 'vitest';
import { lint, pos, zoneWith } from './helpers.js';

const ADDRESS = '{ name: "@", type: A, content: 192.0.2.1 }';

/** Lints the records (plus an apex A so the address warning stays out of the way). */
async function only(records: string[]) {
  const src = zoneWith([ADDRESS, ...records]);
  return { src, out: await lint(src) };
}

const at = (src: string, needle: string, from?: string) => `t.yaml:${pos(src, needle, from)}`;

describe('DNS rules', () => {
  it('accepts a zone with every common type written correctly', async () => {
    const { out } = await only([
      '{ name: "@", type: AAAA, content: "2001:DB8:0:0::1", proxied: true }',
      '{ name: www, type: CNAME, content: example.com, proxied: true }',
      '{ name: "*.apps", type: CNAME, content: lb.example.net }',
      '{ name: "@", type: MX, content: mx.example.net, priority: 10 }',
      '{ name: "@", type: TXT, content: "v=spf1 -all" }',
      '{ name: _dmarc, type: TXT, content: "v=DMARC1; p=none" }',
      '{ name: "@", type: CAA, data: { flags: 0, tag: issue, value: ca.example.net } }',
      '{ name: _sip._tcp, type: SRV, data: { priority: 1, weight: 2, port: 5060, target: sip.example.com } }',
      '{ name: _sip._tcp, type: SRV, data: { priority: 2, weight: 2, port: 5060, target: sip.example.com } }',
      '{ name: sub, type: NS, content: ns1.example.net }',
      '{ name: "@", type: HTTPS, data: { priority: 1, target: ".", value: "alpn=h2" } }',
      '{ name: _u, type: URI, priority: 1, data: { weight: 1, target: "https://example.net/" } }',
      '{ name: mail.example.com, type: A, content: 198.51.100.1, ttl: 120 }',
    ]);
    expect(out).toEqual([]);
  });

  it('name rules for A/AAAA/CNAME: letters first, letters or digits last, 63-character labels', async () => {
    const long = 'a'.repeat(64);
    const { src, out } = await only([
      '{ name: -web, type: A, content: 192.0.2.2 }',
      '{ name: web-, type: AAAA, content: "2001:db8::2" }',
      `{ name: ${long}, type: A, content: 192.0.2.3 }`,
      '{ name: "a*b", type: A, content: 192.0.2.4 }',
      '{ name: web.other.net., type: A, content: 192.0.2.5 }',
    ]);
    expect(out).toEqual([
      `${at(src, '-web')}: zones[0].dns.records[1].name: The name -web.example.com is not valid for an A record: the label "-web" must start with a letter, end with a letter or digit, and contain only letters, digits, hyphens or underscores`,
      `${at(src, 'web-')}: zones[0].dns.records[2].name: The name web-.example.com is not valid for an AAAA record: the label "web-" must start with a letter, end with a letter or digit, and contain only letters, digits, hyphens or underscores`,
      `${at(src, long)}: zones[0].dns.records[3].name: The label "aaaaaaaaaaaaaaaaaaaa..." of ${long}.example.com is 64 characters long; at most 63 are allowed`,
      `${at(src, '"a*b"')}: zones[0].dns.records[4].name: The name a*b.example.com: a wildcard "*" is allowed only as the whole leftmost label`,
      `${at(src, 'web.other')}: zones[0].dns.records[5].name: The name web.other.net. is not inside the zone example.com`,
    ]);
  });

  it('other types take any DNS name such as _sip._tcp or 1', async () => {
    const { out } = await only([
      '{ name: "1", type: TXT, content: x }',
      '{ name: _x._y, type: TXT, content: y }',
    ]);
    expect(out).toEqual([]);
  });

  it('address syntax and the provider own ranges', async () => {
    const { src, out } = await only([
      '{ name: a, type: A, content: 192.0.2.300 }',
      '{ name: b, type: A, content: "2001:db8::1" }',
      '{ name: c, type: AAAA, content: 192.0.2.1 }',
      '{ name: d, type: A, content: 104.16.0.1 }',
      '{ name: e, type: AAAA, content: "2606:4700:10::1" }',
      '{ name: f, type: A, content: 10.0.0.1, proxied: true }',
    ]);
    expect(out).toEqual([
      `${at(src, '192.0.2.300')}: zones[0].dns.records[1].content: Content for A record must be a valid IPv4 address (got "192.0.2.300")`,
      `${at(src, '"2001:db8::1"')}: zones[0].dns.records[2].content: Content for A record must be a valid IPv4 address (got "2001:db8::1")`,
      `${at(src, '192.0.2.1', 'name: c')}: zones[0].dns.records[3].content: Content for AAAA record must be a valid IPv6 address (got "192.0.2.1")`,
      `${at(src, '104.16.0.1')}: zones[0].dns.records[4].content: Target 104.16.0.1 is not allowed: it belongs to the service's own network (104.16.0.0/13)`,
      `${at(src, '"2606')}: zones[0].dns.records[5].content: Target 2606:4700:10::1 is not allowed: it belongs to the service's own network (2606:4700::/32)`,
      `${at(src, '10.0.0.1')}: zones[0].dns.records[6].content: Target 10.0.0.1 is not allowed for a proxied record`,
    ]);
  });

  it('only A, AAAA and CNAME can be proxied', async () => {
    const { src, out } = await only([
      '{ name: "@", type: MX, content: mx.example.net, priority: 1, proxied: true }',
    ]);
    expect(out).toEqual([
      `${at(src, 'true')}: zones[0].dns.records[1].proxied: This kind of record cannot be proxied`,
    ]);
  });

  it('TTL rules: proxied means Auto; an explicit other TTL is an error; under 60 s warns', async () => {
    const { src, out } = await only([
      '{ name: a, type: A, content: 192.0.2.2, proxied: true, ttl: 300 }',
      '{ name: b, type: A, content: 192.0.2.3, proxied: true, ttl: auto }',
      '{ name: c, type: A, content: 192.0.2.4, proxied: true, ttl: 1 }',
      '{ name: d, type: A, content: 192.0.2.5, ttl: 30 }',
    ]);
    expect(out).toEqual([
      `${at(src, '300')}: zones[0].dns.records[1].ttl: a proxied record's TTL is always Auto (300 s); remove \`ttl\` or write \`ttl: auto\``,
      `${at(src, '30 }')}: zones[0].dns.records[4].ttl: warning: a TTL under 60 seconds is accepted only on Enterprise zones`,
    ]);
  });

  it('a proxied CNAME chain must end in an address within the zone; external names are fine', async () => {
    const { src, out } = await only([
      '{ name: ok1, type: CNAME, content: ok2.example.com, proxied: true }',
      '{ name: ok2, type: CNAME, content: example.com, proxied: true }',
      '{ name: ext, type: CNAME, content: cdn.example.net, proxied: true }',
      '{ name: dangling, type: CNAME, content: nowhere.example.com, proxied: true }',
      '{ name: txtonly, type: CNAME, content: t.example.com, proxied: true }',
      '{ name: t, type: TXT, content: hello }',
      '{ name: l1, type: CNAME, content: l2.example.com, proxied: true }',
      '{ name: l2, type: CNAME, content: l1.example.com }',
      '{ name: dnsonly, type: CNAME, content: nowhere.example.com }',
    ]);
    expect(out).toEqual([
      `${at(src, 'nowhere')}: zones[0].dns.records[4].content: The proxied CNAME dangling.example.com points to nowhere.example.com, which has no A, AAAA or CNAME record in the zone`,
      `${at(src, 't.example.com')}: zones[0].dns.records[5].content: The proxied CNAME txtonly.example.com points to t.example.com, which has no A, AAAA or CNAME record in the zone`,
      `${at(src, 'l2.example.com')}: zones[0].dns.records[7].content: The proxied CNAME l1.example.com loops: l1.example.com -> l2.example.com -> l1.example.com. A proxied CNAME must end in an A or AAAA record`,
    ]);
  });

  it('SRV data is checked, and content or data fits the type', async () => {
    const { src, out } = await only([
      '{ name: _a._tcp, type: SRV, data: { priority: 1, weight: 1, port: 1, target: "bad host!" } }',
      '{ name: _b._tcp, type: SRV, content: "1 1 x.example.com", data: { priority: 1, weight: 1, port: 1, target: x.example.com } }',
      '{ name: t, type: TXT, content: x, data: { a: 1 } }',
      '{ name: m, type: MX, content: mx.example.net }',
      '{ name: t2, type: TXT, content: y, priority: 5 }',
      '{ name: c, type: A, content: 192.0.2.9, settings: { flatten_cname: true } }',
    ]);
    expect(out).toEqual([
      `${at(src, '"bad host!"')}: zones[0].dns.records[1].data.target: Invalid SRV record: data.target "bad host!" is not a valid host name`,
      `${at(src, '"1 1 x')}: zones[0].dns.records[2].content: give either \`content\` or \`data\` for a SRV record, not both`,
      `${at(src, '{ a: 1 }')}: zones[0].dns.records[3].data: \`data\` is only for structured types (SRV, CAA, HTTPS, ...); a TXT record takes \`content\``,
      `${at(src, '{ name: m')}: zones[0].dns.records[4].priority: An MX record needs "priority", an integer from 0 to 65535 (got null)`,
      `${at(src, '5 }')}: zones[0].dns.records[5].priority: \`priority\` is used only by MX, SRV and URI records, not TXT`,
      `${at(src, 'true', 'flatten_cname')}: zones[0].dns.records[6].settings.flatten_cname: \`flatten_cname\` applies only to CNAME records, not A`,
    ]);
  });

  it('SOA records are the service own', async () => {
    const { src, out } = await only(['{ name: "@", type: SOA, content: "ns1 hostmaster 1 2 3 4 5" }']);
    expect(out).toEqual([
      `${at(src, 'SOA')}: zones[0].dns.records[1].type: SOA records are managed by the service and cannot be created or changed`,
    ]);
  });

  it('SPF records are refused with the way out: a TXT record', async () => {
    const { src, out } = await only(['{ name: "@", type: SPF, content: "v=spf1 -all" }']);
    expect(out).toHaveLength(1);
    expect(out[0]).toContain(`${at(src, 'SPF')}: zones[0].dns.records[1].type:`);
    expect(out[0]).toMatch(/SPF record type is retired .* publish the SPF policy as a TXT record/);
  });

  it('duplicate identities: same name and type and normalised value', async () => {
    const { src, out } = await only([
      '{ name: WWW, type: A, content: 192.0.2.7 }',
      '{ name: www.example.com., type: A, content: 192.0.2.7, ttl: 600 }',
      '{ name: v6, type: AAAA, content: "2001:db8::1" }',
      '{ name: v6, type: AAAA, content: "2001:DB8:0::1" }',
      '{ name: _s._tcp, type: SRV, data: { priority: 1, weight: 1, port: 1, target: s.example.com } }',
      '{ name: _s._tcp, type: SRV, data: { priority: 1, weight: 1, port: 1, target: S.example.com. } }',
    ]);
    expect(out).toEqual([
      `${at(src, '{ name: www.example')}: zones[0].dns.records[2]: duplicate record: records[1] already has this name, type and value`,
      `${at(src, '{ name: v6', '2001:db8::1')}: zones[0].dns.records[4]: duplicate record: records[3] already has this name, type and value`,
      `${at(src, '{ name: _s', 'target: s.')}: zones[0].dns.records[6]: duplicate record: records[5] already has this name, type and value`,
    ]);
  });

  it('a CNAME may not share its name with another record', async () => {
    const { src, out } = await only([
      '{ name: www, type: TXT, content: hi }',
      '{ name: WWW, type: CNAME, content: example.net }',
    ]);
    expect(out).toEqual([
      `${at(src, '{ name: WWW')}: zones[0].dns.records[2]: a CNAME must be the only record at its name, and records[1] (TXT) is also at www.example.com`,
    ]);
  });

  it('warns when the zone has no A or AAAA record (unless purge is off)', async () => {
    const src = zoneWith(['{ name: www, type: CNAME, content: example.net }']);
    expect(await lint(src)).toEqual([
      `t.yaml:${pos(src, '- {')}: zones[0].dns.records: warning: the zone has no A or AAAA record; the service requires at least one per zone, and apply will not remove the last one`,
    ]);
    expect(await lint(src.replace('    dns:\n', '    dns:\n      purge: false\n'))).toEqual([]);
  });
});
