/** `zoneplan validate` as users run it: the CLI in-process (test/support/cli.ts). */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { pos, writeTemp, zoneWith } from './helpers.js';

const root = new URL('../../', import.meta.url).pathname;

function zoneplan(args: string[], env: Record<string, string> = {}) {
  // no credentials, and a target that refuses connections: validate must need neither
  return runCli(args, { cwd: root, env: { CLOUDFLARE_BASE_URL: 'http://127.0.0.1:1/client/v4', ...env } });
}

// each test has its own temp files (runCli queues the runs themselves)
describe.concurrent('zoneplan validate', () => {
  it('accepts the quick start offline and says what it holds', async () => {
    const r = await zoneplan(['validate', 'examples/quickstart.yaml']);
    expect(r).toMatchObject({ code: 0, stdout: 'ok: examples/quickstart.yaml: 1 zone, 13 records\n' });
  });

  it('prints every problem as file:line:col: path: message and exits 1', async () => {
    const src = zoneWith([
      '{ name: "@", type: A, content: 192.0.2.1, proxy: true }',
      '{ name: www, type: A, content: 192.0.2.2, ttl: 10 }',
    ]);
    const file = writeTemp(src);
    const r = await zoneplan(['validate', file]);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      `${file}:${pos(src, 'proxy')}: zones[0].dns.records[0].proxy: unknown key \`proxy\`; did you mean \`proxied\`?`,
      `${file}:${pos(src, '10 }')}: zones[0].dns.records[1].ttl: expected \`auto\`, 1 or a whole number from 30 to 86400, got the number 10`,
    ]);
    expect(r.stderr).toBe('error: 2 problems in 1 file\n');
  });

  it('checks several files, reports each, and fails when any fails', async () => {
    const bad = writeTemp('version: 1\nzones: {}\n');
    const r = await zoneplan(['validate', 'examples/quickstart.yaml', bad]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      `ok: examples/quickstart.yaml: 1 zone, 13 records\n${bad}:2:8: zones: expected a list, got a map of keys\n`,
    );
  });

  it('prints warnings and still passes', async () => {
    const file = writeTemp(zoneWith(['{ name: www, type: CNAME, content: example.net }']));
    const r = await zoneplan(['validate', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^.*:7:9: zones\[0\]\.dns\.records: warning: the zone has no A or AAAA record.*\nok: .*: 1 zone, 1 record\n$/,
    );
  });

  it('--format json prints a stable document', async () => {
    const file = writeTemp(
      'version: 1\nzones:\n  - name: example.com\n    dns: { records: [], purg: true }\n',
    );
    const r = await zoneplan(['validate', '--format', 'json', file, 'examples/quickstart.yaml']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      files: [
        {
          file,
          ok: false,
          zones: 0,
          records: 0,
          diagnostics: [
            {
              file,
              line: 4,
              col: 25,
              path: 'zones[0].dns.purg',
              message: 'unknown key `purg`; did you mean `purge`?',
              severity: 'error',
            },
          ],
        },
        { file: 'examples/quickstart.yaml', ok: true, zones: 1, records: 13, diagnostics: [] },
      ],
    });
  });

  it('never prints a value read from the environment', async () => {
    const file = writeTemp(zoneWith(['{ name: "@", type: A, content: "${env:ORIGIN_SECRET}" }']));
    const r = await zoneplan(['validate', file], { ORIGIN_SECRET: 'hunter2-very-secret' });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).not.toContain('hunter2-very-secret');
    expect(r.stdout).toContain('(from env ORIGIN_SECRET)');
    const missing = await zoneplan(['validate', file]);
    expect(missing.stdout).toMatch(/environment variable ORIGIN_SECRET is not set/);
    const allowed = await zoneplan(['validate', '--allow-missing-env', file]);
    expect(allowed.stdout).toMatch(/warning: environment variable ORIGIN_SECRET is not set/);
  });

  it('says plainly when a file is missing, and refuses --format markdown', async () => {
    const r = await zoneplan(['validate', 'no-such-file.yaml']);
    expect(r).toMatchObject({ code: 1, stdout: 'no-such-file.yaml:1:1: no such file\n' });
    const md = await zoneplan(['validate', '--format', 'markdown', 'examples/quickstart.yaml']);
    expect(md.code).toBe(1);
    expect(md.stderr).toMatch(/validate prints --format text or json/);
  });
});
