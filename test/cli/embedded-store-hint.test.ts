/**
 * Commands with no desired file (export, page-shield report, logpush ownership) open the embedded
 * local API in the current directory (or beside --out), while plan and apply keep theirs beside their
 * file. A zone missing from that store says which store was read and how to reach the other one.
 */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../cli-reconcile/helpers.js';
import { runCli } from '../support/cli.js';

const HINT =
  /this looked in the embedded local API over \.zoneplan\/local\.db, and plan and apply keep theirs beside their file: run this in that directory, pass -f FILE where the command takes it, or --api-url/;

describe('a zone missing from the embedded store', () => {
  it('export names the store it read', async () => {
    const r = await runCli(['export', '--zone', 'elsewhere.example'], { cwd: tempDir() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('zone not found on the target: elsewhere.example');
    expect(r.stderr).toMatch(HINT);
  });

  it('export names it for a --zone pattern or an --out-dir account that finds no zone', async () => {
    const cwd = tempDir();
    const pattern = await runCli(['export', '--zone', 'elsewhere-*.example'], { cwd });
    expect(pattern.code).toBe(1);
    expect(pattern.stderr).toContain('--zone elsewhere-*.example matches no zone on the target');
    expect(pattern.stderr).toMatch(HINT);
    const account = await runCli(
      ['export', '--account', '0123456789abcdef0123456789abcdef', '--out-dir', 'zones'],
      {
        cwd,
      },
    );
    expect(account.code).toBe(1);
    expect(account.stderr).toContain('has no zone on the target');
    expect(account.stderr).toMatch(/this looked in the embedded local API over zones\/\.zoneplan\/local\.db/);
  });

  it('page-shield report and logpush ownership name it too', async () => {
    const cwd = tempDir();
    const report = await runCli(['page-shield', 'report', 'elsewhere.example'], { cwd });
    expect(report.code).toBe(1);
    expect(report.stderr).toMatch(HINT);
    const own = await runCli(['logpush', 'ownership', 'elsewhere.example', 's3://b/logs?region=us-east-1'], {
      cwd,
    });
    expect(own.code).toBe(1);
    expect(own.stderr).toMatch(HINT);
  });

  it('another target gets no such hint', async () => {
    const r = await runCli(
      ['export', '--zone', 'elsewhere.example', '--api-url', 'http://127.0.0.1:9/client/v4'],
      {
        cwd: tempDir(),
        env: { CLOUDFLARE_API_TOKEN: 'hint-test-token-1234' },
      },
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr).not.toContain('this looked in the embedded local API');
  });
});
