/**
 * Variables that cannot be misspelt (docs/file-format.md, "Variables"), through the CLI against
 * the local API: a misspelt `--var` or var-file key, a value of the wrong type, a reference to an
 * undeclared variable, a declared variable left without a value and a var file meant for another
 * target are each refused, naming the var file and line (or the file and line of the reference)
 * and the closest name; nothing is written to the target.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT, cli, startBed, tempDir, zoneRecords, type Bed } from './helpers.js';

const ZONE = 'mistakes.example';
let bed: Bed;
let dir: string;
beforeAll(async () => {
  bed = await startBed();
  dir = tempDir();
  mkdirSync(join(dir, 'vars'));
});
afterAll(() => bed.close());

/** zones.yaml: a declared string without default and a number with one, both used by the A record. */
const declared = (reference = 'apex_origin') =>
  [
    'version: 1',
    'variables:',
    '  apex_origin: { type: string, description: where the apex points }',
    '  ttl: { type: number, default: 300 }',
    'zones:',
    `  - name: ${ZONE}`,
    `    account: ${ACCOUNT}`,
    '    dns:',
    '      records:',
    `        - { name: "@", type: A, content: "\${var:${reference}}", ttl: "\${var:ttl}" }`,
    '',
  ].join('\n');

function write(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return name;
}

/** `plan` with the given arguments: refused with exit 1, and nothing but reads reached the target. */
async function refused(args: string[]): Promise<string> {
  const r = await cli(['plan', ...args, '--api-url', bed.contract.url], {
    cwd: dir,
    env: { CLOUDFLARE_API_TOKEN: bed.token },
  });
  expect(r.code, r.stdout + r.stderr).toBe(1);
  expect(bed.contract.exchanges.filter((x) => x.method !== 'GET')).toEqual([]);
  return r.stderr;
}

describe('variable mistakes are refused with their place and the closest name', () => {
  it('a misspelt --var or var-file key, declared with variables: or vars:', async () => {
    write('zones.yaml', declared());
    expect(
      await refused(['zones.yaml', '--var', 'apex_origin=192.0.2.1', '--var', 'apex_orgin=192.0.2.9']),
    ).toContain(
      '--var apex_orgin=...: variable apex_orgin is not declared or used by any desired file; did you mean apex_origin?',
    );
    write('vars/typo.yaml', '# production\napex_origin: 192.0.2.1\nTTL: 600\n');
    expect(await refused(['zones.yaml', '--var-file', 'vars/typo.yaml'])).toContain(
      'vars/typo.yaml:3:1: variable TTL is not declared or used by any desired file; did you mean ttl?',
    );
    // the case: `vars:` (the short form) and a --var typo that used to plan the default
    write(
      'short.yaml',
      [
        'version: 1',
        'vars: { origin: 192.0.2.50 }',
        'zones:',
        `  - name: ${ZONE}`,
        `    account: ${ACCOUNT}`,
        '    dns: { records: [{ name: "@", type: A, content: "${var:origin}" }] }',
        '',
      ].join('\n'),
    );
    expect(await refused(['short.yaml', '--var', 'orgin=192.0.2.9'])).toContain(
      '--var orgin=...: variable orgin is not declared or used by any desired file; did you mean origin?',
    );
  });

  it('a file that does not parse reports its syntax error, not the --var it uses as unknown', async () => {
    // an unquoted reference in a flow mapping: `{` and `}` are YAML syntax there
    write(
      'unquoted.yaml',
      declared().replace('content: "${var:apex_origin}"', 'content: ${var:apex_origin}'),
    );
    const stderr = await refused(['unquoted.yaml', '--var', 'apex_origin=192.0.2.1']);
    expect(stderr).toMatch(/^unquoted\.yaml:10:\d+: YAML syntax error/m);
    expect(stderr).not.toContain('not declared or used');
  });

  it('a value of the wrong type, in a var file or a default', async () => {
    write('zones.yaml', declared());
    write('vars/bad.yaml', 'apex_origin: 192.0.2.1\nttl: auto\n');
    expect(await refused(['zones.yaml', '--var-file', 'vars/bad.yaml'])).toContain(
      'vars/bad.yaml:2:1: variable ttl is declared as a number at zones.yaml:4:3, but this value is a string ("auto")',
    );
    write('typed.yaml', declared().replace('default: 300', 'default: soon'));
    expect(await refused(['typed.yaml', '--var', 'apex_origin=192.0.2.1'])).toMatch(
      /typed\.yaml:4:\d+: variables\.ttl\.default: the default of `ttl` is a string \("soon"\), not a number/,
    );
  });

  it('a reference to an undeclared variable, and a declared one left without a value', async () => {
    write('ref.yaml', declared('apex_orign'));
    expect(await refused(['ref.yaml', '--var', 'apex_origin=192.0.2.1'])).toMatch(
      /ref\.yaml:10:\d+: zones\[0\]\.dns\.records\[0\]\.content: variable apex_orign is not declared .*; declare it under `variables:`, or did you mean apex_origin\?/,
    );
    // declared variables are the only names: the misspelt one given on the command line too
    expect(
      await refused(['ref.yaml', '--var', 'apex_origin=192.0.2.1', '--var', 'apex_orign=192.0.2.1']),
    ).toMatch(/ref\.yaml:10:\d+: .*variable apex_orign is not declared .*did you mean apex_origin\?/);
    write('zones.yaml', declared());
    expect(await refused(['zones.yaml'])).toMatch(
      /zones\.yaml:3:3: variables\.apex_origin: variable `apex_origin` has no default and is not given: pass --var apex_origin=VALUE/,
    );
  });

  it('a var file for another target: its api_url or its accounts', async () => {
    write('zones.yaml', declared());
    write(
      'vars/production.yaml',
      'target:\n  api_url: https://api.cloudflare.com/client/v4\napex_origin: 192.0.2.1\n',
    );
    expect(await refused(['zones.yaml', '--var-file', 'vars/production.yaml'])).toContain(
      `vars/production.yaml:1:1: this var file is for https://api.cloudflare.com/client/v4 (target.api_url), but this run targets ${bed.contract.url}`,
    );
    // a misspelt key of the target is named where it is, with the closest one
    write('vars/typo.yaml', `target:\n  accounts: [${ACCOUNT}]\n  api_ulr: ${bed.contract.url}\n`);
    expect(await refused(['zones.yaml', '--var-file', 'vars/typo.yaml'])).toContain(
      "vars/typo.yaml:3:3: target.api_ulr: a var file's target has only api_url and accounts; did you mean api_url?",
    );
    write('vars/staging.yaml', `target:\n  accounts: [${'f'.repeat(32)}]\napex_origin: 192.0.2.1\n`);
    expect(await refused(['zones.yaml', '--var-file', 'vars/staging.yaml'])).toContain(
      `vars/staging.yaml:1:1: this var file is for the accounts ${'f'.repeat(32)} (target.accounts), but the desired state names account ${ACCOUNT}`,
    );
    // the var file of this target plans
    write(
      'vars/local.yaml',
      `target:\n  api_url: ${bed.contract.url}\n  accounts: [${ACCOUNT}]\napex_origin: 192.0.2.1\n`,
    );
    const ok = await cli(
      ['plan', 'zones.yaml', '--var-file', 'vars/local.yaml', '--api-url', bed.contract.url],
      {
        cwd: dir,
        env: { CLOUDFLARE_API_TOKEN: bed.token },
      },
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('192.0.2.1');
    expect(await zoneRecords(bed, ZONE)).toEqual([]);
  });
});
