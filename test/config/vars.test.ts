// Typed variables: `vars:`, --var-file and --var, `${var:NAME}` resolved with the variable's type,
// interpolated inside longer strings, shown in clear, and accepted by the published schema.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkFile, loadDesiredState } from '../../src/config/load.js';
import { createAjv } from '../../src/config/schema-check.js';
import { variablesFromCli } from '../../src/config/vars.js';
import type { DesiredDns } from '../../src/kinds/dns/desired.js';
import { ACCOUNT, api, cliAt, startBed, writeYaml, zoneRecords, type Bed } from '../cli-reconcile/helpers.js';
import { writeTemp } from './helpers.js';

const file = (body: string[]) =>
  [
    'version: 1',
    'vars:',
    '  ttl: 300',
    '  proxied: false',
    '  origin: 192.0.2.50',
    '  tags: [team:web, env:prod]',
    'zones:',
    '  - name: vars.example',
    `    account: ${ACCOUNT}`,
    '    dns:',
    '      records:',
    ...body,
    '',
  ].join('\n');

describe('${var:NAME} references', () => {
  it('a value that is exactly one reference takes the variable type; a longer string interpolates it', async () => {
    const f = writeTemp(
      file([
        '        - { name: "@", type: A, content: "${var:origin}", ttl: "${var:ttl}", proxied: "${var:proxied}", tags: "${var:tags}" }',
        '        - { name: www, type: TXT, content: "origin ${var:origin}, ttl ${var:ttl}, literal $${var:ttl}" }',
      ]),
    );
    const { desired } = await loadDesiredState(f, { env: {} });
    const [a, txt] = (desired.zones[0].dns as DesiredDns).records;
    expect(a).toMatchObject({
      content: '192.0.2.50',
      ttl: 300,
      proxied: false,
      tags: ['team:web', 'env:prod'],
    });
    expect(txt.content).toBe('origin 192.0.2.50, ttl 300, literal ${var:ttl}');
  });

  it('--var-file files in order, then --var, win over the file; --var values are read as YAML', async () => {
    const f = writeTemp(
      file([
        '        - { name: "@", type: A, content: "${var:origin}", ttl: "${var:ttl}", proxied: "${var:proxied}" }',
      ]),
    );
    const one = writeTemp('ttl: 600\norigin: 198.51.100.1\n', 'one.vars.yaml');
    const two = writeTemp('ttl: 900\n', 'two.vars.yaml');
    const vars = await variablesFromCli([one, two], ['proxied=true', 'ttl=auto']);
    const { desired } = await loadDesiredState(f, { env: {}, vars });
    expect((desired.zones[0].dns as DesiredDns).records[0]).toMatchObject({
      content: '198.51.100.1',
      ttl: 1,
      proxied: true,
    });
    expect((await variablesFromCli([], ['n=300'])).get('n')!.value).toBe(300);
    expect((await variablesFromCli([], ['s="300"'])).get('s')!.value).toBe('300');
  });

  it('an undefined variable is an error at its file:line:col, naming the defined ones', async () => {
    const text = file(['        - { name: "@", type: A, content: "${var:nope}" }']);
    const f = writeTemp(text);
    const r = await checkFile(f, { env: {} });
    expect(r.desired).toBeUndefined();
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ line: 12, path: 'zones[0].dns.records[0].content' });
    expect(r.diagnostics[0].message).toMatch(
      /variable nope is not defined .*defined: origin, proxied, tags, ttl/,
    );
  });

  it('a map or list variable cannot be interpolated; a bad name in vars: or --var is refused', async () => {
    const r = await checkFile(
      writeTemp(file(['        - { name: "@", type: TXT, content: "tags ${var:tags}" }'])),
      {
        env: {},
      },
    );
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      'variable tags is a list: it can only stand alone as a value, not inside a string',
    ]);
    const bad = await checkFile(writeTemp('version: 1\nvars:\n  9lives: 1\n'), { env: {} });
    expect(bad.diagnostics.map((d) => d.path)).toContain('vars.9lives');
    await expect(variablesFromCli([], ['novalue'])).rejects.toThrow(/expected NAME=VALUE/);
    await expect(variablesFromCli(['/nonexistent/vars.yaml'], [])).rejects.toThrow(
      /--var-file \/nonexistent\/vars.yaml: cannot read it/,
    );
    await expect(variablesFromCli([writeTemp('[1, 2]', 'list.vars.yaml')], [])).rejects.toThrow(
      /expected a map/,
    );
  });

  it('the shipped schema accepts references wherever a value may be, and still refuses wrong values', () => {
    const schema = JSON.parse(
      readFileSync(
        join(dirname(new URL(import.meta.url).pathname), '../../schema/zoneplan.schema.json'),
        'utf8',
      ),
    );
    const validate = createAjv().compile(schema);
    const doc = parse(
      [
        'version: 1',
        'vars: { ttl: 300 }',
        'zones:',
        '  - name: example.com',
        '    account: ${env:CF_ACCOUNT_ID}',
        '    dns:',
        '      records:',
        '        - { name: "@", type: A, content: "${var:ip}", ttl: "${var:ttl}", proxied: "${var:proxied}" }',
      ].join('\n'),
    );
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    doc.zones[0].dns.records[0].ttl = 10;
    expect(validate(doc)).toBe(false);
    doc.zones[0].dns.records[0].ttl = '${bogus:x}';
    expect(validate(doc)).toBe(false);
  });
});

describe('typed variables through the CLI', () => {
  let bed: Bed;
  beforeAll(async () => (bed = await startBed()));
  afterAll(() => bed.close());

  it('change TTL and proxied per environment, and show in the plan in clear', async () => {
    const f = writeYaml(
      bed.dir,
      'zones.yaml',
      file([
        '        - { name: "@", type: A, content: "${var:origin}", ttl: "${var:ttl}", proxied: "${var:proxied}" }',
      ]),
    );
    writeFileSync(join(bed.dir, 'prod.yaml'), 'proxied: true\nttl: auto\n');
    const apply = await cliAt(bed, ['apply', f, '--auto-approve', '--var-file', 'prod.yaml']);
    expect(apply.code, apply.stderr).toBe(0);
    let [a] = await zoneRecords(bed, 'vars.example');
    expect(a).toMatchObject({ content: '192.0.2.50', proxied: true, ttl: 1 });

    const plan = await cliAt(bed, ['plan', f, '--var', 'origin=192.0.2.99', '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(2);
    // variables are not secrets: the plan shows their values
    expect(plan.stdout).toContain('192.0.2.99');
    expect(plan.stdout).toContain('proxied: true -> false');

    const back = await cliAt(bed, ['apply', f, '--auto-approve']);
    expect(back.code, back.stderr).toBe(0);
    [a] = await zoneRecords(bed, 'vars.example');
    expect(a).toMatchObject({ proxied: false, ttl: 300 });
    const again = await cliAt(bed, ['plan', f, '--detailed-exitcode']);
    expect(again.code, again.stdout).toBe(0);
    void api;
  });
});
