/**
 * `zoneplan export --account ID --out-dir DIR` and `--zone` patterns end to end: the CLI (in-process)
 * against the real local API seeded with every kind (./seed.ts). One file per zone of the account and
 * one for the account's own configuration, each planning to zero changes on its own; existing files
 * replaced only with --force, and nothing written when the run is refused; a pattern that matches
 * no zone is an error naming it; the `$schema` line names the repository's installed schema.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult as Run } from '../support/cli.js';
import { ACCOUNT, NEW_WAF, OLD_WAF, SECRETS, TOKEN, ZONE, seed, type Seeded } from './seed.js';

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return runCli([...args, '--api-url', s.url], { cwd: s.dir, env: { CLOUDFLARE_API_TOKEN: TOKEN, ...env } });
}

/** What the variables of the export must hold (as in ./roundtrip.test.ts). */
const VARIABLES = {
  ZONEPLAN_LOGPUSH_EXPORT_EXAMPLE_FIREWALL_TO_COLLECTOR_HEADER_X_API_KEY: SECRETS.header,
  ZONEPLAN_LOGPUSH_EXPORT_EXAMPLE_HTTP_TO_R2_ACCESS_KEY_ID: SECRETS.r2Key,
  ZONEPLAN_LOGPUSH_EXPORT_EXAMPLE_HTTP_TO_R2_SECRET_ACCESS_KEY: encodeURIComponent(SECRETS.r2Secret),
};

const SCHEMA = fileURLToPath(new URL('../../schema/zoneplan.schema.json', import.meta.url));
const FILES = [`${ACCOUNT}.yaml`, `${ZONE}.yaml`, `${NEW_WAF}.yaml`, `${OLD_WAF}.yaml`].sort();

let s: Seeded;
let exported: Run;

beforeAll(async () => {
  s = await seed();
  // the repository installed zoneplan: the `$schema` line names that copy, not the running one
  const installed = join(s.dir, 'node_modules', 'zoneplan', 'schema', 'zoneplan.schema.json');
  mkdirSync(dirname(installed), { recursive: true });
  copyFileSync(SCHEMA, installed);
  exported = await cli(['export', '--account', ACCOUNT, '--out-dir', 'zones']);
}, 60_000);
afterAll(() => s?.close());

const read = (dir: string, file: string) => readFileSync(join(s.dir, dir, file), 'utf8');

describe('zoneplan export --out-dir', () => {
  it('writes one file per zone of the account and one for the account, each planning to zero changes', async () => {
    expect(exported.code, exported.stderr).toBe(0);
    const yamlFiles = readdirSync(join(s.dir, 'zones')).filter((f) => f.endsWith('.yaml'));
    expect(yamlFiles.sort()).toEqual(FILES);
    for (const file of FILES) expect(exported.stderr).toContain(`wrote ${join('zones', file)}`);
    expect((parse(read('zones', `${ZONE}.yaml`)) as { zones: { name: string }[] }).zones).toEqual([
      expect.objectContaining({ name: ZONE, account: ACCOUNT }),
    ]);
    const account = parse(read('zones', `${ACCOUNT}.yaml`)) as Record<string, unknown>;
    expect(account.zones).toEqual([]);
    expect(account.accounts).toEqual([
      expect.objectContaining({ id: ACCOUNT, load_balancing: expect.anything() }),
    ]);
    for (const file of FILES) {
      const plan = await cli(['plan', join('zones', file), '--detailed-exitcode'], VARIABLES);
      expect(plan.stdout + plan.stderr, file).toContain('No changes.');
      expect(plan.code, `${file}: ${plan.stdout}${plan.stderr}`).toBe(0);
    }
  }, 120_000);

  it("names the repository's installed schema, relative to the files' folder", () => {
    for (const file of FILES) {
      const ref = /^# yaml-language-server: \$schema=(\S+)$/m.exec(read('zones', file))?.[1];
      expect(ref).toBe('../node_modules/zoneplan/schema/zoneplan.schema.json');
      expect(existsSync(join(s.dir, 'zones', ref!))).toBe(true);
    }
  });

  it('replaces existing files only with --force, and writes nothing when it refuses', async () => {
    writeFileSync(join(s.dir, 'zones', `${OLD_WAF}.yaml`), '# edited\n');
    const before = read('zones', `${ZONE}.yaml`);
    const refused = await cli(['export', '--account', ACCOUNT, '--out-dir', 'zones']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `--out-dir ${join('zones', `${ACCOUNT}.yaml`)} already exists; pass --force`,
    );
    expect(read('zones', `${OLD_WAF}.yaml`)).toBe('# edited\n');
    expect(read('zones', `${ZONE}.yaml`)).toBe(before);

    const forced = await cli(['export', '--account', ACCOUNT, '--out-dir', 'zones', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(read('zones', `${OLD_WAF}.yaml`)).toContain(`- name: ${OLD_WAF}`);
    // each file is written beside its path and renamed: no temporary file is left
    expect(
      readdirSync(join(s.dir, 'zones'))
        .filter((f) => f.endsWith('.yaml'))
        .sort(),
    ).toEqual(FILES);
    expect(readdirSync(join(s.dir, 'zones')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 60_000);

  it('selects zones by pattern: `*` any characters, dots too; one that matches nothing is an error', async () => {
    const picked = await cli(['export', '--zone', 'WAF-*.example', '--out-dir', 'picked']);
    expect(picked.code, picked.stderr).toBe(0);
    expect(readdirSync(join(s.dir, 'picked')).sort()).toEqual([`${NEW_WAF}.yaml`, `${OLD_WAF}.yaml`]);

    const all = await cli(['export', '--zone', '*', '--kinds', 'dns']);
    expect(all.code, all.stderr).toBe(0);
    const zones = (parse(all.stdout) as { zones: { name: string }[] }).zones.map((z) => z.name);
    expect(zones.sort()).toEqual([ZONE, NEW_WAF, OLD_WAF].sort());

    const none = await cli([
      'export',
      '--zone',
      '*.example',
      '--zone',
      'nothing-*.example',
      '--out-dir',
      'never',
    ]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('--zone nothing-*.example matches no zone on the target');
    expect(existsSync(join(s.dir, 'never'))).toBe(false);
  }, 60_000);

  it('refuses --out with --out-dir, and an --out-dir that is a file', async () => {
    const both = await cli(['export', '--zone', ZONE, '--out', 'a.yaml', '--out-dir', 'zones']);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('--out and --out-dir do not go together');
    writeFileSync(join(s.dir, 'plain'), 'x');
    const file = await cli(['export', '--zone', ZONE, '--out-dir', 'plain']);
    expect(file.code).toBe(1);
    expect(file.stderr).toContain('--out-dir plain exists and is not a directory');
  });
});
