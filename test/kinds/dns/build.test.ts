/**
 * The built dns value keeps the checked records themselves (no copy per record) and gives each its
 * dotted path; a record the file reaches twice through a YAML alias is copied, so each place keeps
 * its own path.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadDesiredState } from '../../../src/config/load.js';
import type { DesiredDns } from '../../../src/kinds/dns/desired.js';

const dir = mkdtempSync(join(tmpdir(), 'zoneplan-dns-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ACCOUNT = '0123456789abcdef0123456789abcdef';

/** A zone entry of the file, with its records as flow lines (one per record). */
const zone = (name: string, records: string[]) => [
  `  - name: ${name}`,
  `    account: '${ACCOUNT}'`,
  '    dns:',
  '      records:',
  ...records.map((r) => `        - ${r}`),
];

/** The desired state of a file holding these zone entries. */
async function load(...zones: string[][]) {
  const file = join(dir, `f${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, ['version: 1', 'zones:', ...zones.flat(), ''].join('\n'));
  return (await loadDesiredState(file)).desired;
}

it('gives every record its path and loads `ttl: auto` as 1', async () => {
  const desired = await load(
    zone('example.com', [
      '{ name: www, type: A, content: 192.0.2.1, ttl: auto }',
      '{ name: api, type: A, content: 192.0.2.2, ttl: 300 }',
    ]),
  );
  const dns = desired.zones[0]!.dns as DesiredDns;
  expect(dns.records.map((r) => [r.path, r.ttl])).toEqual([
    ['zones[0].dns.records[0]', 1],
    ['zones[0].dns.records[1]', 300],
  ]);
});

it('copies a record reached twice through an alias, so each place keeps its own path', async () => {
  const desired = await load(
    zone('example.com', ['&mx { name: "@", type: MX, content: mx.example.net, priority: 10, ttl: auto }']),
    zone('example.org', ['{ name: www, type: A, content: 192.0.2.1 }', '*mx']),
  );
  const first = (desired.zones[0]!.dns as DesiredDns).records[0]!;
  const second = (desired.zones[1]!.dns as DesiredDns).records[1]!;
  expect(first.path).toBe('zones[0].dns.records[0]');
  expect(second.path).toBe('zones[1].dns.records[1]');
  expect(first).not.toBe(second);
  expect({ ...first, path: '' }).toEqual({ ...second, path: '' });
  expect(second.ttl).toBe(1);
});
