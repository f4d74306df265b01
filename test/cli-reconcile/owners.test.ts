/**
 * Owners (docs/sharing-a-zone.md) end to end: two checkouts (two directories, owners `platform`
 * and `blog`) apply to the same zones of one local API with `purge: true`, in both orders, through
 * the built CLI (bin/zoneplan.js as a child process). Both converge, neither touches the other's
 * objects (asserted on the API's store), each one's second plan is empty; a collision with the
 * other owner's object is a plan error naming that owner, and an unmarked object the file names is
 * refused without `adopt: true` and marked with it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, spawnCli } from '../support/processes.js';
import { ACCOUNT, api, startBed, type Bed } from './helpers.js';

const FREE = 'free.example';
const PRO = 'pro.example';

let bed: Bed | undefined;
beforeAll(() => requireBuild());
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

const fixtures = {
  accounts: [{ id: ACCOUNT, name: 'Shared' }],
  zones: [
    { name: FREE, account: ACCOUNT, plan: 'free', records: [] },
    { name: PRO, account: ACCOUNT, plan: 'pro', records: [] },
  ],
};

/** One checkout: its own directory holding its own desired-state file. */
function checkout(owner: string, zones: string[], account: string[] = [], options = ''): string {
  const dir = mkdtempSync(join(tmpdir(), `zp-owner-${owner}-`));
  const text = ['version: 1', 'zones:', ...zones];
  if (account.length > 0) {
    text.push('accounts:', `  - id: ${ACCOUNT}`, `    owner: ${owner}`, ...account);
  }
  writeFileSync(
    join(dir, 'zones.yaml'),
    text.join('\n').replaceAll('OWNER', `owner: ${owner}${options}`) + '\n',
  );
  return dir;
}

function zone(name: string, body: string[]): string[] {
  return [`  - name: ${name}`, `    account: ${ACCOUNT}`, '    OWNER', ...body];
}

const dnsOf = (records: string[]) => [
  '    dns:',
  '      purge: true',
  '      records:',
  ...records.map((r) => `        - ${r}`),
];

const platform = () =>
  checkout(
    'platform',
    [
      ...zone(FREE, [
        ...dnsOf([
          "{ name: '@', type: A, content: 192.0.2.1, comment: apex }",
          '{ name: www, type: CNAME, content: free.example }',
        ]),
        '    page_shield:',
        '      policies:',
        '        - { description: platform csp, action: log, expression: \'http.host eq "free.example"\', value: "script-src \'self\'" }',
        '    logpush:',
        '      jobs:',
        '        - { name: platform-http, dataset: http_requests, destination_conf: "https://logs.example/platform" }',
      ]),
      ...zone(PRO, dnsOf(["{ name: '@', type: A, content: 192.0.2.1, tags: ['team:core'] }"])),
    ],
    [
      '    load_balancing:',
      '      purge: true',
      '      notifications:',
      '        - { name: platform alerts, alert_type: load_balancing_health_alert, email: [ops@example.com] }',
    ],
  );

const blog = () =>
  checkout(
    'blog',
    [
      ...zone(FREE, [
        ...dnsOf([
          '{ name: blog, type: A, content: 192.0.2.2, comment: the blog }',
          '{ name: blog-www, type: CNAME, content: blog.free.example }',
        ]),
        '    page_shield:',
        '      policies:',
        '        - { description: blog csp, action: allow, expression: \'http.host eq "blog.free.example"\', value: "script-src \'self\'" }',
        '    logpush:',
        '      jobs:',
        '        - { name: blog-http, dataset: http_requests, destination_conf: "https://logs.example/blog" }',
      ]),
      ...zone(PRO, dnsOf(['{ name: blog, type: A, content: 192.0.2.2 }'])),
    ],
    [
      '    load_balancing:',
      '      purge: true',
      '      notifications:',
      '        - { name: blog alerts, alert_type: load_balancing_health_alert, email: [blog@example.com], description: the blog }',
    ],
  );

function run(dir: string, args: string[]) {
  return spawnCli([args[0]!, join(dir, 'zones.yaml'), ...args.slice(1), '--api-url', bed!.contract.url], {
    cwd: dir,
    env: { CLOUDFLARE_API_TOKEN: bed!.token },
  });
}

async function applyOk(dir: string): Promise<void> {
  const r = await run(dir, ['apply', '--auto-approve']);
  expect(r.code, r.stdout + r.stderr).toBe(0);
}

async function planIsEmpty(dir: string): Promise<void> {
  const r = await run(dir, ['plan', '--detailed-exitcode']);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.stdout).toContain('No changes.');
}

async function zoneId(name: string): Promise<string> {
  return (await api<{ id: string }[]>(bed!, 'GET', `/zones?name=${name}`))[0]!.id;
}

type Stored = {
  id: string;
  name: string;
  type: string;
  content: string;
  comment: string | null;
  tags: string[];
};

/** `name type content | comment | tags` of every record but the apex NS, sorted. */
async function records(name: string): Promise<string[]> {
  const all = await api<Stored[]>(bed!, 'GET', `/zones/${await zoneId(name)}/dns_records?per_page=500`);
  return all
    .filter((r) => r.type !== 'NS')
    .map(
      (r) =>
        `${r.name} ${r.type} ${r.content} | ${r.comment ?? ''} | ${[...(r.tags ?? [])].sort().join(',')}`,
    )
    .sort();
}

async function sharedState() {
  const free = await zoneId(FREE);
  const policies = await api<{ description: string }[]>(bed!, 'GET', `/zones/${free}/page_shield/policies`);
  const jobs = await api<{ name: string }[]>(bed!, 'GET', `/zones/${free}/logpush/jobs`);
  const alerts = await api<{ name: string; description?: string }[]>(
    bed!,
    'GET',
    `/accounts/${ACCOUNT}/alerting/v3/policies`,
  );
  return {
    free: await records(FREE),
    pro: await records(PRO),
    policies: policies.map((p) => p.description).sort(),
    jobs: jobs.map((j) => j.name).sort(),
    alerts: alerts.map((a) => `${a.name} | ${a.description ?? ''}`).sort(),
  };
}

const CONVERGED = {
  free: [
    'blog-www.free.example CNAME blog.free.example | [zoneplan-owner:blog] | ',
    'blog.free.example A 192.0.2.2 | the blog [zoneplan-owner:blog] | ',
    'free.example A 192.0.2.1 | apex [zoneplan-owner:platform] | ',
    'www.free.example CNAME free.example | [zoneplan-owner:platform] | ',
  ],
  pro: [
    'blog.pro.example A 192.0.2.2 |  | zoneplan-owner:blog',
    'pro.example A 192.0.2.1 |  | team:core,zoneplan-owner:platform',
  ],
  policies: ['blog csp [zoneplan-owner:blog]', 'platform csp [zoneplan-owner:platform]'],
  jobs: ['blog-http.zoneplan-owner.blog', 'platform-http.zoneplan-owner.platform'],
  alerts: ['blog alerts | the blog [zoneplan-owner:blog]', 'platform alerts | [zoneplan-owner:platform]'],
};

describe('two owners share a zone', () => {
  for (const order of [
    ['platform', 'blog'],
    ['blog', 'platform'],
  ]) {
    it(`applied ${order.join(' then ')}, both converge and each second plan is empty`, async () => {
      bed = await startBed({ fixtures });
      const dirs: Record<string, string> = { platform: platform(), blog: blog() };
      await applyOk(dirs[order[0]!]!);
      // the second owner's plan, rehearsed on a copy of the live state (markers and all), converges there
      const rehearsed = await run(dirs[order[1]!]!, ['plan', '--rehearse']);
      expect(rehearsed.code, rehearsed.stdout + rehearsed.stderr).toBe(0);
      expect(rehearsed.stdout + rehearsed.stderr).toContain('second plan empty');
      await applyOk(dirs[order[1]!]!);
      expect(await sharedState()).toEqual(CONVERGED);
      for (const owner of order) await planIsEmpty(dirs[owner]!);
      // a second round changes nothing either
      for (const owner of order) await applyOk(dirs[owner]!);
      expect(await sharedState()).toEqual(CONVERGED);
    });
  }

  it("purge deletes only the owner's own objects; another owner's stay", async () => {
    bed = await startBed({ fixtures });
    const dirs = { platform: platform(), blog: blog() };
    await applyOk(dirs.platform);
    await applyOk(dirs.blog);
    // what the platform's file does not manage is the blog's part, written as the blog wrote it
    const rest = await spawnCli(
      [
        'export',
        '--zone',
        FREE,
        '--unmanaged-by',
        join(dirs.platform, 'zones.yaml'),
        '--api-url',
        bed.contract.url,
      ],
      { cwd: dirs.blog, env: { CLOUDFLARE_API_TOKEN: bed.token } },
    );
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.stdout).toContain('blog csp');
    expect(rest.stdout).toContain('blog-http');
    expect(rest.stdout).not.toContain('platform csp');
    expect(rest.stdout).not.toContain('zoneplan-owner');
    // the blog drops everything it declared: its own objects go, the platform's stay
    writeFileSync(
      join(dirs.blog, 'zones.yaml'),
      [
        'version: 1',
        'zones:',
        ...zone(FREE, [...dnsOf([]), '    page_shield: { policies: [] }', '    logpush: { jobs: [] }']),
        'accounts:',
        `  - id: ${ACCOUNT}`,
        '    owner: blog',
        '    load_balancing: { purge: true, notifications: [] }',
      ]
        .join('\n')
        .replace('OWNER', 'owner: blog')
        .replace('      records:', '      records: []') + '\n',
    );
    await applyOk(dirs.blog);
    const state = await sharedState();
    expect(state.free).toEqual(CONVERGED.free.filter((r) => r.includes('platform')));
    expect(state.policies).toEqual(['platform csp [zoneplan-owner:platform]']);
    expect(state.jobs).toEqual(['platform-http.zoneplan-owner.platform']);
    expect(state.alerts).toEqual(['platform alerts | [zoneplan-owner:platform]']);
    await planIsEmpty(dirs.blog);
    await planIsEmpty(dirs.platform);
    // export writes the user's text, without markers, and the exported file plans to nothing
    const exported = await spawnCli(
      ['export', '--zone', FREE, '--out', join(dirs.blog, 'exported.yaml'), '--api-url', bed.contract.url],
      { cwd: dirs.blog, env: { CLOUDFLARE_API_TOKEN: bed.token } },
    );
    expect(exported.code, exported.stderr).toBe(0);
    const text = readFileSync(join(dirs.blog, 'exported.yaml'), 'utf8');
    expect(text).toContain('platform-http');
    expect(text).toContain('apex');
    expect(text).not.toContain('zoneplan-owner');
    const replanned = await spawnCli(
      ['plan', join(dirs.blog, 'exported.yaml'), '--detailed-exitcode', '--api-url', bed.contract.url],
      { cwd: dirs.blog, env: { CLOUDFLARE_API_TOKEN: bed.token } },
    );
    expect(replanned.code, replanned.stdout + replanned.stderr).toBe(0);
  });

  it("a desired object that collides with another owner's is a plan error naming that owner", async () => {
    bed = await startBed({ fixtures });
    await applyOk(platform());
    const before = await sharedState();
    const dir = checkout('blog', [
      ...zone(FREE, [
        ...dnsOf([
          "{ name: '@', type: A, content: 192.0.2.1 }",
          '{ name: www, type: A, content: 192.0.2.9 }',
        ]),
        '    page_shield:',
        '      policies:',
        '        - { description: platform csp, action: log, expression: \'http.host eq "x.example"\', value: "script-src \'self\'" }',
        '    logpush:',
        '      jobs:',
        '        - { name: platform-http, dataset: http_requests, destination_conf: "https://logs.example/blog" }',
      ]),
    ]);
    for (const args of [['plan'], ['apply', '--auto-approve']]) {
      const r = await run(dir, args);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stderr).toMatch(
        /zones\.yaml:\d+:\d+: zone free\.example: zones\[0\]\.dns\.records\[0\]: @ A 192\.0\.2\.1 collides with the record @ A 192\.0\.2\.1 \(id \w+\), which belongs to owner platform/,
      );
      expect(r.stderr).toMatch(/www A collides with owner platform's record www CNAME free\.example/);
      expect(r.stderr).toMatch(
        /policy "platform csp" collides with policy "platform csp" \(id \w+\), which belongs to owner platform/,
      );
      expect(r.stderr).toMatch(
        /job "platform-http" collides with job "platform-http" \(id \d+\), which belongs to owner platform/,
      );
    }
    expect(await sharedState()).toEqual(before);
  });

  it('an unmarked object the file names needs adopt: true, which marks it; unnamed ones are left alone', async () => {
    bed = await startBed({ fixtures });
    const free = await zoneId(FREE);
    await api(bed, 'POST', `/zones/${free}/dns_records`, {
      type: 'A',
      name: FREE,
      content: '192.0.2.1',
      ttl: 1,
    });
    await api(bed, 'POST', `/zones/${free}/dns_records`, {
      type: 'TXT',
      name: `_acme-challenge.${FREE}`,
      content: 'certbot-token',
      ttl: 120,
    });
    await api(bed, 'POST', `/zones/${free}/page_shield/policies`, {
      description: 'platform csp',
      action: 'log',
      expression: 'http.host eq "free.example"',
      value: "script-src 'self'",
      enabled: true,
    });
    await api(bed, 'POST', `/accounts/${ACCOUNT}/alerting/v3/policies`, {
      name: 'platform alerts',
      alert_type: 'load_balancing_health_alert',
      enabled: true,
      mechanisms: { email: [{ id: 'ops@example.com' }] },
    });
    const refused = await run(platform(), ['plan']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /zone free\.example: zones\[0\]\.dns\.records\[0\]: @ A 192\.0\.2\.1 names the record @ A 192\.0\.2\.1 \(id \w+\), which exists live without an owner marker: set adopt: true/,
    );
    expect(refused.stderr).toContain('policy "platform csp" names policy "platform csp"');
    expect(refused.stderr).toContain(
      'notification policy "platform alerts" names notification policy "platform alerts"',
    );

    const dir = platform();
    const file = join(dir, 'zones.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replaceAll('owner: platform', 'owner: platform\n    adopt: true'),
    );
    const plan = await run(dir, ['plan']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('owner: null -> "platform"');
    await applyOk(dir);
    const state = await sharedState();
    expect(state.free).toEqual([
      '_acme-challenge.free.example TXT certbot-token |  | ',
      'free.example A 192.0.2.1 | apex [zoneplan-owner:platform] | ',
      'www.free.example CNAME free.example | [zoneplan-owner:platform] | ',
    ]);
    expect(state.policies).toEqual(['platform csp [zoneplan-owner:platform]']);
    expect(state.alerts).toEqual(['platform alerts | [zoneplan-owner:platform]']);
    await planIsEmpty(dir);
  });
});
