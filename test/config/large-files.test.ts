/**
 * What keeps a file with very many problems cheap: at most MAX_DIAGNOSTICS are listed (the rest are
 * counted), each located by walking the YAML tree along its path, and the fold of ajv's anyOf errors
 * keeps one list entry's errors apart from another's.
 */
import { describe, expect, it } from 'vitest';
import { MAX_DIAGNOSTICS, validateFiles } from '../../src/config/load.js';
import { parseYamlText } from '../../src/config/yaml-source.js';
import { writeTemp } from './helpers.js';

const ACCOUNT = '0123456789abcdef0123456789abcdef';

/** A zone of `n` A records, one per line from line 7; `ttlOf(i)` gives each record's TTL as written. */
function zoneOfRecords(n: number, ttlOf: (i: number) => string): string {
  const lines = [
    'version: 1',
    'zones:',
    '  - name: big.example',
    `    account: ${ACCOUNT}`,
    '    dns:',
    '      records:',
  ];
  for (let i = 0; i < n; i++) {
    lines.push(`        - { name: h${i}, type: A, content: 192.0.2.${(i % 250) + 1}, ttl: ${ttlOf(i)} }`);
  }
  return lines.join('\n') + '\n';
}

const badTtlEvery = (k: number) => (i: number) => (i % k === 0 ? '"soon"' : '300');

describe('files with very many problems', () => {
  it(`lists the first ${MAX_DIAGNOSTICS} problems, located and sorted, and counts the rest`, async () => {
    const file = writeTemp(zoneOfRecords(3000, badTtlEvery(2)));
    const [result] = await validateFiles([file], { env: {} });
    expect(result.ok).toBe(false);
    expect(result.diagnostics).toHaveLength(MAX_DIAGNOSTICS + 1);
    const listed = result.diagnostics.slice(0, MAX_DIAGNOSTICS);
    expect(listed[0]).toMatchObject({ line: 7, path: 'zones[0].dns.records[0].ttl' });
    expect(listed[1]).toMatchObject({ line: 9, path: 'zones[0].dns.records[2].ttl' });
    expect(listed.every((d, i) => i === 0 || d.line > listed[i - 1].line)).toBe(true);
    expect(result.diagnostics.at(-1)!.message).toBe(
      `and 500 more problem(s) not listed: the first ${MAX_DIAGNOSTICS} are above; fix them and validate again`,
    );
  });

  it('counts warnings apart: a file of many warnings and no error is still valid', async () => {
    // a TTL of 30 is for Enterprise zones only: a warning per record, not an error
    const file = writeTemp(zoneOfRecords(MAX_DIAGNOSTICS + 5, () => '30'));
    const [result] = await validateFiles([file], { env: {} });
    expect(result.ok).toBe(true);
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.diagnostics.at(-1)).toMatchObject({
      severity: 'warning',
      message: `and 5 more warning(s) not listed: the first ${MAX_DIAGNOSTICS} are above`,
    });
  });

  it('each bad record gets its own message, not one folded into another record', async () => {
    const file = writeTemp(zoneOfRecords(30, badTtlEvery(7)));
    const [result] = await validateFiles([file], { env: {} });
    expect(result.diagnostics.map((d) => `${d.line}:${d.col} ${d.path}`)).toEqual([
      '7:57 zones[0].dns.records[0].ttl',
      '14:57 zones[0].dns.records[7].ttl',
      '21:59 zones[0].dns.records[14].ttl',
      '28:59 zones[0].dns.records[21].ttl',
      '35:59 zones[0].dns.records[28].ttl',
    ]);
  });
});

describe('locating a path in the file', () => {
  const text = [
    'version: 1',
    'zones:',
    '  - name: a.example',
    '    "odd key": { inner: [1, 2] }',
    '    empty:',
    '    shared: &s { x: 1 }',
    '    again: *s',
    '',
  ].join('\n');
  const locator = parseYamlText('f.yaml', text).locations();

  it('finds values, keys and quoted keys, and falls back to the nearest ancestor', () => {
    expect(locator.value('zones[0].name')).toEqual({ file: 'f.yaml', line: 3, col: 11 });
    expect(locator.key('zones[0].name')).toEqual({ file: 'f.yaml', line: 3, col: 5 });
    expect(locator.value('zones[0]["odd key"].inner[1]')).toEqual({ file: 'f.yaml', line: 4, col: 29 });
    // a key without a value: where its (empty) value would be
    expect(locator.exact('zones[0].empty')).toEqual({ file: 'f.yaml', line: 5, col: 11 });
    // below an alias: the alias
    expect(locator.exact('zones[0].again.x')).toBeUndefined();
    expect(locator.value('zones[0].again.x')).toEqual({ file: 'f.yaml', line: 7, col: 12 });
    // a path the file does not have: its nearest ancestor that it has
    expect(locator.exact('zones[0].missing')).toBeUndefined();
    expect(locator.value('zones[0].missing.deeper')).toEqual({ file: 'f.yaml', line: 3, col: 5 });
    expect(locator.value('zones[5]')).toEqual({ file: 'f.yaml', line: 3, col: 3 });
  });
});
