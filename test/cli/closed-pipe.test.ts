/**
 * `zoneplan plan x.yaml | head -1`, `zoneplan apply ... | head`: the reader closes stdout early. The
 * command must finish its work and end without a stack trace (EPIPE is not a bug of the user's).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const bin = new URL('../../bin/zoneplan.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'zoneplan-closed-pipe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Enough records that the plan's output is far larger than a pipe's buffer (64 KiB): 2,000, so the
 * fixtures put example.com on Pro (3,500 records; a zone the CLI created would be Free, 200).
 */
function desiredFile(name: string): string {
  const fixtures = join(dir, `${name}.fixtures.yaml`);
  writeFileSync(
    fixtures,
    [
      'accounts:',
      '  - { id: 0123456789abcdef0123456789abcdef, name: Closed pipe }',
      'zones:',
      '  - { name: example.com, account: 0123456789abcdef0123456789abcdef, plan: pro }',
      '',
    ].join('\n'),
  );
  const records = Array.from(
    { length: 2000 },
    (_, i) => `        - { name: host-${i}, type: A, content: 192.0.2.${(i % 250) + 1} }`,
  );
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    [
      'version: 1',
      `target: { local: { db: ${join(dir, `${name}.db`)}, fixtures: ${fixtures} } }`,
      'zones:',
      '  - name: example.com',
      '    account: 0123456789abcdef0123456789abcdef',
      '    dns:',
      '      records:',
      ...records,
      '',
    ].join('\n'),
  );
  return file;
}

/**
 * Runs the CLI with a stdout reader that has gone away before the CLI writes (as `| head -1` has by
 * the time the rest comes): closing after a first chunk would race the CLI's last write into the
 * pipe's buffer, so the reader closes at once and every write meets the closed pipe.
 */
function runClosingEarly(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.destroy();
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

function run(args: string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

describe('stdout closed by the reader', () => {
  it('plan ends quietly with its own exit code', async () => {
    const file = desiredFile('plan');
    const r = await runClosingEarly(['plan', file, '--detailed-exitcode']);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled|internal error|\n\s+at /);
    expect(r.code, r.stderr).toBe(2);
  }, 120_000);

  it('apply finishes its work and ends quietly', async () => {
    const file = desiredFile('apply');
    const r = await runClosingEarly(['apply', file, '--auto-approve']);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled|internal error|\n\s+at /);
    expect(r.code, r.stderr).toBe(0);
    expect(await run(['plan', file, '--detailed-exitcode'])).toBe(0);
  }, 120_000);
});
