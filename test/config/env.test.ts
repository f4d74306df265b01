import { afterEach, describe, expect, it } from 'vitest';
import { checkFile, loadDesiredState } from '../../src/config/load.js';
import { ConfigError } from '../../src/errors.js';
import { clearSecrets, redact } from '../../src/redact.js';
import { lint, pos, writeTemp } from './helpers.js';
import type { DesiredDns } from '../../src/kinds/dns/desired.js';

const withComment = (value: string) =>
  [
    'version: 1',
    'zones:',
    '  - name: example.com',
    '    dns:',
    '      records:',
    '        - { name: "@", type: A, content: 192.0.2.1 }',
    `        - { name: "@", type: TXT, content: "${value}" }`,
    '',
  ].join('\n');

afterEach(() => clearSecrets());

describe('${env:NAME} references', () => {
  it('resolves a reference anywhere in a string and registers the value as a secret', async () => {
    const file = writeTemp(withComment('verify=${env:SITE_TOKEN};v=1'));
    const { desired } = await loadDesiredState(file, { env: { SITE_TOKEN: 's3cr3t-value-123' } });
    expect((desired.zones[0].dns as DesiredDns).records[1].content).toBe('verify=s3cr3t-value-123;v=1');
    expect(redact('token is s3cr3t-value-123')).toBe('token is (from env SITE_TOKEN)');
  });

  it('warns that a value too short to be hidden will be shown', async () => {
    const file = writeTemp(withComment('pin=${env:SHORT_PIN}'));
    const result = await checkFile(file, { env: { SHORT_PIN: '12345' } });
    expect(result.desired).toBeDefined();
    expect(result.diagnostics.map((d) => [d.severity, d.path, d.message])).toEqual([
      [
        'warning',
        'zones[0].dns.records[1].content',
        'the value of SHORT_PIN is shorter than 6 characters, too short to be hidden in output: it will be shown where it is used',
      ],
    ]);
  });

  it('reports a missing variable as an error at the string that names it', async () => {
    const src = withComment('${env:MISSING_ONE}');
    expect(await lint(src)).toEqual([
      `t.yaml:${pos(src, '"${env')}: zones[0].dns.records[1].content: environment variable MISSING_ONE is not set (referenced as \`\${env:MISSING_ONE}\`)`,
    ]);
  });

  it('turns a missing variable into a warning when asked (validate in CI without secrets)', async () => {
    const file = writeTemp(withComment('${env:MISSING_TWO}'));
    const result = await checkFile(file, { env: {}, allowMissingEnv: true });
    expect(result.desired).toBeDefined();
    expect(result.diagnostics.map((d) => d.severity)).toEqual(['warning']);
  });

  it('rejects a malformed or unclosed reference', async () => {
    const bad = await lint(withComment('${env:1BAD}'));
    expect(bad[0]).toMatch(/is not a valid reference/);
    const open = await lint(withComment('${env:OPEN'));
    expect(open[0]).toMatch(/is not closed with `}`/);
  });

  it('keeps `$${env:NAME}` as the literal text', async () => {
    const file = writeTemp(withComment('$${env:LITERAL}'));
    const { desired } = await loadDesiredState(file, { env: {} });
    expect((desired.zones[0].dns as DesiredDns).records[1].content).toBe('${env:LITERAL}');
  });

  it('never shows a resolved value in a diagnostic', async () => {
    // the value makes the record invalid, so the message would quote it
    const src = withComment('x').replace('content: 192.0.2.1', 'content: "${env:ORIGIN_IP}"');
    const file = writeTemp(src);
    const err = await loadDesiredState(file, { env: { ORIGIN_IP: 'not-an-ip-secret' } }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    const text = (err as ConfigError).diagnostics.map((d) => d.message).join('\n');
    expect(text).toContain('(from env ORIGIN_IP)');
    expect(text).not.toContain('not-an-ip-secret');
  });

  it('never quotes a secret-looking URL parameter of a value', async () => {
    const out = await lint('version: 1\ntarget: { api_url: "ftp://h/?token=abcdef123456&x=1" }\n');
    expect(out).toEqual([
      't.yaml:2:20: target.api_url: expected an http:// or https:// URL, got the string "ftp://h/?token=[REDACTED]&x=1"',
    ]);
  });

  it('does not resolve map keys', async () => {
    const out = await lint('version: 1\n"${env:X}": 1\n', { env: { X: 'zones' } });
    expect(out).toEqual([
      't.yaml:2:1: ["${env:X}"]: unknown key `${env:X}` (expected one of: version, vars, variables, target, accounts, zones)',
    ]);
  });
});
