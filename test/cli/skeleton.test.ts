import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const bin = new URL('../../bin/zoneplan.js', import.meta.url).pathname;

async function zoneplan(args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('the built CLI', () => {
  it('prints its version', async () => {
    const r = await zoneplan(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('lists every command of the design in --help', async () => {
    const r = await zoneplan(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['validate', 'plan', 'apply', 'drift', 'export', 'serve', 'page-shield', 'logpush']) {
      expect(r.stdout).toContain(c);
    }
  });

  it('rejects an unknown command with exit 1', async () => {
    const r = await zoneplan(['frobnicate']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/unknown command/);
  });
});
