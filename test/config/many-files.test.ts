import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandPaths, loadDesiredFiles } from '../../src/config/desired-files.js';

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'zp-many-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const zone = (name: string, content: string) =>
  `version: 1\nzones:\n  - name: ${name}\n    dns:\n      records:\n        - { name: www, type: A, content: ${content} }\n`;

describe('many desired-state files', () => {
  it('expand directories recursively in code-unit order, skipping dot-directories and other files', async () => {
    const dir = dirWith({
      'z/b.yaml': '',
      'z/A.yml': '',
      'z/sub/c.yaml': '',
      'z/.zoneplan/x.yaml': '',
      'z/readme.md': '',
      'one.yaml': '',
    });
    expect(await expandPaths(['one.yaml', 'z', 'z/b.yaml'], dir)).toEqual([
      'one.yaml',
      'z/A.yml',
      'z/b.yaml',
      'z/sub/c.yaml',
    ]);
    mkdirSync(join(dir, 'empty', '.git'), { recursive: true });
    writeFileSync(join(dir, 'empty', '.git', 'x.yaml'), '');
    await expect(expandPaths(['empty'], dir)).rejects.toThrow(
      'empty: the directory holds no *.yaml or *.yml file',
    );
  });

  it('merge into one state whose paths are unique and whose locations point into the right file', async () => {
    const dir = dirWith({
      'a.yaml': zone('a.example', '192.0.2.1'),
      'b.yaml': zone('b.example', '192.0.2.2'),
    });
    const { desired } = await loadDesiredFiles([join(dir, 'a.yaml'), join(dir, 'b.yaml')], { env: {} });
    expect(
      desired.zones.map((z) => [z.name, z.path, (z.dns as { records: { path: string }[] }).records[0].path]),
    ).toEqual([
      ['a.example', 'zones[0]', 'zones[0].dns.records[0]'],
      ['b.example', 'zones[1]', 'zones[1].dns.records[0]'],
    ]);
    expect(desired.locations.get('zones[1].dns.records[0]')).toEqual({
      file: join(dir, 'b.yaml'),
      line: 6,
      col: 11,
    });
    expect(desired.locations.get('zones[0].name')).toEqual({ file: join(dir, 'a.yaml'), line: 3, col: 11 });
    expect(desired.source.files).toEqual([join(dir, 'a.yaml'), join(dir, 'b.yaml')]);
    expect(desired.source.sha256s).toHaveLength(2);
  });
});

describe('a variable standing for records, shared by several files', () => {
  it('gives each file its own records, each with its own path', async () => {
    const records = [
      '  baseline:',
      '    - { name: "@", type: MX, content: mx.example.net, priority: 10, ttl: auto }',
      '    - { name: www, type: A, content: 192.0.2.1 }',
    ].join('\n');
    const file = (name: string) =>
      `version: 1\nvars:\n${records}\nzones:\n  - name: ${name}\n    dns:\n      records: \${var:baseline}\n`;
    const dir = dirWith({ 'a.yaml': file('a.example'), 'b.yaml': file('b.example') });
    const { desired } = await loadDesiredFiles([join(dir, 'a.yaml'), join(dir, 'b.yaml')], { env: {} });
    const paths = desired.zones.map((z) => (z.dns as { records: { path: string; ttl?: unknown }[] }).records);
    expect(paths.map((list) => list.map((r) => r.path))).toEqual([
      ['zones[0].dns.records[0]', 'zones[0].dns.records[1]'],
      ['zones[1].dns.records[0]', 'zones[1].dns.records[1]'],
    ]);
    expect(paths[0]![0]).not.toBe(paths[1]![0]);
    expect(paths[1]![0]!.ttl).toBe(1);
  });
});
