/**
 * Team workflows through the real CLI against the local API: a directory of files as one desired
 * state, --zone / --account selection (checked on the requests --verbose logs), --shard, and saved
 * plans over several files.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT, api, cli, cliAt, startBed, tempDir, zoneFile, type Bed } from './helpers.js';

let bed: Bed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

const record = (n: number) => `{ name: www, type: A, content: 192.0.2.${n} }`;

/** `dir/zones/` holding one file per zone (some in a subdirectory), plus a dot-directory to skip. */
function zonesDir(dir: string, zones: string[]): string {
  const root = join(dir, 'zones');
  mkdirSync(join(root, 'team'), { recursive: true });
  mkdirSync(join(root, '.git'), { recursive: true });
  writeFileSync(join(root, '.git', 'ignored.yaml'), 'not: [a desired state');
  zones.forEach((zone, i) => {
    const sub = i % 2 === 0 ? '' : 'team';
    writeFileSync(join(root, sub, `${zone}.yaml`), zoneFile(zone, [record(i + 1)]));
  });
  return root;
}

/** The zones an owner lookup was sent for, from the request lines of --verbose. */
function zonesRead(stderr: string): string[] {
  return [...stderr.matchAll(/GET \/zones\?name=([^&\s]+)/g)].map((m) => m[1]).sort();
}

describe('many files as one desired state', () => {
  it('a directory of three files declaring one zone twice merges it; a record declared twice with other values is an error naming both files', async () => {
    const dir = tempDir();
    const root = zonesDir(dir, ['a.example', 'b.example']);
    // the same zone, spelt otherwise, and the same record with another TTL
    writeFileSync(
      join(root, 'team', 'again.yaml'),
      zoneFile('A.Example', [`${record(1).slice(0, -2)}, ttl: 600 }`]),
    );
    for (const command of ['plan', 'validate']) {
      const run = await cli([command, 'zones'], { cwd: dir });
      expect(run.code, run.stderr).toBe(1);
      const out = run.stdout + run.stderr;
      expect(out).toContain(
        'zones/team/again.yaml:7:11: zones[0].dns.records[0]: zone `a.example`: this dns.records entry is also declared, with other values, at zones/a.example.yaml:7:11',
      );
    }
    // validate still reports each file
    const validate = await cli(['validate', 'zones'], { cwd: dir });
    expect(validate.stdout).toContain('ok: zones/a.example.yaml: 1 zone, 1 record');
    expect(validate.stdout).toContain('ok: zones/team/b.example.yaml: 1 zone, 1 record');
    // another record of the zone: one zone of two records
    writeFileSync(join(root, 'team', 'again.yaml'), zoneFile('A.Example', [record(9)]));
    const merged = await cli(['plan', 'zones'], { cwd: dir });
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(/create www A 192\.0\.2\.1\b/);
    expect(merged.stdout).toMatch(/create www A 192\.0\.2\.9\b/);
  });

  it('plans and applies every file of a directory, and the embedded default lives inside it', async () => {
    const dir = tempDir();
    zonesDir(dir, ['a.example', 'b.example', 'c.example']);
    const applied = await cli(['apply', 'zones', '--auto-approve'], { cwd: dir });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toContain('the embedded local API over zones/.zoneplan/local.db');
    expect(existsSync(join(dir, 'zones', '.zoneplan', 'local.db'))).toBe(true);
    const again = await cli(['plan', 'zones', '--detailed-exitcode'], { cwd: dir });
    expect(again.code, again.stdout + again.stderr).toBe(0);

    // files given one by one: beside the first
    const one = await cli(['plan', 'zones/team/b.example.yaml', 'zones/a.example.yaml'], { cwd: dir });
    expect(one.code, one.stderr).toBe(0);
    expect(one.stderr).toContain('over zones/team/.zoneplan/local.db');
  });

  it('variables of one file serve the others; two values of one variable are an error naming both', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'vars.yaml'), 'version: 1\nvars:\n  origin: 192.0.2.7\n');
    writeFileSync(
      join(dir, 'zone.yaml'),
      zoneFile('v.example', ['{ name: www, type: A, content: "${var:origin}" }']),
    );
    const ok = await cli(['validate', 'vars.yaml', 'zone.yaml'], { cwd: dir });
    expect(ok.code, ok.stdout).toBe(0);
    writeFileSync(join(dir, 'other.yaml'), 'version: 1\nvars:\n  origin: 192.0.2.8\n');
    const bad = await cli(['plan', 'vars.yaml', 'zone.yaml', 'other.yaml'], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(
      'other.yaml:3:11: vars.origin: variable `origin` is also defined, with another value, at vars.yaml:3:11',
    );
    const overridden = await cli(
      ['validate', 'vars.yaml', 'zone.yaml', 'other.yaml', '--var', 'origin=192.0.2.9'],
      {
        cwd: dir,
      },
    );
    expect(overridden.code).toBe(1); // --var wins in use, the files still disagree
  });
});

describe('--zone, --account and --shard', () => {
  it('--zone reads only that zone (every request logged with --verbose)', async () => {
    const b = (bed = await startBed());
    zonesDir(b.dir, ['a.example', 'b.example', 'c.example']);
    expect((await cliAt(b, ['apply', 'zones', '--auto-approve'])).code).toBe(0);

    const requests = (stderr: string) =>
      stderr.split('\n').filter((l) => /^(GET|POST|PATCH|PUT|DELETE) /.test(l));
    const dnsReads = (stderr: string) => requests(stderr).filter((l) => /\/dns_records/.test(l)).length;
    // three zones are found through one page of the zone list, then read one DNS list each
    const all = await cliAt(b, ['plan', 'zones', '--verbose']);
    expect(requests(all.stderr).filter((l) => /^GET \/zones\?/.test(l))).toHaveLength(1);
    expect(dnsReads(all.stderr)).toBe(3);
    expect(requests(all.stderr)).toHaveLength(4);

    // one zone is looked up by name
    const only = await cliAt(b, ['plan', 'zones', '--zone', 'b.example', '--verbose']);
    expect(only.code, only.stderr).toBe(0);
    expect(zonesRead(only.stderr)).toEqual(['b.example']);
    expect(dnsReads(only.stderr)).toBe(1);
    expect(requests(only.stderr)).toHaveLength(2);
    expect(only.stderr).toContain('selected 1 of 3 zone(s) and 0 of 0 account(s) (--zone b.example)');

    const glob = await cliAt(b, ['drift', 'zones', '--zone', '*.example', '--zone', 'c.*', '--verbose']);
    expect(glob.code, glob.stderr).toBe(0);
    expect(glob.stderr).toContain('selected 3 of 3 zone(s)');
    expect(dnsReads(glob.stderr)).toBe(3);

    const typo = await cliAt(b, ['plan', 'zones', '--zone', 'b.exmple', '--verbose']);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('--zone b.exmple: matches no zone of the desired state');
    expect(zonesRead(typo.stderr)).toEqual([]);
  });

  it('--account selects the account-level configuration only', async () => {
    const b = (bed = await startBed());
    const root = zonesDir(b.dir, ['a.example']);
    writeFileSync(join(root, 'account.yaml'), `version: 1\naccounts:\n  - id: ${ACCOUNT}\n`);
    const run = await cliAt(b, ['plan', 'zones', '--account', ACCOUNT.slice(0, 8) + '*', '--verbose']);
    expect(run.code, run.stderr).toBe(0);
    expect(zonesRead(run.stderr)).toEqual([]);
    expect(run.stderr).toContain('selected 0 of 1 zone(s) and 1 of 1 account(s)');
    const none = await cliAt(b, ['plan', 'zones', '--account', 'ffffffffffffffffffffffffffffffff']);
    expect(none.stderr).toContain('matches no account of the desired state');
  });

  it('shards 1/3..3/3 are disjoint and together read every zone once', async () => {
    const b = (bed = await startBed());
    const zones = Array.from({ length: 12 }, (_, i) => `z${i}.example`);
    zonesDir(b.dir, zones);
    const seen: string[][] = [];
    for (const i of [1, 2, 3]) {
      const run = await cliAt(b, ['drift', 'zones', '--shard', `${i}/3`, '--verbose']);
      expect(run.code, run.stderr).toBe(2); // nothing applied yet: every zone of the shard drifts
      seen.push(zonesRead(run.stderr));
    }
    expect(seen.flat().sort()).toEqual([...zones].sort());
    expect(new Set(seen.flat()).size).toBe(zones.length);
    expect(seen.every((s) => s.length > 0 && s.length < zones.length)).toBe(true);
    const budget = await cliAt(b, ['plan', 'zones', '--shard', '1/4', '--verbose']);
    expect(budget.stderr).toContain('rate limit 300/300 requests/seconds');
    const given = await cliAt(b, ['plan', 'zones', '--shard', '1/4', '--verbose', '--rate-limit', '60/60']);
    expect(given.stderr).not.toContain('rate limit');
    const bad = await cliAt(b, ['plan', 'zones', '--shard', '4/3']);
    expect(bad.stderr).toContain('--shard "4/3": expected I/N');
  });
});

describe('saved plans over several files', () => {
  it('record each file and their selection, and refuse when any file changed or was added', async () => {
    const b = (bed = await startBed());
    const root = zonesDir(b.dir, ['a.example', 'b.example', 'c.example']);
    const planned = await cliAt(b, ['plan', 'zones', '--zone', 'b.example', '--out', 'plan.json']);
    expect(planned.code, planned.stderr).toBe(0);

    writeFileSync(join(root, 'team', 'b.example.yaml'), zoneFile('b.example', [record(50)]));
    const changed = await cliAt(b, ['apply', 'plan.json', '--auto-approve']);
    expect(changed.code).toBe(1);
    expect(changed.stderr).toMatch(/is stale: \S*zones\/team\/b\.example\.yaml changed since it was made/);

    writeFileSync(join(root, 'team', 'b.example.yaml'), zoneFile('b.example', [record(2)]));
    writeFileSync(join(root, 'd.example.yaml'), zoneFile('d.example', [record(4)]));
    const added = await cliAt(b, ['apply', 'plan.json', '--auto-approve']);
    expect(added.code).toBe(1);
    expect(added.stderr).toMatch(/is stale: \S*zones\/d\.example\.yaml is new since it was made/);

    rmSync(join(root, 'd.example.yaml'));
    rmSync(join(root, 'c.example.yaml'));
    const removed = await cliAt(b, ['apply', 'plan.json', '--auto-approve']);
    expect(removed.stderr).toMatch(/is stale: \S*zones\/c\.example\.yaml is no longer read since/);
    writeFileSync(join(root, 'c.example.yaml'), zoneFile('c.example', [record(3)]));

    const both = await cliAt(b, ['apply', 'plan.json', 'zones', '--auto-approve']);
    expect(both.stderr).toContain('plan.json is a saved plan: apply it alone');
    const mixed = await cliAt(b, ['apply', 'plan.json', '--auto-approve', '--zone', 'a.example']);
    expect(mixed.stderr).toContain('--zone, --account and --shard belong to `zoneplan plan`');

    const applied = await cliAt(b, ['apply', 'plan.json', '--auto-approve', '--verbose']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(new Set(zonesRead(applied.stderr))).toEqual(new Set(['b.example']));
    const names = (await api<{ name: string }[]>(b, 'GET', '/zones')).map((z) => z.name);
    expect(names).toEqual(['b.example']);
  });
});
