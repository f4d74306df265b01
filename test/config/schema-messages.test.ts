import { describe, expect, it } from 'vitest';
import { lint, pos, zoneWith } from './helpers.js';

/** Lints `src` and returns the diagnostics; positions in expectations come from pos(src, ...). */
const check = (src: string) => lint(src);

describe('schema problems, each at its place', () => {
  it('names an unknown key at the key, with a did-you-mean when close', async () => {
    const src = zoneWith(['{ name: www, type: A, content: 192.0.2.1, proxy: true }']);
    expect(await check(src)).toEqual([
      `t.yaml:${pos(src, 'proxy:')}: zones[0].dns.records[0].proxy: unknown key \`proxy\`; did you mean \`proxied\`?`,
    ]);
    const src2 = 'version: 1\nzones:\n  - name: example.com\n    dns:\n      recods: []\n';
    expect(await check(src2)).toEqual([
      't.yaml:4:5: zones[0].dns: missing required key `records`',
      't.yaml:5:7: zones[0].dns.recods: unknown key `recods`; did you mean `records`?',
    ]);
  });

  it('lists the allowed keys when nothing is close', async () => {
    const out = await check('version: 1\nzones:\n  - name: example.com\n    colour: red\n');
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(
      /^t\.yaml:4:5: zones\[0\]\.colour: unknown key `colour` \(expected one of: name, account, delete, type, owner, adopt, dns, /,
    );
  });

  it('suggests top-level keys too', async () => {
    expect(await check('version: 1\nzone:\n  - name: example.com\n')).toEqual([
      't.yaml:2:1: zone: unknown key `zone`; did you mean `zones`?',
    ]);
  });

  it('says wrong types plainly', async () => {
    const src = zoneWith(['{ name: www, type: A, content: 192.0.2.1, proxied: yes }']);
    expect(await check(src)).toEqual([
      `t.yaml:${pos(src, 'yes')}: zones[0].dns.records[0].proxied: expected a boolean (true or false), got the string "yes"`,
    ]);
    expect(await check('version: 1\nzones: example.com\n')).toEqual([
      't.yaml:2:8: zones: expected a list, got the string "example.com"',
    ]);
    expect(await check('version: 1\nzones:\n  - example.com\n')).toEqual([
      't.yaml:3:5: zones[0]: expected a map of keys, got the string "example.com"',
    ]);
  });

  it('requires version 1', async () => {
    expect(await check('zones: []\n')).toEqual(['t.yaml:1:1: missing required key `version`']);
    expect(await check('version: 2\n')).toEqual(['t.yaml:1:10: version: expected 1, got the number 2']);
  });

  it('reports a missing required key at the entry that lacks it', async () => {
    const src = zoneWith(['{ name: www, content: 192.0.2.1 }']);
    expect(await check(src)).toEqual([
      `t.yaml:${pos(src, '{ name')}: zones[0].dns.records[0]: missing required key \`type\``,
    ]);
  });

  it('suggests the record type for a misspelt one', async () => {
    const src = zoneWith(['{ name: www, type: AAA, content: "2001:db8::1" }']);
    const out = await check(src);
    expect(out).toHaveLength(1);
    expect(
      out[0].startsWith(
        `t.yaml:${pos(src, 'AAA')}: zones[0].dns.records[0].type: \`AAA\` is not one of A, AAAA, CNAME,`,
      ),
    ).toBe(true);
    expect(out[0]).toMatch(/; did you mean `AAAA`\?$/);
    const lower = await check(zoneWith(['{ name: www, type: cname, content: x.example.net }']));
    expect(lower[0]).toMatch(/`cname` is not one of .*; did you mean `CNAME`\?$/);
  });

  it('explains a TTL that is neither auto nor a valid number of seconds', async () => {
    const bad = async (ttl: string) => {
      const src = zoneWith([`{ name: www, type: A, content: 192.0.2.1, ttl: ${ttl} }`]);
      const out = await check(src);
      expect(out).toHaveLength(1);
      expect(out[0].startsWith(`t.yaml:${pos(src, ttl + ' }')}: zones[0].dns.records[0].ttl: `)).toBe(true);
      return out[0].replace(/^.*\.ttl: /, '');
    };
    expect(await bad('20')).toBe('expected `auto`, 1 or a whole number from 30 to 86400, got the number 20');
    expect(await bad('automatic')).toBe(
      'expected `auto`, 1 or a whole number from 30 to 86400, got the string "automatic"',
    );
    expect(await bad('100000')).toBe(
      'expected `auto`, 1 or a whole number from 30 to 86400, got the number 100000',
    );
    expect(await bad('1.5')).toBe(
      'expected `auto`, 1 or a whole number from 30 to 86400, got the number 1.5',
    );
  });

  it('checks ids and zone names by pattern, with a readable message', async () => {
    const out = await check(
      'version: 1\naccounts:\n  - id: 12ab\nzones:\n  - name: not a domain\n    account: xyz\n',
    );
    expect(out).toEqual([
      't.yaml:3:9: accounts[0].id: expected an account id: 32 hexadecimal characters, got the string "12ab"',
      't.yaml:5:11: zones[0].name: expected a domain name such as example.com (an IDN in punycode, xn--...), got the string "not a domain"',
      't.yaml:6:14: zones[0].account: expected an account id: 32 hexadecimal characters, got the string "xyz"',
    ]);
  });

  it('checks the target', async () => {
    expect(await check('version: 1\ntarget: { api_url: ftp://x }\n')).toEqual([
      't.yaml:2:20: target.api_url: expected an http:// or https:// URL, got the string "ftp://x"',
    ]);
    expect(
      await check('version: 1\ntarget: { api_url: "http://127.0.0.1:1/client/v4", local: {} }\n'),
    ).toEqual(['t.yaml:2:9: target: set only one of api_url, local']);
    expect(await check('version: 1\ntarget: { local: { db: .zoneplan/x.db, fixture: f.yaml } }\n')).toEqual([
      't.yaml:2:40: target.local.fixture: unknown key `fixture`; did you mean `fixtures`?',
    ]);
  });

  it('checks the data of structured records per type', async () => {
    const src = zoneWith([
      '{ name: _sip._tcp, type: SRV, data: { priority: 1, weight: 70000, port: 5060, target: sip.example.com } }',
      '{ name: _sip._udp, type: SRV, data: { weight: 1, port: 5060 } }',
      '{ name: "@", type: CAA, data: { flags: 0, tag: issue, value: ca.example, extra: 1 } }',
    ]);
    expect(await check(src)).toEqual([
      `t.yaml:${pos(src, '70000')}: zones[0].dns.records[0].data.weight: must be <= 65535, got 70000`,
      `t.yaml:${pos(src, 'data', '_udp')}: zones[0].dns.records[1].data: missing required key \`target\``,
      `t.yaml:${pos(src, 'extra')}: zones[0].dns.records[2].data.extra: unknown key \`extra\` (expected one of: flags, tag, value)`,
    ]);
  });

  it('requires dns.records so that purge never empties a zone by omission', async () => {
    const out = await check('version: 1\nzones:\n  - name: example.com\n    dns: { purge: true }\n');
    expect(out).toEqual(['t.yaml:4:5: zones[0].dns: missing required key `records`']);
  });

  it('reports every problem at once, sorted by line and column', async () => {
    const src =
      zoneWith([
        '{ name: a, type: A, content: 192.0.2.1, proxied: 1 }',
        '{ name: b, type: A, content: 192.0.2.1, tll: 60 }',
        '{ name: c, type: Q, content: 192.0.2.1 }',
      ]) + 'extra: 1\n';
    const out = await check(src);
    expect(out.map((l) => l.split(': ')[0])).toEqual([
      `t.yaml:${pos(src, '1 }')}`,
      `t.yaml:${pos(src, 'tll')}`,
      `t.yaml:${pos(src, 'Q,')}`,
      't.yaml:10:1',
    ]);
    expect(out[1]).toMatch(/unknown key `tll`; did you mean `ttl`\?$/);
  });
});
