/**
 * The CLI's surface: version, help, an unknown command. In-process (test/support/cli.ts), plus one
 * run of the real binary, for what only the process can show: bin/zoneplan.js wires main() to its
 * exit status and streams.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { spawnCli } from '../support/processes.js';

const zoneplan = (args: string[]) => runCli(args);
describe('the CLI', () => {
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

  it('is the real process behind bin/zoneplan.js: exit status and stderr of a bad command', async () => {
    const r = await spawnCli(['frobnicate'], { cwd: process.cwd() });
    expect(r.code).toBe(1);
    expect(r.signal).toBeNull();
    expect(r.stderr).toMatch(/unknown command 'frobnicate'/);
    expect(r.stdout).toBe('');
  });
});
