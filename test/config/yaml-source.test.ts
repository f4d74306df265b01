import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkFile } from '../../src/config/load.js';
import { MAX_DEPTH, MAX_FILE_BYTES, readYamlSource, sha256Of } from '../../src/config/yaml-source.js';
import { lint, writeTemp } from './helpers.js';

describe('reading the YAML', () => {
  it('reports a syntax error with its line and column', async () => {
    const out = await lint('version: 1\nzones:\n  - name: [a.com\n    dns: {}\n');
    expect(out.length).toBeGreaterThan(0);
    expect(out[0]).toMatch(/^t\.yaml:\d+:\d+: YAML syntax error: /);
    expect(out.every((l) => l.startsWith('t.yaml:'))).toBe(true);
  });

  it('reports a tab indentation error where it is', async () => {
    const out = await lint('version: 1\nzones:\n\t- name: a.com\n');
    expect(out[0]).toMatch(/^t\.yaml:3:1: YAML syntax error/);
  });

  it('reports a duplicate key at the second occurrence, with the first line', async () => {
    const out = await lint('version: 1\nzones:\n  - name: a.com\n    name: b.com\n');
    expect(out).toEqual(['t.yaml:4:5: zones[0].name: duplicate key `name` (first set on line 3)']);
  });

  it('reports duplicate keys inside flow maps too', async () => {
    const out = await lint(
      'version: 1\nzones:\n  - name: a.com\n    dns:\n      records:\n        - { name: a, type: A, name: b }\n',
    );
    expect(out).toEqual([
      't.yaml:6:31: zones[0].dns.records[0].name: duplicate key `name` (first set on line 6)',
    ]);
  });

  it('refuses a second YAML document', async () => {
    expect(await lint('version: 1\n---\nversion: 1\n')).toEqual([
      't.yaml:2:1: a desired-state file holds one YAML document; this `---` starts a second one',
    ]);
  });

  it('refuses a map used as a key', async () => {
    const out = await lint('version: 1\n? { a: 1 }\n: x\n');
    expect(out).toEqual(['t.yaml:2:3: map keys must be plain words, not lists or maps']);
  });

  it('treats an empty file as a missing version', async () => {
    expect(await lint('')).toEqual(['t.yaml:1:1: expected a map of keys, got an empty value']);
    expect(await lint('# only a comment\n')).toEqual([
      't.yaml:1:1: expected a map of keys, got an empty value',
    ]);
  });

  it('says so when the file is missing, a directory, or not UTF-8', async () => {
    const missing = await checkFile('/nonexistent/zoneplan.yaml');
    expect(missing.diagnostics.map((d) => d.message)).toEqual(['no such file']);
    const binary = await checkFile(writeTemp(Buffer.from([0x76, 0x3a, 0xff, 0xfe, 0x0a])));
    expect(binary.diagnostics.map((d) => d.message)).toEqual([
      'file is not valid UTF-8 text: byte 0xff at offset 2',
    ]);
    // a UTF-16 file: the bad byte is the very first one, on line 1 (not on the last line)
    const utf16 = await checkFile(writeTemp(Buffer.from('\ufeffversion: 1\nzones: []\n\n', 'utf16le')));
    expect(utf16.diagnostics.map((d) => [d.line, d.col, d.message])).toEqual([
      [1, 1, 'file is not valid UTF-8 text: byte 0xff at offset 0'],
    ]);
    const directory = await checkFile(writeTemp('x').replace(/[^/]+$/, ''));
    expect(directory.diagnostics[0].message).toMatch(/directory/);
  });

  it('reads a file of several hundred kilobytes as TextDecoder does, characters of 2 to 4 bytes anywhere', async () => {
    // a BOM, then lines whose characters of 2, 3 and 4 bytes fall across every 256 KB boundary
    const lines = ['\ufeffversion: 1', 'vars:'];
    for (let i = 0; i < 30_000; i++)
      lines.push(`  v${i}: ${[...'é€😀'].slice(0, 1 + (i % 3)).join('')}${'x'.repeat(i % 7)}é€😀`);
    const bytes = Buffer.from(lines.join('\n') + '\n');
    const source = await readYamlSource(writeTemp(bytes));
    expect(source.diagnostics).toEqual([]);
    expect(source.text).toBe(new TextDecoder().decode(bytes));
    expect(source.text.startsWith('version: 1')).toBe(true);
    expect((source.value as { vars: Record<string, string> }).vars.v5).toBe('é€😀xxxxxé€😀');
    // an invalid byte past the first pieces, and a character cut short at the very end
    const bad = Buffer.concat([bytes.subarray(0, 600_001), Buffer.from([0xff]), bytes.subarray(600_001)]);
    const where = bad.subarray(0, 600_001).toString('utf8').split('\n');
    expect((await checkFile(writeTemp(bad))).diagnostics.map((d) => [d.line, d.col, d.message])).toEqual([
      [
        where.length,
        [...where.at(-1)!].length + 1,
        'file is not valid UTF-8 text: byte 0xff at offset 600001',
      ],
    ]);
    const cut = await checkFile(writeTemp(Buffer.concat([bytes, Buffer.from([0xf0, 0x9f])])));
    expect(cut.diagnostics.map((d) => d.message)).toEqual([
      `file is not valid UTF-8 text: byte 0xf0 at offset ${bytes.length}`,
    ]);
  });
});

describe("the file's SHA-256 (what a saved plan records)", () => {
  it('is that of the bytes as read (a byte-order mark and CRLF included), taken when first asked for', async () => {
    const text = '\uFEFFversion: 1\r\nzones:\r\n  - name: caf\u00e9.example\r\n';
    const file = writeTemp(text);
    const source = await readYamlSource(file);
    const want = createHash('sha256').update(readFileSync(file)).digest('hex');
    expect(sha256Of(source)()).toBe(want);
    expect(source.sha256).toBe(want);
    expect({ ...source }.sha256).toBe(want);
  });
});

describe('hostile input is bounded', () => {
  it('refuses a file over the size limit before parsing it', async () => {
    const file = writeTemp(Buffer.alloc(MAX_FILE_BYTES + 1, 0x20));
    const result = await checkFile(file, { env: {} });
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({ line: 1, col: 1, severity: 'error' });
    expect(result.diagnostics[0].message).toMatch(/limited to 10485760 bytes/);
  });

  it('refuses a billion-laughs alias bomb with a located error', async () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const cur = String.fromCharCode(97 + i);
      levels.push(
        `${cur}: &${cur} [${Array(9)
          .fill('*' + prev)
          .join(',')}]`,
      );
    }
    const out = await lint(levels.join('\n') + '\n');
    expect(out).toEqual([
      't.yaml:2:8: YAML aliases expand too much (more than 100 expansions); write the values out instead',
    ]);
  });

  it('accepts ordinary anchors and merge keys', async () => {
    const out = await lint(
      [
        'version: 1',
        'zones:',
        '  - name: example.com',
        '    dns:',
        '      records:',
        '        - &web { name: www, type: A, content: 192.0.2.1, proxied: true }',
        '        - { <<: *web, name: www2 }',
        '',
      ].join('\n'),
    );
    expect(out).toEqual([]);
  });

  it('refuses nesting deeper than the limit, in flow and block style', async () => {
    const flow = await lint('a: ' + '['.repeat(200) + ']'.repeat(200) + '\n');
    expect(flow).toHaveLength(1);
    expect(flow[0]).toMatch(
      new RegExp(`^t\\.yaml:1:${MAX_DEPTH + 3}: a(\\[0\\])+: nesting deeper than 64 levels`),
    );
    const block = Array.from({ length: 100 }, (_, i) => ' '.repeat(i) + `k${i}:`).join('\n') + ' 1\n';
    const out = await lint(block);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^t\.yaml:65:65: k0\.k1\..*\.k63: nesting deeper than 64 levels/);
  });
});
