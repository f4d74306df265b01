/**
 * `renamed_from` against the local API, through the CLI, for each kind that has it (a Page Shield
 * policy, a Logpush job, a notification policy, a DNS record): apply a file, rename with
 * `renamed_from`, plan (a rename in every format, no create, no delete), apply, and check that the
 * live object kept its id, that no POST or DELETE was sent for it, and that the next plan is empty.
 * Then the warning (renamed_from that matches nothing live), the refusal when both names live, and
 * the file's checks with their `file:line:col`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT, fixtures, harness, zoneId, type Harness } from './page-shield/helpers.js';

const ZONE = 'rename.example';

interface Names {
  policy: string;
  job: string;
  alert: string;
  record: string;
}

const OLD: Names = { policy: 'scripts old', job: 'http-old', alert: 'pool alert old', record: 'old' };
const NEW: Names = { policy: 'scripts new', job: 'http-new', alert: 'pool alert new', record: 'new' };

/** The whole file: `from` adds `renamed_from` to the one object of each kind. */
function desired(names: Names, from?: Names, extra = ''): string {
  const renamed = (key: keyof Names, indent: string) =>
    from ? `\n${indent}renamed_from: ${JSON.stringify(from[key])}` : '';
  return `version: 1
zones:
  - name: ${ZONE}
    account: ${ACCOUNT}
    dns:
      records:
        - name: ${names.record}${renamed('record', '          ')}
          type: A
          content: 192.0.2.10
          ttl: 300
        - name: ${names.record}${renamed('record', '          ')}
          type: A
          content: 192.0.2.11
          ttl: 300
        - name: www
          type: A
          content: 192.0.2.20
${extra}
    page_shield:
      policies:
        - description: ${JSON.stringify(names.policy)}${renamed('policy', '          ')}
          action: log
          expression: http.host eq "${ZONE}"
          value: script-src 'self'
    logpush:
      jobs:
        - name: ${names.job}${renamed('job', '          ')}
          dataset: http_requests
          destination_conf: https://collector.logs.example/ingest
accounts:
  - id: ${ACCOUNT}
    load_balancing:
      notifications:
        - name: ${JSON.stringify(names.alert)}${renamed('alert', '          ')}
          alert_type: load_balancing_health_alert
          email: [ops@example.com]
`;
}

let h: Harness;
let zone: string;

beforeAll(async () => {
  h = await harness(fixtures([{ name: ZONE }]));
  zone = await zoneId(h.t, ZONE);
});
afterAll(() => h.close());

interface Live {
  policy: { id: string; description: string };
  job: { id: number; name: string };
  alert: { id: string; name: string };
  records: { id: string; name: string; content: string }[];
}

async function live(): Promise<Live> {
  const result = async <T>(path: string) => (await h.t.api('GET', path)).body.result as T;
  const policies = await result<Live['policy'][]>(`/zones/${zone}/page_shield/policies`);
  const jobs = await result<Live['job'][]>(`/zones/${zone}/logpush/jobs`);
  const alerts = await result<Live['alert'][]>(`/accounts/${ACCOUNT}/alerting/v3/policies`);
  const records = await result<Live['records']>(`/zones/${zone}/dns_records?type=A&per_page=100`);
  expect([policies.length, jobs.length, alerts.length]).toEqual([1, 1, 1]);
  return {
    policy: policies[0]!,
    job: jobs[0]!,
    alert: alerts[0]!,
    records: records.filter((r) => r.name !== `www.${ZONE}`).sort((a, b) => (a.content < b.content ? -1 : 1)),
  };
}

describe('renamed_from: an in-place rename for every kind', { timeout: 120_000 }, () => {
  it('renames each object in place: same ids, no POST or DELETE, and the next plan is empty', async () => {
    const first = h.file('v1.yaml', desired(OLD));
    const applied = await h.cli(['apply', first, '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    const before = await live();
    expect(before.records.map((r) => r.name)).toEqual([`old.${ZONE}`, `old.${ZONE}`]);

    const file = h.file('v2.yaml', desired(NEW, OLD));
    const plan = await h.cli(['plan', file, '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    expect(plan.stdout).toContain(`~ rename policy "${OLD.policy}" -> "${NEW.policy}"`);
    expect(plan.stdout).toContain(`~ rename job "${OLD.job}" -> "${NEW.job}"`);
    expect(plan.stdout).toContain(`~ rename notification policy "${OLD.alert}" -> "${NEW.alert}"`);
    expect(plan.stdout).toContain('~ rename old -> new A 192.0.2.10');
    expect(plan.stdout).toContain('~ rename old -> new A 192.0.2.11');
    // the other field changes show under the rename
    expect(plan.stdout).toContain(`description: "${OLD.policy}" -> "${NEW.policy}"`);
    expect(plan.stdout).toContain(`name: "old.${ZONE}" -> "new.${ZONE}"`);
    expect(plan.stdout).toContain('Plan: 0 to create, 5 to update, 0 to delete');
    expect(plan.stderr).not.toContain('warning');

    const json = await h.cli(['plan', file, '--format', 'json']);
    const steps = (JSON.parse(json.stdout) as { steps: { action: string; rename?: unknown }[] }).steps;
    expect(steps.map((s) => s.action)).toEqual(Array(5).fill('update'));
    expect(steps.map((s) => s.rename)).toContainEqual({ from: OLD.job, to: NEW.job });
    expect(steps.map((s) => s.rename)).toContainEqual({ from: 'old', to: 'new' });
    const markdown = await h.cli(['plan', file, '--format', 'markdown']);
    expect(markdown.stdout).toContain(
      `| \`~\` rename | page_shield | \`policy "${OLD.policy}" -> "${NEW.policy}"\``,
    );

    const from = h.contract.exchanges.length;
    const apply = await h.cli(['apply', file, '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(0);
    const writes = h.contract.exchanges.slice(from).filter((x) => x.method !== 'GET');
    expect(writes.filter((x) => x.method === 'POST' && !x.url.endsWith('/dns_records/batch'))).toEqual([]);
    expect(writes.filter((x) => x.method === 'DELETE')).toEqual([]);
    for (const x of writes.filter((w) => w.url.endsWith('/dns_records/batch'))) {
      const body = x.requestBody as { deletes?: unknown[]; posts?: unknown[] };
      expect([body.deletes ?? [], body.posts ?? []]).toEqual([[], []]);
    }

    // the server's objects under their old ids carry the new names
    const get = async (path: string) => (await h.t.api('GET', path)).body.result;
    expect((await get(`/zones/${zone}/page_shield/policies/${before.policy.id}`)).description).toBe(
      NEW.policy,
    );
    expect((await get(`/zones/${zone}/logpush/jobs/${before.job.id}`)).name).toBe(NEW.job);
    expect((await get(`/accounts/${ACCOUNT}/alerting/v3/policies/${before.alert.id}`)).name).toBe(NEW.alert);
    for (const r of before.records) {
      expect((await get(`/zones/${zone}/dns_records/${r.id}`)).name).toBe(`new.${ZONE}`);
    }
    const after = await live();
    expect(after.records.map((r) => r.id)).toEqual(before.records.map((r) => r.id));

    const again = await h.cli(['plan', file, '--detailed-exitcode']);
    expect(again.code, again.stdout).toBe(0);
    // renamed_from left in the file matches nothing now: a warning per object, not an error
    const warnings = again.stderr.split('\n').filter((l) => l.includes('matches no'));
    expect(warnings).toHaveLength(5);
    expect(again.stderr).toMatch(
      /warning: .*v2\.yaml:\d+:\d+: zone rename\.example: page_shield: policy "scripts new": renamed_from "scripts old" matches nothing live/,
    );
    expect(again.stderr).toMatch(
      /warning: .*v2\.yaml:\d+:\d+: zone rename\.example: dns: record new A 192\.0\.2\.10: renamed_from "old" matches no live A record/,
    );
  });

  it('refuses to plan when both the old and the new name live, naming both', async () => {
    const file = h.file('v2.yaml', desired(NEW, OLD));
    const now = await live();
    const other = await h.t.api('POST', `/zones/${zone}/logpush/jobs`, {
      name: OLD.job,
      dataset: 'http_requests',
      destination_conf: 'https://collector.logs.example/other',
    });
    expect(other.status).toBe(200);
    const plan = await h.cli(['plan', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(
      new RegExp(
        `v2\\.yaml:\\d+:\\d+: job "${NEW.job}": renamed_from "${OLD.job}" \\(id ${other.body.result.id}\\) and the new name \\(id ${now.job.id}\\) both exist live`,
      ),
    );
    await h.t.api('DELETE', `/zones/${zone}/logpush/jobs/${other.body.result.id}`);
  });

  it('renames one record of a set, chosen by its value', async () => {
    // 192.0.2.11 moves from `new` to `api`; 192.0.2.10 stays at `new`
    const record = (name: string, content: string, from = '') =>
      `        - name: ${name}\n${from}          type: A\n          content: ${content}\n          ttl: 300\n`;
    const file = h.file(
      'v3.yaml',
      desired(NEW, undefined, record('api', '192.0.2.11', '          renamed_from: new\n').trimEnd()).replace(
        record('new', '192.0.2.11'),
        '',
      ),
    );
    const before = await live();
    const plan = await h.cli(['plan', file]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('~ rename new -> api A 192.0.2.11');
    expect(plan.stdout).toContain('Plan: 0 to create, 1 to update, 0 to delete');
    expect((await h.cli(['apply', file, '--auto-approve'])).code).toBe(0);
    const moved = before.records.find((r) => r.content === '192.0.2.11')!;
    expect((await h.t.api('GET', `/zones/${zone}/dns_records/${moved.id}`)).body.result.name).toBe(
      `api.${ZONE}`,
    );
  });
});

describe('renamed_from: the file checks', () => {
  it('refuses its own name, another kept object, and one old name taken twice, at file:line:col', async () => {
    const file = h.file(
      'bad.yaml',
      `version: 1
zones:
  - name: ${ZONE}
    account: ${ACCOUNT}
    dns:
      records:
        - name: a
          renamed_from: a.${ZONE}
          type: A
          content: 192.0.2.1
        - name: b
          renamed_from: a
          type: A
          content: 192.0.2.1
        - name: c
          renamed_from: z
          type: TXT
          content: one
        - name: d
          renamed_from: z
          type: TXT
          content: one
    page_shield:
      policies:
        - description: p1
          renamed_from: p2
          action: log
          expression: http.host eq "x.example"
          value: script-src 'self'
        - description: p2
          action: log
          expression: http.host eq "x.example"
          value: script-src 'self'
    logpush:
      jobs:
        - name: j1
          renamed_from: j1
          dataset: http_requests
          destination_conf: https://collector.logs.example/ingest
accounts:
  - id: ${ACCOUNT}
    load_balancing:
      notifications:
        - name: n1
          renamed_from: old
          alert_type: load_balancing_health_alert
          email: [ops@example.com]
        - name: n2
          renamed_from: OLD
          alert_type: load_balancing_health_alert
          email: [ops@example.com]
`,
    );
    const r = await h.cli(['validate', file]);
    expect(r.code).toBe(1);
    const lines = (r.stdout + r.stderr).split('\n');
    const at = (line: number, text: string) =>
      expect(
        lines.some((l) => l.includes(`bad.yaml:${line}:`) && l.includes(text)),
        `${line}: ${text}\n${r.stdout}${r.stderr}`,
      ).toBe(true);
    at(8, `renamed_from "a.${ZONE}" is the record's own name`);
    at(12, 'renamed_from "a" names another record of this file (zones[0].dns.records[0]), which is kept');
    at(20, 'renamed_from "z" is also given by zones[0].dns.records[2]');
    at(26, 'renamed_from "p2" names another policy of this file (zones[0].page_shield.policies[1])');
    at(37, `renamed_from "j1" is the job's own name`);
    at(49, 'renamed_from "OLD" is also given by accounts[0].load_balancing.notifications[0]');
  });
});
