/**
 * `zoneplan export --unmanaged-by FILES` end to end: the CLI (in-process) against the real local API
 * seeded with every kind (./seed.ts) and a file that manages part of it. The export holds exactly the
 * live objects the file's plan does not pair (DNS by name and type, then value; Page Shield policies
 * by description; Logpush jobs and notification policies by name; a setting when the file sets it),
 * the kinds it manages are written with purge off, and planned on its own it reports no changes.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult as Run } from '../support/cli.js';
import { ACCOUNT, SECRETS, TOKEN, ZONE, seed, type Seeded } from './seed.js';

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return runCli([...args, '--api-url', s.url], { cwd: s.dir, env: { CLOUDFLARE_API_TOKEN: TOKEN, ...env } });
}

/** The only secret left in the unmanaged part: the header of the job the file does not manage. */
const VARIABLES = {
  ZONEPLAN_LOGPUSH_EXPORT_EXAMPLE_FIREWALL_TO_COLLECTOR_HEADER_X_API_KEY: SECRETS.header,
};

/**
 * Manages part of the seeded zone and account: one of the two `origin` A records (by value), the
 * `mail` A record with another value (paired all the same: an update), the Page Shield switch and
 * one policy, one Logpush job, one notification policy (its name in another case).
 */
const MANAGING = `version: 1
accounts:
  - id: ${ACCOUNT}
    load_balancing:
      notifications:
        - name: Pool Health
          alert_type: load_balancing_health_alert
          pools: all
          email: [ops@example.com]
zones:
  - name: ${ZONE}
    dns:
      purge: false
      records:
        - { name: origin, type: A, content: 198.51.100.20, ttl: 3600 }
        - { name: mail, type: A, content: 198.51.100.99 }
    page_shield:
      enabled: true
      policies:
        - description: log third-party scripts
          action: log
          expression: http.host eq "${ZONE}"
          value: script-src 'self'
    logpush:
      purge: false
      jobs:
        - name: http-to-r2
          dataset: http_requests
          destination_conf: r2://logs-bucket/http?account-id=${ACCOUNT}&access-key-id=a&secret-access-key=b
`;

interface Doc {
  accounts?: {
    id: string;
    load_balancing?: { notifications?: { name: string }[]; legacy_pool_emails?: string };
  }[];
  zones: {
    name: string;
    dns?: { purge?: boolean; records: { name: string; type: string; content?: string }[] };
    page_shield?: { enabled?: boolean; purge?: boolean; policies?: { description: string }[] };
    logpush?: { purge?: boolean; jobs: { name: string }[] };
    waf?: unknown;
  }[];
}

let s: Seeded;
let managing: string;
let exported: Run;
let text: string;
let full: Doc;

beforeAll(async () => {
  s = await seed();
  // a second notification policy, which the file does not name
  await s.api('POST', `/accounts/${ACCOUNT}/alerting/v3/policies`, {
    name: 'pool enablement',
    alert_type: 'load_balancing_pool_enablement_alert',
    enabled: true,
    filters: {},
    mechanisms: { email: [{ id: 'ops@example.com' }] },
  });
  managing = join(s.dir, 'managing.yaml');
  writeFileSync(managing, MANAGING);
  const all = await cli(['export', '--zone', ZONE, '--account', ACCOUNT]);
  expect(all.code, all.stderr).toBe(0);
  full = parse(all.stdout) as Doc;
  exported = await cli([
    'export',
    '--zone',
    ZONE,
    '--account',
    ACCOUNT,
    '--unmanaged-by',
    'managing.yaml',
    '--out',
    'rest.yaml',
  ]);
  text = existsSync(join(s.dir, 'rest.yaml')) ? readFileSync(join(s.dir, 'rest.yaml'), 'utf8') : '';
}, 60_000);
afterAll(() => s?.close());

const key = (r: { name: string; type: string; content?: string }) => `${r.name} ${r.type} ${r.content ?? ''}`;

describe('zoneplan export --unmanaged-by', () => {
  it('writes the DNS records the file does not pair, and purges nothing', () => {
    expect(exported.code, exported.stderr).toBe(0);
    const doc = parse(text) as Doc;
    const dns = doc.zones[0].dns!;
    expect(dns.purge).toBe(false);
    const keys = dns.records.map(key);
    // paired: `mail A` (by name and type: an update), `origin A 198.51.100.20` (by value)
    expect(keys.filter((k) => k.startsWith('mail A'))).toEqual([]);
    expect(keys.filter((k) => k.startsWith('origin A'))).toEqual(['origin A 198.51.100.21']);
    // everything else live is there: the full export less the two paired records
    const fullKeys = full.zones[0].dns!.records.map(key);
    expect(keys.sort()).toEqual(
      fullKeys.filter((k) => k !== 'mail A 198.51.100.25' && k !== 'origin A 198.51.100.20').sort(),
    );
  });

  it('leaves out the settings the file sets and the policies, jobs and notifications it names', () => {
    const doc = parse(text) as Doc;
    const zone = doc.zones[0];
    expect(zone.page_shield).toEqual({
      purge: false,
      policies: [expect.objectContaining({ description: 'allow the checkout scripts' })],
    });
    expect(zone.logpush?.purge).toBe(false);
    expect(zone.logpush?.jobs.map((j) => j.name)).toEqual(['firewall-to-collector']);
    // the file has no `waf`: the zone's WAF is not managed, so it is exported as a whole
    expect(zone.waf).toEqual(full.zones[0].waf);
    const lb = doc.accounts?.[0].load_balancing;
    expect(lb?.notifications?.map((n) => n.name)).toEqual(['pool enablement']);
    expect(lb).not.toHaveProperty('legacy_pool_emails');
    expect(text).toContain('Only the live objects that managing.yaml does not manage');
    expect(exported.stderr).toMatch(/dns: [^;]*2 managed by the files/);
  });

  it('plans to zero changes on its own', async () => {
    const plan = await cli(['plan', 'rest.yaml', '--detailed-exitcode'], VARIABLES);
    expect(plan.stdout + plan.stderr).toContain('No changes.');
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  }, 60_000);

  it('refuses a managing file with a problem at its file:line:col, before reading anything', async () => {
    const bad = join(s.dir, 'bad.yaml');
    writeFileSync(
      bad,
      `version: 1\nzones:\n  - name: ${ZONE}\n    dns:\n      records:\n        - { name: www, type: A, content: not-an-address }\n`,
    );
    const run = await cli(['export', '--zone', ZONE, '--unmanaged-by', 'bad.yaml', '--out', 'never.yaml']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/bad\.yaml:6:\d+/);
    expect(existsSync(join(s.dir, 'never.yaml'))).toBe(false);
    expect(run.stderr).not.toContain('target:');
  });

  it('writes a kind the files do not set whole, purge included, and its header says so', async () => {
    const logpushOnly = join(s.dir, 'logpush-only.yaml');
    writeFileSync(
      logpushOnly,
      `version: 1\nzones:\n  - name: ${ZONE}\n    logpush:\n      purge: false\n      jobs: []\n`,
    );
    const run = await cli([
      'export',
      '--zone',
      ZONE,
      '--kinds',
      'dns,logpush',
      '--unmanaged-by',
      'logpush-only.yaml',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect((parse(run.stdout) as Doc).zones[0].dns?.purge).toBe(true);
    expect(run.stdout).not.toContain('it purges nothing');
    expect(run.stdout).toContain('a kind they do not set is written whole');
  });

  it('never replaces a managing file with --out, even with --force', async () => {
    const before = readFileSync(managing, 'utf8');
    const run = await cli([
      'export',
      '--zone',
      ZONE,
      '--unmanaged-by',
      'managing.yaml',
      '--out',
      'managing.yaml',
      '--force',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('which this run reads');
    expect(readFileSync(managing, 'utf8')).toBe(before);
  });
});
