import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadDesiredState, validateFiles } from '../../src/config/load.js';
import { ConfigError, formatDiagnostic } from '../../src/errors.js';
import { lint, writeTemp, zoneWith } from './helpers.js';
import type { DesiredDns } from '../../src/kinds/dns/desired.js';

describe('loadDesiredState', () => {
  it('returns the typed desired state with paths, locations and the file hash', async () => {
    const text = [
      'version: 1',
      'target: { local: { db: .zoneplan/test.db } }',
      'accounts:',
      '  - id: 0123456789ABCDEF0123456789abcdef',
      'zones:',
      '  - name: Example.COM',
      '    account: 0123456789abcdef0123456789abcdef',
      '    dns:',
      '      purge: false',
      '      ignore: [{ name: "_acme-challenge*", type: TXT }]',
      '      records:',
      '        - { name: "@", type: A, content: 192.0.2.1, proxied: true, ttl: auto }',
      '        - { name: WWW, type: CNAME, content: example.com., comment: null, tags: [b, "a:1"] }',
      '        - { name: _sip._tcp, type: SRV, data: { priority: 1, weight: 2, port: 3, target: sip.example.com } }',
      '        - { name: mail, type: A, content: 192.0.2.2, ttl: 3600 }',
      '',
    ].join('\n');
    const file = writeTemp(text);
    const { desired, warnings } = await loadDesiredState(file, { env: {} });
    expect(warnings).toEqual([]);
    expect(desired.version).toBe(1);
    expect(desired.source).toEqual({
      files: [file],
      sha256: createHash('sha256').update(readFileSync(file)).digest('hex'),
    });
    expect(desired.target).toEqual({ local: { db: '.zoneplan/test.db' } });
    expect(desired.accounts).toEqual([{ id: '0123456789ABCDEF0123456789abcdef', path: 'accounts[0]' }]);
    const zone = desired.zones[0];
    expect(zone).toMatchObject({
      name: 'Example.COM',
      account: '0123456789abcdef0123456789abcdef',
      path: 'zones[0]',
    });
    expect((zone.dns as DesiredDns).purge).toBe(false);
    expect((zone.dns as DesiredDns).ignore).toEqual([{ name: '_acme-challenge*', type: 'TXT' }]);
    const [apex, www, srv, mail] = (zone.dns as DesiredDns).records;
    // `ttl: auto` loads as 1; names are kept as written
    expect(apex).toEqual({
      name: '@',
      type: 'A',
      content: '192.0.2.1',
      proxied: true,
      ttl: 1,
      path: 'zones[0].dns.records[0]',
    });
    expect(www).toEqual({
      name: 'WWW',
      type: 'CNAME',
      content: 'example.com.',
      comment: null,
      tags: ['b', 'a:1'],
      path: 'zones[0].dns.records[1]',
    });
    expect(srv.data).toEqual({ priority: 1, weight: 2, port: 3, target: 'sip.example.com' });
    expect(mail.ttl).toBe(3600);
    expect(desired.locations.get('zones[0].dns.records[1].content')).toEqual({ file, line: 13, col: 46 });
    expect(desired.locations.get('zones[0]')).toEqual({ file, line: 6, col: 5 });
  });

  it('throws a ConfigError carrying every problem, sorted', async () => {
    const file = writeTemp(
      zoneWith([
        '{ name: a, type: A, content: 999.0.0.1 }',
        '{ name: b, type: A, content: 192.0.2.1, proxied: maybe }',
        '{ name: c, type: MX, content: mx.example.com }',
      ]),
    );
    const err = await loadDesiredState(file, { env: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    const diagnostics = (err as ConfigError).diagnostics;
    // the schema problem in records[1] does not hide the DNS rules' problems in the other records
    expect(diagnostics.map((d) => d.path)).toEqual([
      'zones[0].dns.records[0].content',
      'zones[0].dns.records[1].proxied',
      'zones[0].dns.records[2].priority',
    ]);
    expect((err as ConfigError).message).toBe('3 problems in the desired-state file');
  });

  it('refuses a zone or an account declared twice', async () => {
    const out = await lint(
      [
        'version: 1',
        'accounts:',
        '  - id: 0123456789abcdef0123456789abcdef',
        '  - id: 0123456789ABCDEF0123456789ABCDEF',
        'zones:',
        '  - name: example.com',
        '  - name: other.com',
        '  - name: Example.com.',
        '',
      ].join('\n'),
    );
    expect(out).toEqual([
      't.yaml:4:9: accounts[1].id: account `0123456789ABCDEF0123456789ABCDEF` is already declared at accounts[0]',
      't.yaml:8:11: zones[2].name: zone `Example.com.` is already declared at zones[0]',
    ]);
  });

  it('validateFiles checks files independently and counts what clean files declare', async () => {
    const good = writeTemp(
      zoneWith(['{ name: "@", type: A, content: 192.0.2.1 }', '{ name: www, type: A, content: 192.0.2.2 }']),
    );
    const bad = writeTemp('version: 1\nzones: 3\n');
    const results = await validateFiles([good, bad], { env: {} });
    expect(results.map((r) => [r.ok, r.zones, r.records, r.diagnostics.length])).toEqual([
      [true, 1, 2, 0],
      [false, 0, 0, 1],
    ]);
    expect(formatDiagnostic(results[1].diagnostics[0])).toBe(
      `${bad}:2:8: zones: expected a list, got the number 3`,
    );
  });
});

describe('a `__proto__` key', () => {
  it('is an unknown key like any other, never a prototype', async () => {
    const lines = await lint(
      zoneWith(['{ name: www, type: A, content: 192.0.2.1, __proto__: { proxied: true } }']),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^t\.yaml:7:\d+: zones\[0\]\.dns\.records\[0\]\.__proto__: /);
    expect(lines[0]).toMatch(/unknown key/);
  });
});
