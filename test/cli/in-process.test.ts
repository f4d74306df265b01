/**
 * main(argv, io) run inside the test process: each run sees only its own io and leaves nothing
 * behind (no process.exit, no process.exitCode, no listeners, no secrets for the next run).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { redact, registerSecret, withSecretScope } from '../../src/redact.js';
import { runCli } from '../support/cli.js';

const SECRET = 'in-process-secret-4f1d2c';

function zoneFile(content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'zp-inproc-'));
  writeFileSync(
    join(dir, 'zones.yaml'),
    [
      'version: 1',
      'zones:',
      '  - name: example.com',
      '    account: 0123456789abcdef0123456789abcdef',
      '    dns:',
      '      records:',
      `        - { name: "@", type: TXT, content: "${content}" }`,
      '',
    ].join('\n'),
  );
  return dir;
}

afterEach(() => vi.restoreAllMocks());

describe('the CLI in-process', () => {
  it('returns the exit code and never calls process.exit nor sets process.exitCode', async () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation(() => {
      throw new Error('process.exit called');
    });
    const before = process.exitCode;
    const dir = zoneFile('${env:MISSING_IN_THIS_RUN}');
    const failed = await runCli(['validate', 'zones.yaml'], { cwd: dir });
    expect(failed.code).toBe(1);
    expect((await runCli(['--version'])).code).toBe(0);
    expect((await runCli(['--help'])).code).toBe(0);
    expect((await runCli(['no-such-command'])).code).toBe(1);
    expect(exit).not.toHaveBeenCalled();
    expect(process.exitCode).toBe(before);
  });

  it('reads the environment and the directory it is given, not the process', async () => {
    const dir = zoneFile('${env:ONLY_IN_IO}');
    expect(process.env.ONLY_IN_IO).toBeUndefined();
    const r = await runCli(['validate', 'zones.yaml'], { cwd: dir, env: { ONLY_IN_IO: 'v=spf1 -all' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('ok: zones.yaml: 1 zone, 1 record\n');
    expect(process.cwd()).not.toBe(dir);
    expect((await runCli(['validate', 'zones.yaml'], { cwd: dir })).code).toBe(1);
  });

  it('keeps each run its own list of secrets', async () => {
    const dir = zoneFile('${env:TXT_VALUE}');
    // the first run registers the value as a secret and prints its label instead
    const first = await runCli(['validate', '--format', 'json', 'zones.yaml'], {
      cwd: dir,
      env: { TXT_VALUE: SECRET },
    });
    expect(first.stdout).not.toContain(SECRET);
    // nothing of it reaches the test process, nor a later run
    expect(redact(`x ${SECRET} x`)).toBe(`x ${SECRET} x`);
    withSecretScope(() => {
      registerSecret(SECRET);
      expect(redact(SECRET)).toBe('[REDACTED]');
    });
    expect(redact(SECRET)).toBe(SECRET);
  });

  it('leaves no process listeners behind', async () => {
    const counts = () =>
      ['SIGINT', 'SIGTERM', 'exit', 'uncaughtException'].map((e) => process.listenerCount(e));
    const before = counts();
    await runCli(['--help']);
    await runCli(['validate', 'nowhere.yaml']);
    expect(counts()).toEqual(before);
  });
});
