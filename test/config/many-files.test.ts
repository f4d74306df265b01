import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkFiles, expandPaths, loadDesiredFiles } from '../../src/config/desired-files.js';
import { mergeDesiredStates } from '../../src/config/merge.js';
import type { DesiredState, DesiredZone } from '../../src/config/model.js';
import { clearSecrets, redactForStep } from '../../src/redact.js';

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

  it('a file whose bytes the caller read already is parsed from them, not read again', async () => {
    const dir = dirWith({
      'a.yaml': zone('a.example', '192.0.2.1'),
      'b.yaml': zone('b.example', '192.0.2.2'),
    });
    // the bytes given for a.yaml are not what the disk holds: what is parsed shows which was used
    const bytes = Buffer.from(zone('given.example', '192.0.2.9'));
    const { desired } = await loadDesiredFiles([join(dir, 'a.yaml'), join(dir, 'b.yaml')], {
      env: {},
      read: { path: join(dir, 'a.yaml'), bytes },
    });
    expect(desired.zones.map((z) => z.name)).toEqual(['given.example', 'b.example']);
    // the source is these bytes: its hash too
    const { createHash } = await import('node:crypto');
    expect(desired.source.sha256s?.[0]).toBe(createHash('sha256').update(bytes).digest('hex'));
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

/** A zone entry of `name` with `body` (YAML lines under the entry, indented by four). */
const zoneOf = (name: string, ...body: string[]) =>
  ['version: 1', 'zones:', `  - name: ${name}`, ...body.map((l) => `    ${l}`), ''].join('\n');
const ACCOUNT = '0123456789abcdef0123456789abcdef';

/** The files' check: every error as `file:line:col: path: message`, the file relative to `dir`. */
async function problems(dir: string, files: string[]): Promise<string[]> {
  const { checks, desired } = await checkFiles(
    files.map((f) => join(dir, f)),
    { env: {} },
  );
  expect(desired).toBeUndefined();
  return checks
    .flatMap((c) => c.diagnostics)
    .filter((d) => d.severity === 'error')
    .map((d) => `${d.file}:${d.line}:${d.col}: ${d.path}: ${d.message}`.replaceAll(dir + '/', ''));
}

const records = (zone: DesiredZone) => (zone.dns as { records: { name: string; path: string }[] }).records;

describe('one zone declared in several files', () => {
  const platform = zoneOf(
    'acme.com',
    `account: ${ACCOUNT}`,
    'dns:',
    '  purge: true',
    '  records:',
    '    - { name: "@", type: A, content: 192.0.2.1 }',
    '    - { name: www, type: CNAME, content: acme.com }',
  );
  const product = zoneOf(
    'Acme.com.',
    `account: ${ACCOUNT}`,
    'dns:',
    '  records:',
    '    - { name: blog, type: A, content: 192.0.2.10 }',
    '    - { name: "@", type: A, content: 192.0.2.1 }',
  );

  it('unites the records, keeps the one setting, and every path leads back to its own file', async () => {
    const dir = dirWith({ 'platform.yaml': platform, 'product.yaml': product });
    const { desired } = await loadDesiredFiles([join(dir, 'platform.yaml'), join(dir, 'product.yaml')], {
      env: {},
    });
    expect(desired.zones).toHaveLength(1);
    const zone = desired.zones[0]!;
    expect([zone.name, zone.account, zone.path]).toEqual(['acme.com', ACCOUNT, 'zones[0]']);
    expect((zone.dns as { purge?: boolean }).purge).toBe(true);
    // the apex record is declared in both files, identically: one record
    expect(records(zone).map((r) => [r.name, r.path])).toEqual([
      ['@', 'zones[0].dns.records[0]'],
      ['www', 'zones[0].dns.records[1]'],
      ['blog', 'zones[0].dns.records[2]'],
    ]);
    const at = (path: string) => {
      const l = desired.locations.get(path)!;
      return `${l.file.replace(dir + '/', '')}:${l.line}:${l.col}`;
    };
    expect(at('zones[0].dns.records[1]')).toBe('platform.yaml:9:11');
    expect(at('zones[0].dns.records[2]')).toBe('product.yaml:7:11');
    expect(at('zones[0].dns.records[2].content')).toBe('product.yaml:7:43');
    expect(at('zones[0].dns.purge')).toBe('platform.yaml:6:14');
    expect(at('zones[0].name')).toBe('platform.yaml:3:11');
  });

  it('gives the same state whatever the order of the files', async () => {
    const dir = dirWith({
      'platform.yaml': platform,
      'product.yaml': product,
      'other.yaml': zone('b.example', '192.0.2.2'),
    });
    const state = async (files: string[]) => {
      const { desired } = await loadDesiredFiles(
        files.map((f) => join(dir, f)),
        { env: {} },
      );
      return { zones: desired.zones, files: desired.source.files, sha256: desired.source.sha256 };
    };
    const forward = await state(['platform.yaml', 'product.yaml', 'other.yaml']);
    expect(forward.zones.map((z) => z.name)).toEqual(['b.example', 'acme.com']);
    expect(await state(['product.yaml', 'other.yaml', 'platform.yaml'])).toEqual(forward);
  });

  it('refuses one record declared twice with different values, naming both places', async () => {
    const dir = dirWith({
      'a.yaml': zoneOf('acme.com', 'dns:', '  records:', '    - { name: www, type: A, content: 192.0.2.1 }'),
      'b.yaml': zoneOf(
        'acme.com',
        'dns:',
        '  records:',
        '    - { name: www.acme.com., type: A, content: 192.0.2.1, ttl: 300 }',
      ),
    });
    expect(await problems(dir, ['b.yaml', 'a.yaml'])).toEqual([
      'b.yaml:6:11: zones[0].dns.records[0]: zone `acme.com`: this dns.records entry is also declared, with other values, at a.yaml:6:11; declare it in one file, or the same in both',
    ]);
  });

  it('refuses a setting declared in two files, even with the same value', async () => {
    const dir = dirWith({
      'a.yaml': zoneOf(
        'acme.com',
        'dns:',
        '  purge: true',
        '  records: []',
        'page_shield: { enabled: true }',
      ),
      'b.yaml': zoneOf(
        'acme.com',
        'dns:',
        '  purge: true',
        '  records: []',
        'page_shield: { enabled: false }',
      ),
    });
    expect(await problems(dir, ['a.yaml', 'b.yaml'])).toEqual([
      'b.yaml:5:14: zones[0].dns.purge: `dns.purge` of zone `acme.com` is also set at a.yaml:5:14; a setting is declared in one file only',
      'b.yaml:7:29: zones[0].page_shield.enabled: `page_shield.enabled` of zone `acme.com` is also set at a.yaml:7:29; a setting is declared in one file only',
    ]);
  });

  it('refuses a kind with no lists (waf), `delete` and a different account declared twice', async () => {
    const waf = 'waf: { managed_rules: previous }';
    const dir = dirWith({
      'a.yaml': zoneOf('acme.com', `account: ${ACCOUNT}`, waf),
      'b.yaml': zoneOf('acme.com', `account: ${'f'.repeat(32)}`, waf),
      'c.yaml': zoneOf('gone.example', 'delete: true'),
      'd.yaml': zoneOf('gone.example', 'delete: true'),
    });
    expect(await problems(dir, ['a.yaml', 'b.yaml', 'c.yaml', 'd.yaml'])).toEqual([
      'b.yaml:4:14: zones[0].account: `account` of zone `acme.com` differs from the one at a.yaml:4:14; files that repeat it give the same value',
      'b.yaml:5:10: zones[0].waf: `waf` of zone `acme.com` is also set at a.yaml:5:10; a setting is declared in one file only',
      'd.yaml:4:13: zones[0].delete: `delete` of zone `gone.example` is also set at c.yaml:4:13; a setting is declared in one file only',
    ]);
  });

  it('unites the notification policies of one account, a policy by its name', async () => {
    const account = (...policies: string[]) =>
      [
        'version: 1',
        'accounts:',
        `  - id: ${ACCOUNT}`,
        '    load_balancing:',
        '      notifications:',
        ...policies.map((p) => `        - ${p}`),
        '',
      ].join('\n');
    const ops = '{ name: Ops, alert_type: load_balancing_health_alert, email: [ops@acme.com] }';
    const dir = dirWith({
      'a.yaml': account(ops),
      'b.yaml': account('{ name: Web, alert_type: load_balancing_health_alert, email: [web@acme.com] }', ops),
      'c.yaml': account('{ name: " ops", alert_type: load_balancing_health_alert, email: [x@acme.com] }'),
    });
    const { desired } = await loadDesiredFiles([join(dir, 'a.yaml'), join(dir, 'b.yaml')], { env: {} });
    expect(desired.accounts).toHaveLength(1);
    const lb = desired.accounts[0]!.load_balancing as { notifications: { name: string }[] };
    expect(lb.notifications.map((n) => n.name)).toEqual(['Ops', 'Web']);
    expect(desired.locations.get('accounts[0].load_balancing.notifications[1]')?.file).toBe(
      join(dir, 'b.yaml'),
    );
    expect(await problems(dir, ['a.yaml', 'c.yaml'])).toEqual([
      'c.yaml:6:11: accounts[0].load_balancing.notifications[0]: account `0123456789abcdef0123456789abcdef`: this load_balancing.notifications entry is also declared, with other values, at a.yaml:6:11; declare it in one file, or the same in both',
    ]);
  });
});

describe('an `${env:}` value of a zone declared in two files', () => {
  afterEach(() => clearSecrets());

  it('is masked in the steps of its own record of the merged zone, not in the others', async () => {
    const secret = 'token-0123456789';
    const dir = dirWith({
      'a.yaml': zoneOf('acme.com', 'dns:', '  records:', '    - { name: www, type: A, content: 192.0.2.1 }'),
      'b.yaml': [
        zone('b.example', '192.0.2.2'),
        '  - name: acme.com',
        '    dns:',
        '      records:',
        '        - { name: "@", type: A, content: 192.0.2.1 }',
        '        - { name: verify, type: TXT, content: "${env:VERIFY}" }',
        '',
      ].join('\n'),
    });
    const { desired } = await loadDesiredFiles([join(dir, 'b.yaml'), join(dir, 'a.yaml')], {
      env: { VERIFY: secret },
    });
    const acme = desired.zones.find((z) => z.name === 'acme.com')!;
    const verify = records(acme).find((r) => r.name === 'verify')!;
    expect([acme.path, verify.path]).toEqual(['zones[0]', 'zones[0].dns.records[2]']);
    expect(redactForStep(secret, 'zones[0].dns.records[2]')).not.toContain(secret);
    expect(redactForStep(secret, 'zones[0].dns.records[1]')).toBe(secret);
    expect(redactForStep(secret, 'zones[1].dns.records[0]')).toBe(secret);
  });
});

describe('a zone-level field the merger does not know (another feature of the zone entry)', () => {
  /** a checked one-file state whose one zone has `fields`, located at line 4 of `file` */
  const stateOf = (file: string, fields: Record<string, unknown>): DesiredState => ({
    version: 1,
    source: { files: [file], sha256: file },
    accounts: [],
    zones: [{ name: 'acme.com', path: 'zones[0]', ...fields }],
    locations: new Map(Object.keys(fields).map((k) => [`zones[0].${k}`, { file, line: 4, col: 12 }])),
  });

  it('may be repeated with the same value, and is an error naming both places with another', () => {
    const same = mergeDesiredStates([
      stateOf('b.yaml', { owner: 'web' }),
      stateOf('a.yaml', { owner: 'web' }),
    ]);
    expect(same.problems).toEqual([]);
    expect(same.desired!.zones).toEqual([{ name: 'acme.com', owner: 'web', path: 'zones[0]' }]);
    const other = mergeDesiredStates([
      stateOf('a.yaml', { owner: 'web' }),
      stateOf('b.yaml', { owner: 'shop' }),
    ]);
    expect(other.desired).toBeUndefined();
    expect(other.problems).toEqual([
      {
        file: 'b.yaml',
        line: 4,
        col: 12,
        path: 'zones[0].owner',
        message:
          '`owner` of zone `acme.com` differs from the one at a.yaml:4:12; files that repeat it give the same value',
        severity: 'error',
      },
    ]);
  });
});

describe("the kinds' checks of a zone declared in several files", () => {
  const policy = (description: string) =>
    `    - { description: ${description}, action: log, expression: 'http.host eq "acme.com"', value: "script-src 'self'" }`;
  const platform = zoneOf(
    'acme.com',
    'dns:',
    '  records:',
    '    - { name: "@", type: A, content: 192.0.2.1 }',
    '    - { name: shop, type: A, content: 192.0.2.5 }',
    'page_shield:',
    '  policies:',
    policy('platform'),
  );

  it('judge the whole zone: a proxied CNAME may point at a record of another file, and the zone has its A record', async () => {
    const dir = dirWith({
      'platform.yaml': platform,
      'product.yaml': zoneOf(
        'acme.com',
        'dns:',
        '  records:',
        '    - { name: blog, type: CNAME, content: acme.com, proxied: true }',
        '    - { name: _verify, type: TXT, content: token }',
        'page_shield:',
        '  policies:',
        policy('product'),
      ),
    });
    const { checks, desired } = await checkFiles([join(dir, 'product.yaml'), join(dir, 'platform.yaml')], {
      env: {},
    });
    expect(checks.flatMap((c) => c.diagnostics)).toEqual([]);
    expect(records(desired!.zones[0]!).map((r) => r.name)).toEqual(['@', 'shop', 'blog', '_verify']);
    // the product file alone is not a valid zone: its CNAME's target has no address there
    const alone = await checkFiles([join(dir, 'product.yaml')], { env: {} });
    expect(alone.desired).toBeUndefined();
  });

  it('a CNAME beside another file’s record is an error in its own file, citing the other record’s place', async () => {
    const dir = dirWith({
      'platform.yaml': platform,
      'product.yaml': zoneOf(
        'acme.com',
        'dns:',
        '  records:',
        '    - { name: shop, type: CNAME, content: shops.example.net }',
      ),
      'empty.yaml': zoneOf(
        'empty.example',
        'dns:',
        '  records:',
        '    - { name: www, type: TXT, content: x }',
      ),
      'empty-too.yaml': zoneOf(
        'empty.example',
        'dns:',
        '  records:',
        '    - { name: www2, type: TXT, content: y }',
      ),
    });
    const files = ['platform.yaml', 'product.yaml', 'empty.yaml', 'empty-too.yaml'];
    const { checks } = await checkFiles(
      files.map((f) => join(dir, f)),
      { env: {} },
    );
    const all = checks
      .flatMap((c) => c.diagnostics)
      .map((d) =>
        `${d.file}:${d.line}:${d.col}: ${d.path}: ${d.severity}: ${d.message}`.replaceAll(dir + '/', ''),
      );
    expect(all).toEqual([
      'product.yaml:6:11: zones[0].dns.records[0]: error: a CNAME must be the only record at its name, and records[1] at platform.yaml:7:11 (A) is also at shop.acme.com',
      // the zone of two files has no address record: said once, at the records of its first file by path
      'empty-too.yaml:6:9: zones[0].dns.records: warning: the zone has no A or AAAA record; the service requires at least one per zone, and apply will not remove the last one',
    ]);
  });
});
