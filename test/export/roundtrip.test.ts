/**
 * `zoneplan export` end to end: the CLI (in-process) against the real local API seeded with every kind
 * (./seed.ts). The exported file validates, `plan` of it (with the named variables
 * set) reports no changes, it holds no secret, and service-managed records are left out.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDesiredState } from '../../src/config/load.js';
import { runCli, type CliResult as Run } from '../support/cli.js';
import { ACCOUNT, NEW_WAF, OLD_WAF, READER_TOKEN, SECRETS, TOKEN, ZONE, seed, type Seeded } from './seed.js';

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return runCli([...args, '--api-url', s.url], { cwd: s.dir, env: { CLOUDFLARE_API_TOKEN: TOKEN, ...env } });
}

/** What the variables of the export must hold: the destination parts exactly as the API returns them. */
const VARIABLES = {
  ZONEPLAN_LOGPUSH_EXPORT_EXAMPLE_FIREWALL_TO_COLLECTOR_HEADER_X_API_KEY: SECRETS.header,
  ZONEPLAN_LOGPUSH_EXPORT_EXAMPLE_HTTP_TO_R2_ACCESS_KEY_ID: SECRETS.r2Key,
  ZONEPLAN_LOGPUSH_EXPORT_EXAMPLE_HTTP_TO_R2_SECRET_ACCESS_KEY: encodeURIComponent(SECRETS.r2Secret),
};

function expectNoSecret(...texts: string[]) {
  for (const text of texts) {
    for (const secret of Object.values(SECRETS)) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(encodeURIComponent(secret));
    }
  }
}

let s: Seeded;
let exported: Run;
let file: string;
let text: string;

beforeAll(async () => {
  s = await seed();
  file = join(s.dir, 'exported.yaml');
  exported = await cli([
    'export',
    '--zone',
    ZONE,
    '--zone',
    OLD_WAF,
    '--zone',
    NEW_WAF,
    '--account',
    ACCOUNT,
    '--out',
    file,
  ]);
  text = existsSync(file) ? readFileSync(file, 'utf8') : '';
}, 60_000);
afterAll(() => s?.close());

describe('zoneplan export', () => {
  it('writes a file that validates and plans to zero changes with the named variables set', async () => {
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain(`wrote ${file}`);
    const { desired } = await loadDesiredState(file, { env: VARIABLES });
    expect(desired.zones.map((z) => z.name)).toEqual([ZONE, OLD_WAF, NEW_WAF]);
    expect(desired.accounts.map((a) => a.id)).toEqual([ACCOUNT]);

    const plan = await cli(['plan', file, '--detailed-exitcode'], VARIABLES);
    expect(plan.stdout + plan.stderr).toContain('No changes.');
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expectNoSecret(plan.stdout, plan.stderr);
  }, 60_000);

  it('points editors at the shipped schema, relative to the written file', () => {
    const ref = /^# yaml-language-server: \$schema=(\S+)$/m.exec(text)?.[1];
    expect(ref).toMatch(/schema\/zoneplan\.schema\.json$/);
    expect(existsSync(join(dirname(file), ref!))).toBe(true);
  });

  it('holds no secret: destination credentials are ${env:NAME} references named in comments', () => {
    expectNoSecret(text, exported.stdout, exported.stderr);
    for (const name of Object.keys(VARIABLES)) {
      expect(text).toContain(`\${env:${name}}`);
      expect(text).toMatch(new RegExp(`^#\\s+${name}\\b`, 'm')); // the header lists it
      expect(exported.stderr).toContain(name);
    }
    expect(text).toContain('region=eu'); // public parameters stay readable
  });

  it('writes a header saying what was exported, from where and when', () => {
    expect(text).toMatch(/^# yaml-language-server: \$schema=/);
    expect(text).toContain(`Exported by \`zoneplan export\` from ${s.url}`);
    expect(text).toMatch(/at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
    expect(text).toContain(`zones: ${ZONE}, ${OLD_WAF}, ${NEW_WAF}; accounts: ${ACCOUNT}`);
  });

  it('writes DNS with relative names, grouped by name, Auto TTL as auto, service-managed records left out', () => {
    const doc = parse(text) as { zones: { name: string; dns: { records: Record<string, unknown>[] } }[] };
    const records = doc.zones[0].dns.records;
    const names = records.map((r) => r.name as string);
    expect(names[0]).toBe('@');
    // grouped: every name forms one contiguous run
    const runs = names.filter((n, i) => i === 0 || names[i - 1] !== n);
    expect(new Set(runs).size).toBe(runs.length);
    expect(records.find((r) => r.name === 'mail')).toEqual({
      name: 'mail',
      type: 'A',
      content: '198.51.100.25',
      ttl: 'auto',
    });
    expect(records.find((r) => r.name === 'origin' && r.comment)).toMatchObject({
      ttl: 3600,
      comment: 'the origin',
      tags: ['team:web'],
    });
    // every type the seed wrote that the file can express
    const types = new Set(records.map((r) => r.type));
    for (const t of ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'CAA', 'SRV', 'SVCB', 'HTTPS', 'PTR', 'NS', 'DS'])
      expect(types).toContain(t);
    for (const t of ['DNSKEY', 'NAPTR', 'SSHFP', 'TLSA', 'SMIMEA', 'CERT', 'OPENPGPKEY'])
      expect(types).toContain(t);
    // the service's own records: SOA, apex NS, an app's record, an auto-added one
    expect(types).not.toContain('SOA');
    expect(records.some((r) => r.type === 'NS' && r.name === '@')).toBe(false);
    expect(names).not.toContain('app');
    expect(names).not.toContain('auto');
    expect(text).toMatch(/record\(s\) the service manages itself .* are left out/);
  });

  it('never drops a record silently: one the file cannot express is a comment and an ignore entry', () => {
    const doc = parse(text) as { zones: { dns: { ignore?: Record<string, unknown>[] } }[] };
    const ignored = doc.zones[0].dns.ignore ?? [];
    for (const entry of ignored) {
      expect(text).toContain(
        `not managed (the file cannot express it): ${String(entry.name)} ${String(entry.type)}`,
      );
    }
    // URI records lose their priority in the DNS kind's normal form today; if that is fixed they move to records
    const uri = doc.zones[0] as unknown as { dns: { records: { type: string }[] } };
    const uriKept = uri.dns.records.some((r) => r.type === 'URI');
    expect(uriKept || ignored.some((e) => e.type === 'URI')).toBe(true);
  });

  it('writes Logpush filters as YAML objects and Page Shield policies by description', () => {
    const doc = parse(text) as { zones: Record<string, any>[] };
    const jobs = doc.zones[0].logpush.jobs as Record<string, any>[];
    expect(jobs.map((j) => j.name)).toEqual(['firewall-to-collector', 'http-to-r2']);
    expect(jobs[0].filter.where.or[0].and[1]).toEqual({
      key: 'Action',
      operator: 'in',
      value: ['block', 'challenge'],
    });
    expect(jobs[1].enabled).toBe(false);
    const ps = doc.zones[0].page_shield;
    expect(ps.enabled).toBe(true);
    expect(ps.policies.map((p: { description: string }) => p.description)).toEqual([
      'allow the checkout scripts',
      'log third-party scripts',
    ]);
    expect(ps.policies[0].enabled).toBe(false);
  });

  it('exports the previous WAF as previous, a migrated zone as new with its override, pools e-mails as keep', () => {
    const doc = parse(text) as { zones: Record<string, any>[]; accounts: Record<string, any>[] };
    expect(doc.zones[1].waf).toEqual({ managed_rules: 'previous' });
    expect(doc.zones[2].waf).toEqual({
      managed_rules: 'new',
      overrides: [{ id: '5de7edfa648c4d6891dc3e7f84534ffa', action: 'log', enabled: true }],
    });
    const lb = doc.accounts[0].load_balancing;
    expect(lb.legacy_pool_emails).toBe('keep');
    expect(lb.notifications).toEqual([
      {
        name: 'pool health',
        alert_type: 'load_balancing_health_alert',
        pools: ['api-pool', 'web-pool'],
        new_health: ['Healthy', 'Unhealthy'],
        event_source: ['origin', 'pool'],
        email: ['oncall@example.com', 'ops@example.com'],
      },
    ]);
  });

  it('is written as `zoneplan fmt` writes it: fmt --check of the export exits 0', async () => {
    // every record type, every kind: key order and quoting are decided by the rules fmt uses
    const check = await cli(['fmt', '--check', file]);
    if (check.code !== 0) {
      const copy = join(s.dir, 'exported-formatted.yaml');
      writeFileSync(copy, text);
      await cli(['fmt', copy]);
      expect(readFileSync(copy, 'utf8')).toBe(text);
    }
    expect(check, check.stderr).toMatchObject({ code: 0, stdout: '' });
  });

  it('writes to stdout without --out, only the kinds asked for', async () => {
    const run = await cli(['export', '--zone', ZONE, '--kinds', 'dns,page-shield']);
    expect(run.code, run.stderr).toBe(0);
    const doc = parse(run.stdout) as { zones: Record<string, unknown>[] };
    expect(Object.keys(doc.zones[0]).sort()).toEqual(['account', 'dns', 'name', 'page_shield']);
    expect(run.stderr).toContain(`target: ${s.url}`);
  });

  it('gives the same file for the same live state (only the time in the header differs)', async () => {
    const args = ['export', '--zone', ZONE, '--zone', NEW_WAF, '--account', ACCOUNT];
    const [a, b] = [await cli(args), await cli(args)];
    expect(a.code, a.stderr).toBe(0);
    const strip = (t: string) => t.replace(/^# Exported by .*$/m, '');
    expect(strip(a.stdout)).toBe(strip(b.stdout));
  }, 30_000);

  it('is a real description of the live state: a change made after the export shows in plan', async () => {
    // runs after the round trip above; it changes the live state
    const zone = s.zoneIds[ZONE];
    const records = await s.api<{ id: string; name: string }[]>(
      'GET',
      `/zones/${zone}/dns_records?per_page=500`,
    );
    const mail = records.find((r) => r.name === `mail.${ZONE}`)!;
    await s.api('PATCH', `/zones/${zone}/dns_records/${mail.id}`, { ttl: 120 });
    const plan = await cli(['plan', file, '--detailed-exitcode'], VARIABLES);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain('~ update mail A 198.51.100.25');
    expect(plan.stdout).toMatch(/ttl: 120 -> (1|auto)/);
  }, 30_000);

  it('skips, with a comment, a kind the credentials cannot read, unless it was asked for', async () => {
    const run = await cli(['export', '--zone', OLD_WAF], { CLOUDFLARE_API_TOKEN: READER_TOKEN });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/page_shield not exported: GET \/zones\/:id\/page_shield -> 403/);
    expect(run.stdout).toContain('# page_shield: not exported (GET /zones/:id/page_shield -> 403');
    const doc = parse(run.stdout) as { zones: Record<string, unknown>[] };
    expect(Object.keys(doc.zones[0]).sort()).toEqual(['account', 'dns', 'name']);
    const asked = await cli(['export', '--zone', OLD_WAF, '--kinds', 'dns,waf'], {
      CLOUDFLARE_API_TOKEN: READER_TOKEN,
    });
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain('403');
  }, 30_000);

  it('says clearly what is wrong with its input', async () => {
    const missing = await cli(['export', '--zone', 'nowhere.example']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('zone not found on the target: nowhere.example');
    const kind = await cli(['export', '--zone', ZONE, '--kinds', 'dns,firewall']);
    expect(kind.code).toBe(1);
    expect(kind.stderr).toContain(
      '--kinds: unknown kind "firewall" (known: dns, page_shield, logpush, waf, load_balancing)',
    );
    const unwritable = await cli([
      'export',
      '--zone',
      ZONE,
      '--kinds',
      'dns',
      '--out',
      join(s.dir, 'no', 'such', 'dir.yaml'),
    ]);
    expect(unwritable.code).toBe(1);
    expect(unwritable.stderr).toContain('cannot write');
    const nothing = await cli(['export']);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain('--zone NAME');
  });
});
