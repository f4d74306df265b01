// The shipped schema as an editor uses it: yaml-language-server (the server of Red Hat's YAML
// extension) driven headlessly over stdio. Valid files get no false errors, bad values get useful
// ones, Logpush filter operators are completed, and the `$schema` line `export` writes resolves.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startBed, type Bed } from '../cli-reconcile/helpers.js';
import { startYamlLanguageServer, type YamlLanguageServer } from '../support/yaml-language-server.js';

const SCHEMA = join(ROOT, 'schema', 'zoneplan.schema.json');
const BIN = join(ROOT, 'bin', 'zoneplan.js');
// asynchronous: the local API under test runs in this process and must keep answering
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'zoneplan-editor-'));
const desiredDir = join(dir, 'zones');
mkdirSync(desiredDir);

let ls: YamlLanguageServer;
beforeAll(async () => {
  // the workspace setting docs/editors.md recommends: the schema for the desired-state files only
  ls = await startYamlLanguageServer(dir, { [SCHEMA]: ['zones/*.yaml'] });
}, 60_000);
afterAll(() => ls?.close());

const zone = (lines: string[]) =>
  [
    'version: 1',
    'zones:',
    '  - name: example.com',
    '    account: 0123456789abcdef0123456789abcdef',
    ...lines,
    '',
  ].join('\n');

describe('the shipped schema in yaml-language-server', () => {
  it('gives no error on any example', async () => {
    const examples = readdirSync(join(ROOT, 'examples')).filter(
      (f) => f.endsWith('.yaml') && !f.startsWith('fixtures'),
    );
    expect(examples.length).toBeGreaterThanOrEqual(6);
    for (const name of examples) {
      const path = join(desiredDir, name);
      // the examples' own `$schema` line is relative to examples/: the workspace setting stands in
      const text = readFileSync(join(ROOT, 'examples', name), 'utf8').replace(
        /^# yaml-language-server:.*$/m,
        '#',
      );
      writeFileSync(path, text);
      expect(await ls.diagnostics(path, text), name).toEqual([]);
    }
  });

  it('accepts ${var:} and ${env:} references wherever a value may be', async () => {
    const text = [
      'version: 1',
      'vars: { ttl: 300, proxied: false }',
      'zones:',
      '  - name: example.com',
      '    account: ${env:CF_ACCOUNT_ID}',
      '    dns:',
      '      records:',
      '        - name: "@"',
      '          type: A',
      '          content: ${var:origin}',
      '          ttl: ${var:ttl}',
      '          proxied: ${var:proxied}',
      '',
    ].join('\n');
    expect(await ls.diagnostics(join(desiredDir, 'refs.yaml'), text)).toEqual([]);
  });

  it('accepts every kind of TTL', async () => {
    const ttls = ['auto', '"auto"', '1', '30', '300', '86400', '${var:ttl}', '"${env:TTL}"'];
    const text = zone([
      '    dns:',
      '      records:',
      ...ttls.flatMap((ttl, i) => [
        `        - name: r${i}`,
        '          type: A',
        '          content: 192.0.2.1',
        `          ttl: ${ttl}`,
      ]),
    ]);
    expect(await ls.diagnostics(join(desiredDir, 'ttls.yaml'), text)).toEqual([]);
  });

  const bad: [string, string[], number, RegExp][] = [
    [
      'ttl under 30',
      ['    dns:', '      records:', '        - { name: a, type: A, content: 192.0.2.1, ttl: 10 }'],
      6,
      /`auto` .*seconds from 30 to 86400/,
    ],
    [
      'ttl over 86400',
      ['    dns:', '      records:', '        - { name: a, type: A, content: 192.0.2.1, ttl: 100000 }'],
      6,
      /seconds from 30 to 86400/,
    ],
    [
      'a misspelt ttl',
      ['    dns:', '      records:', '        - { name: a, type: A, content: 192.0.2.1, ttl: autoo }'],
      6,
      /`auto` .*seconds from 30 to 86400/,
    ],
    [
      'an unknown filter operator',
      [
        '    logpush:',
        '      jobs:',
        '        - name: j',
        '          dataset: http_requests',
        '          destination_conf: s3://bucket/logs?region=us-east-1',
        '          filter: { where: { and: [{ key: ClientIP, operator: matches, value: x }] } }',
      ],
      9,
      /eq/,
    ],
    ['an unknown key', ['    dsn: {}'], 4, /dsn/],
    ['a wrong type', ['    dns:', '      purge: yes please'], 5, /boolean/i],
  ];
  for (const [what, lines, line, message] of bad) {
    it(`flags ${what} where it is`, async () => {
      const diagnostics = await ls.diagnostics(
        join(desiredDir, `bad-${what.replace(/\W+/g, '-')}.yaml`),
        zone(lines),
      );
      expect(
        diagnostics.map((d) => d.range.start.line),
        JSON.stringify(diagnostics),
      ).toContain(line);
      expect(diagnostics.map((d) => d.message).join('\n')).toMatch(message);
    });
  }

  it('completes Logpush filter operators', async () => {
    const path = join(desiredDir, 'complete.yaml');
    const text = zone([
      '    logpush:',
      '      jobs:',
      '        - name: j',
      '          dataset: http_requests',
      '          destination_conf: s3://bucket/logs?region=us-east-1',
      '          filter:',
      '            where:',
      '              and:',
      '                - key: ClientIP',
      '                  operator: ',
      '                  value: x',
    ]);
    await ls.diagnostics(path, text);
    const labels = (await ls.completions(path, 13, 28)).map((l) => l.replace(/^"(.*)"$/, '$1'));
    expect(labels).toEqual(expect.arrayContaining(['eq', '!eq', 'startsWith', 'in', '!in']));
  });

  it('titled keys have descriptions (hover shows them)', () => {
    const missing: string[] = [];
    const walk = (n: unknown, path: string) => {
      if (!n || typeof n !== 'object') return;
      const node = n as Record<string, unknown>;
      if (node.title && !node.description) missing.push(`${path} (${node.title})`);
      for (const [k, v] of Object.entries(node)) walk(v, `${path}/${k}`);
    };
    walk(JSON.parse(readFileSync(SCHEMA, 'utf8')), '');
    expect(missing).toEqual([]);
  });
});

describe('the `$schema` line of an exported file', () => {
  let bed: Bed;
  let plain: YamlLanguageServer;
  beforeAll(async () => {
    bed = await startBed();
    const quick = join(bed.dir, 'quick.yaml');
    copyFileSync(join(ROOT, 'examples', 'quickstart.yaml'), quick);
    const env = { ...process.env, NO_COLOR: '1', CLOUDFLARE_API_TOKEN: bed.token };
    await run(process.execPath, [BIN, 'apply', quick, '--auto-approve', '--api-url', bed.server.url], {
      env,
    });
    // a server with no workspace setting: only the file's own `$schema` line can name the schema
    plain = await startYamlLanguageServer(dir);
  }, 60_000);
  afterAll(async () => {
    await plain?.close();
    await bed?.close();
  });

  const exportArgs = () => ['export', '--zone', 'quickstart.example', '--api-url', bed.server.url];
  const env = () => ({ ...process.env, NO_COLOR: '1', CLOUDFLARE_API_TOKEN: bed.token });
  /** the exported text with one record's TTL made invalid: an error shows only if the schema loaded */
  const broken = (text: string) => text.replace(/ttl: 3600/, 'ttl: 10');

  it('resolves when written with --out into a folder whose path holds a space', async () => {
    const folder = join(dir, 'with space', 'zones');
    mkdirSync(folder, { recursive: true });
    const out = join(folder, 'exported.yaml');
    await run(process.execPath, [BIN, ...exportArgs(), '--out', out], { env: env() });
    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(
      /^# yaml-language-server: \$schema=\S+%20\S+$|^# yaml-language-server: \$schema=\S+$/m,
    );
    expect(text).toContain('ttl: 3600');
    expect(await plain.diagnostics(out, text)).toEqual([]);
    expect((await plain.diagnostics(join(folder, 'exported-bad.yaml'), broken(text))).length).toBeGreaterThan(
      0,
    );
  });

  it('resolves when written to stdout and saved anywhere', async () => {
    const { stdout: text } = await run(process.execPath, [BIN, ...exportArgs()], {
      env: env(),
      encoding: 'utf8',
    });
    const elsewhere = join(dir, 'moved', 'deep', 'down');
    mkdirSync(elsewhere, { recursive: true });
    const path = join(elsewhere, 'exported.yaml');
    writeFileSync(path, text);
    expect(await plain.diagnostics(path, text)).toEqual([]);
    expect(
      (await plain.diagnostics(join(elsewhere, 'exported-bad.yaml'), broken(text))).length,
    ).toBeGreaterThan(0);
  });
});
