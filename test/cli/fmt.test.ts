/**
 * `zoneplan fmt` (issue 27 item 6): every shipped desired-state example and an exported file are
 * already formatted (fmt --check exits 0, fmt changes nothing) and plan as before (plan --format
 * json against the local API seeded with the examples' fixtures), comments and flow records stay, fmt twice is fmt once, --check writes nothing and
 * exits 1 naming the files, and a file that is not valid YAML stops the run before any write.
 */
import {
  chmodSync,
  copyFileSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server/helpers.js';
import { runCli, type CliResult } from '../support/cli.js';

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
const TOKEN = 'zp-examples-token-5e2b9c7a1d3f4b6c8a0e';
const ENV = {
  CLOUDFLARE_API_TOKEN: TOKEN,
  LOGPUSH_S3_CHALLENGE: 'challenge-of-the-test',
  LOGPUSH_HTTP_TOKEN: 'token-of-the-test',
};

let t: TestServer;
beforeAll(async () => {
  // the fixtures' token is `${env:ZONEPLAN_LOCAL_TOKEN}`
  process.env.ZONEPLAN_LOCAL_TOKEN = TOKEN;
  t = await startTestServer({ fixtures: join(EXAMPLES, 'fixtures-full.yaml') });
  t.token = TOKEN;
});
afterAll(async () => {
  await t?.close();
});

const cli = (args: string[]): Promise<CliResult> => runCli(args, { cwd: t.dir, env: ENV });
const plan = (file: string) => cli(['plan', file, '--format', 'json', '--api-url', t.url]);

const isDesired = (name: string) => /^version:/m.test(readFileSync(join(EXAMPLES, name), 'utf8'));
const desiredExamples = readdirSync(EXAMPLES).filter((n) => n.endsWith('.yaml') && isDesired(n));

describe('a formatted file plans exactly as before', { timeout: 120_000 }, () => {
  it.each(desiredExamples)(
    'examples/%s is shipped formatted, and plans after fmt as before',
    async (name) => {
      const file = join(t.dir, `example-${name}`);
      copyFileSync(join(EXAMPLES, name), file);
      const shipped = readFileSync(file, 'utf8');
      const before = await plan(file);
      expect([0, 2], before.stderr).toContain(before.code);
      const check = await cli(['fmt', '--check', file]);
      expect(check, check.stderr).toMatchObject({ code: 0, stdout: '' });
      const fmt = await cli(['fmt', file]);
      expect(fmt, fmt.stderr).toMatchObject({ code: 0, stdout: '' });
      expect(readFileSync(file, 'utf8')).toBe(shipped);
      const after = await plan(file);
      expect(after.code, after.stderr).toBe(before.code);
      expect(JSON.parse(after.stdout)).toEqual(JSON.parse(before.stdout));
    },
  );

  it('an exported file', async () => {
    const quickstart = join(t.dir, 'quickstart.yaml');
    copyFileSync(join(EXAMPLES, 'quickstart.yaml'), quickstart);
    const applied = await cli(['apply', quickstart, '--auto-approve', '--api-url', t.url]);
    expect(applied.code, applied.stderr).toBe(0);
    const exported = join(t.dir, 'exported.yaml');
    const run = await cli(['export', '--zone', 'quickstart.example', '--out', exported, '--api-url', t.url]);
    expect(run.code, run.stderr).toBe(0);
    const original = readFileSync(exported, 'utf8');
    const before = await plan(exported);
    // export writes what fmt writes (key order, quoting, flow layout): there is nothing to change
    const check = await cli(['fmt', '--check', exported]);
    expect(check, check.stderr).toMatchObject({ code: 0, stdout: '' });
    const formatted = await cli(['fmt', exported]);
    expect(formatted).toMatchObject({ code: 0, stdout: '' });
    expect(readFileSync(exported, 'utf8')).toBe(original);
    const after = await plan(exported);
    expect(JSON.parse(after.stdout)).toEqual(JSON.parse(before.stdout));
    expect(JSON.parse(after.stdout).changes).toBe(false);
    // its comments (the schema line, the export's notes) are all still there
    const comments = (text: string) => text.split('\n').filter((l) => l.trim().startsWith('#'));
    expect(comments(readFileSync(exported, 'utf8'))).toEqual(comments(original));
  });
});

const MESSY = `# header comment, kept on top
zones:
  - account: 0123456789abcdef0123456789abcdef # the owner
    dns: # the zone's records
      records:
        # the apex
        - { type: A, content: "192.0.2.1", name: '@' }
        - content: www.example.net
          type: CNAME
          name: "www" # block as written

        - { ttl: 300, name: "yes", content: "v=spf1 -all", type: TXT }
        - { type: TXT, name: n, content: "10" }
    name: fmt.example
version: 1
`;

const TIDY = `# header comment, kept on top
version: 1
zones:
  - name: fmt.example
    account: 0123456789abcdef0123456789abcdef # the owner
    dns: # the zone's records
      records:
        # the apex
        - { name: '@', type: A, content: 192.0.2.1 }
        - name: www # block as written
          type: CNAME
          content: www.example.net

        - { name: 'yes', type: TXT, content: v=spf1 -all, ttl: 300 }
        - { name: n, type: TXT, content: '10' }
`;

describe('the layout', () => {
  it('orders keys as the schema, drops quotes not needed, keeps comments, blank lines and flow or block', async () => {
    const file = join(t.dir, 'messy.yaml');
    writeFileSync(file, MESSY);
    const r = await cli(['fmt', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${file}\n`);
    expect(r.stderr).toBe('1 file formatted, 0 already formatted\n');
    expect(readFileSync(file, 'utf8')).toBe(TIDY);
    // idempotent
    const again = await cli(['fmt', file]);
    expect(again.stdout).toBe('');
    expect(readFileSync(file, 'utf8')).toBe(TIDY);
  });

  it('--check writes nothing, names the files that differ and exits 1; 0 when all are formatted', async () => {
    const messy = join(t.dir, 'check-messy.yaml');
    const tidy = join(t.dir, 'check-tidy.yaml');
    writeFileSync(messy, MESSY);
    writeFileSync(tidy, TIDY);
    const mtime = statSync(messy).mtimeMs;
    const r = await cli(['fmt', '--check', messy, tidy]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`${messy}\n`);
    expect(r.stderr).toBe('1 file not formatted; run `zoneplan fmt` on it\n');
    expect(readFileSync(messy, 'utf8')).toBe(MESSY);
    expect(statSync(messy).mtimeMs).toBe(mtime);
    expect(await cli(['fmt', '--check', tidy])).toMatchObject({ code: 0, stdout: '' });
  });

  it('refuses a file that is not valid YAML at its line and column, and writes no file of the run', async () => {
    const messy = join(t.dir, 'bad-run-messy.yaml');
    const bad = join(t.dir, 'bad-run-bad.yaml');
    writeFileSync(messy, MESSY);
    writeFileSync(bad, 'version: 1\nzones:\n  - name: a.example\n    dns: { records: [ }\n');
    const r = await cli(['fmt', messy, bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^${bad}:4:\\d+: YAML syntax error: `, 'm'));
    expect(r.stderr).toContain('error: nothing was formatted: a file cannot be read as YAML (above)\n');
    expect(r.stdout).toBe('');
    expect(readFileSync(messy, 'utf8')).toBe(MESSY);
    // nesting past the loader's limit is refused at its place too, before the recursive walk
    const deep = join(t.dir, 'bad-run-deep.yaml');
    writeFileSync(deep, `version: 1\nx: ${'['.repeat(2000)}${']'.repeat(2000)}\n`);
    const d = await cli(['fmt', deep]);
    expect(d.code).toBe(1);
    expect(d.stderr).toMatch(
      new RegExp(`^${deep}:2:\\d+: nesting deeper than the limit \\(64 levels\\) starts here$`, 'm'),
    );
  });

  it("replaces a file whole, keeping its mode, and writes through a symbolic link to the link's file", async () => {
    const dir = mkdtempSync(join(t.dir, 'modes-'));
    const file = join(dir, 'private.yaml');
    writeFileSync(file, MESSY.replace(/\n/g, '\r\n'), { mode: 0o600 });
    chmodSync(file, 0o600);
    symlinkSync('private.yaml', join(dir, 'link.yaml'));
    const r = await cli(['fmt', join(dir, 'link.yaml')]);
    expect(r.code, r.stderr).toBe(0);
    // line ends are LF in the canonical layout
    expect(readFileSync(file, 'utf8')).toBe(TIDY);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(lstatSync(join(dir, 'link.yaml')).isSymbolicLink()).toBe(true);
    // no temporary file is left beside it
    expect(readdirSync(dir).sort()).toEqual(['link.yaml', 'private.yaml']);
  });

  it('leaves files that are not desired-state files alone (fixtures, JSON)', async () => {
    const fixtures = join(t.dir, 'fixtures.yaml');
    copyFileSync(join(EXAMPLES, 'fixtures.yaml'), fixtures);
    const json = join(t.dir, 'state.json');
    writeFileSync(json, '{"version": 1, "zones": []}\n');
    const r = await cli(['fmt', fixtures, json]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `warning: ${fixtures}: not a desired-state file (no top-level \`version:\`); left as it is`,
    );
    expect(r.stderr).toContain(`warning: ${json}: fmt formats YAML files; a JSON file is left as it is`);
    expect(readFileSync(fixtures, 'utf8')).toBe(readFileSync(join(EXAMPLES, 'fixtures.yaml'), 'utf8'));
    expect(readFileSync(json, 'utf8')).toBe('{"version": 1, "zones": []}\n');
  });
});
