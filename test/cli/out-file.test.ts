/**
 * `--out` of plan and export, through the built CLI: an input of the run is never replaced (not
 * even with --force), an existing file only with --force, a symbolic link or a directory never
 * (the file a link points at is untouched), and a write leaves no temporary file behind.
 */
import { lstatSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { requireBuild, spawnCli, type CliRun } from '../support/processes.js';
import { tempDir } from '../cli-reconcile/helpers.js';

const ACCOUNT = '0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f';
const TOKEN = 'out-file-token-0123456789abcdef';
const ZONE = 'out.example';
const DESIRED = `version: 1
zones:
  - name: ${ZONE}
    account: ${ACCOUNT}
    dns:
      records:
        - { name: "@", type: A, content: "\${var:ip}" }
`;
const VICTIM = 'the victim file, unchanged\n';

let dir: string;
let server: RunningServer;

function run(args: string[]): Promise<CliRun> {
  return spawnCli([...args, '--api-url', server.url], {
    cwd: dir,
    env: { CLOUDFLARE_API_TOKEN: TOKEN },
    timeoutMs: 20_000,
  });
}

const plan = (out: string, ...more: string[]) =>
  run(['plan', 'zones.yaml', '--var-file', 'vars.yaml', '--out', out, ...more]);
const exportTo = (out: string, ...more: string[]) => run(['export', '--zone', ZONE, '--out', out, ...more]);
const read = (name: string) => readFileSync(join(dir, name), 'utf8');

async function expectRefused(r: Promise<CliRun>, reason: RegExp): Promise<void> {
  const done = await r;
  expect(done.code, done.stderr).toBe(1);
  expect(done.stderr).toMatch(reason);
}

beforeAll(async () => {
  requireBuild();
  dir = tempDir();
  server = await startServer({
    db: join(dir, 'api.db'),
    quiet: true,
    fixtures: {
      accounts: [{ id: ACCOUNT, name: 'Out' }],
      zones: [{ name: ZONE, account: ACCOUNT, records: [{ name: '@', type: 'A', content: '192.0.2.1' }] }],
      tokens: [{ name: 'ci', value: TOKEN, zones: 'all', accounts: 'all', permissions: 'edit' }],
    },
  });
  writeFileSync(join(dir, 'zones.yaml'), DESIRED);
  writeFileSync(join(dir, 'vars.yaml'), 'ip: 192.0.2.2\n');
  writeFileSync(join(dir, 'victim.txt'), VICTIM);
  symlinkSync(join(dir, 'victim.txt'), join(dir, 'link.json'));
  symlinkSync(join(dir, 'victim.txt'), join(dir, 'link.yaml'));
  mkdirSync(join(dir, 'a-directory'));
});
afterAll(() => server?.close());

describe('plan --out', () => {
  it('never replaces an input of the run, even with --force', async () => {
    for (const force of [[], ['--force']]) {
      await expectRefused(
        plan('zones.yaml', ...force),
        /--out zones\.yaml is zones\.yaml, which this run reads/,
      );
      await expectRefused(
        plan('vars.yaml', ...force),
        /--out vars\.yaml is vars\.yaml, which this run reads/,
      );
    }
    expect(read('zones.yaml')).toBe(DESIRED);
    expect(read('vars.yaml')).toBe('ip: 192.0.2.2\n');
  });

  it('writes a new file; replaces an existing one only with --force', async () => {
    const first = await plan('plan.json');
    expect(first.code, first.stderr).toBe(0);
    const saved = read('plan.json');
    expect(JSON.parse(saved).kind).toBe('zoneplan-plan');
    await expectRefused(plan('plan.json'), /--out plan\.json already exists; pass --force to replace it/);
    expect(read('plan.json')).toBe(saved);
    const forced = await plan('plan.json', '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(read('plan.json')).created_at).not.toBe(JSON.parse(saved).created_at);
    // written beside it and renamed: nothing temporary is left
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('never writes through a symbolic link, nor over a directory', async () => {
    for (const force of [[], ['--force']]) {
      await expectRefused(plan('link.json', ...force), /--out link\.json is a symbolic link/);
      await expectRefused(plan('a-directory', ...force), /--out a-directory is a directory/);
    }
    expect(read('victim.txt')).toBe(VICTIM);
    expect(lstatSync(join(dir, 'link.json')).isSymbolicLink()).toBe(true);
  });

  it('refuses an empty path instead of ignoring it', async () => {
    await expectRefused(plan(''), /--out needs a file path/);
    await expectRefused(exportTo(''), /--out needs a file path/);
  });
});

describe('export --out', () => {
  it('writes a new file; replaces an existing one only with --force; never through a link', async () => {
    const first = await exportTo('exported.yaml');
    expect(first.code, first.stderr).toBe(0);
    expect(read('exported.yaml')).toContain(`name: ${ZONE}`);
    writeFileSync(join(dir, 'exported.yaml'), 'kept\n');
    await expectRefused(exportTo('exported.yaml'), /--out exported\.yaml already exists; pass --force/);
    expect(read('exported.yaml')).toBe('kept\n');
    const forced = await exportTo('exported.yaml', '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(read('exported.yaml')).toContain(`name: ${ZONE}`);

    for (const force of [[], ['--force']])
      await expectRefused(exportTo('link.yaml', ...force), /--out link\.yaml is a symbolic link/);
    await expectRefused(
      run(['export', '--as', 'fixtures', '--zone', ZONE, '--out', 'link.yaml', '--force']),
      /--out link\.yaml is a symbolic link/,
    );
    await expectRefused(
      run(['export', '--as', 'fixtures', '--zone', ZONE, '--out', 'exported.yaml']),
      /already exists/,
    );
    expect(read('victim.txt')).toBe(VICTIM);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
