/**
 * page_shield against the local API through the built CLI: apply then plan is empty, policy create /
 * update / delete with purge, enabled toggling, drift on an out-of-band change, and the
 * max_malicious_scripts gate on fixtures with malicious, clean and unscored scripts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures, harness, zoneId, type Harness } from './helpers.js';

const ZONE = 'shop.example';
const scripts = [
  { url: 'https://evil.example.net/skim.js', js_integrity_score: 2, status: 'active' },
  { url: 'https://old.example.net/miner.js', js_integrity_score: 9, status: 'infrequent' },
  { url: 'https://cdn.shop.example/app.js', js_integrity_score: 95, status: 'active' },
  { url: 'https://cdn.shop.example/edge.js', js_integrity_score: 10, status: 'infrequent' },
  { url: 'https://new.example.org/unscored.js', status: 'active' },
  { url: 'https://gone.example.org/inactive.js', js_integrity_score: 1, status: 'inactive' },
  // enough clean scripts that the report has to page (per_page 100)
  ...Array.from({ length: 150 }, (_, i) => ({
    url: `https://static.shop.example/chunk-${String(i).padStart(3, '0')}.js`,
    js_integrity_score: 60,
    status: 'active',
  })),
];
const connections = [
  { url: 'https://api.payments.example/v1', status: 'active' },
  {
    url: 'https://collect.example.org/beacon',
    status: 'active',
    domain_reported_malicious: true,
    malicious_domain_categories: ['Phishing'],
  },
];
const cookies = [
  {
    name: 'session',
    host: 'shop.example',
    secure_attribute: true,
    http_only_attribute: true,
    same_site_attribute: 'strict',
  },
  { name: '_ga', host: 'shop.example', secure_attribute: false },
];

const policyA = `
        - description: log third-party scripts
          action: log
          expression: http.host eq "shop.example"
          value: script-src 'self' https://cdn.shop.example`;
const policyB = `
        - description: checkout allow-list
          action: allow
          expression: http.host in {"shop.example" "www.shop.example"}
          value: script-src 'self' https://js.payments.example`;

function desired(body: string): string {
  return `version: 1
zones:
  - name: ${ZONE}
    account: 0123456789abcdef0123456789abcdef
    page_shield:
${body}
`;
}

let h: Harness;
let id: string;

beforeAll(async () => {
  h = await harness(
    fixtures([{ name: ZONE, page_shield: { enabled: false, scripts, connections, cookies } }]),
  );
  id = await zoneId(h.t, ZONE);
});
afterAll(() => h.close());

async function livePolicies() {
  const res = await h.t.api('GET', `/zones/${id}/page_shield/policies`);
  return (res.body.result as { id: string; description: string; action: string; enabled: unknown }[]).sort(
    (a, b) => a.description.localeCompare(b.description),
  );
}

describe('page_shield through the CLI', () => {
  it('applies settings and policies, then plans nothing', async () => {
    const file = h.file('ps.yaml', desired(`      enabled: true\n      policies:${policyA}${policyB}`));
    const from = h.contract.exchanges.length;
    const apply = await h.cli(['apply', file, '--auto-approve', '--verbose']);
    expect(apply.code, apply.stderr).toBe(0);
    // on the wire, a policy's `enabled` is a boolean, as the published schema and the official SDK send it
    const creates = h.contract.exchanges
      .slice(from)
      .filter((x) => x.method === 'POST' && x.url.endsWith('/page_shield/policies'));
    expect(creates.map((x) => (x.requestBody as { enabled: unknown }).enabled)).toEqual([true, true]);
    // the policy list is one page on the real API: read without page/per_page (docs/reference/api-facts.md)
    const reads = apply.stderr.split('\n').filter((l) => /GET \S*page_shield\/policies/.test(l));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.filter((l) => /policies\?/.test(l))).toEqual([]);
    expect((await h.t.api('GET', `/zones/${id}/page_shield`)).body.result.enabled).toBe(true);
    expect((await livePolicies()).map((p) => [p.description, p.action])).toEqual([
      ['checkout allow-list', 'allow'],
      ['log third-party scripts', 'log'],
    ]);
    const plan = await h.cli(['plan', file, '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it('updates in place by description and deletes what the file no longer names (purge)', async () => {
    const before = await livePolicies();
    const changed = policyA.replace('action: log', 'action: allow');
    const file = h.file('ps.yaml', desired(`      enabled: true\n      policies:${changed}`));
    const plan = await h.cli(['plan', file, '--detailed-exitcode']);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('log third-party scripts');
    expect(plan.stdout).toContain('checkout allow-list');
    const from = h.contract.exchanges.length;
    expect((await h.cli(['apply', file, '--auto-approve'])).code).toBe(0);
    // on the wire, a policy's `enabled` is a boolean, as the published schema and the official SDK send it
    const update = h.contract.exchanges
      .slice(from)
      .find((x) => x.method === 'PUT' && /\/page_shield\/policies\/\w+$/.test(x.url));
    expect(update?.requestBody).toMatchObject({ action: 'allow', enabled: true });
    const after = await livePolicies();
    expect(after).toHaveLength(1);
    // the same object, changed in place
    expect(after[0].id).toBe(before.find((p) => p.description === 'log third-party scripts')!.id);
    expect(after[0].action).toBe('allow');
    expect((await h.cli(['plan', file, '--detailed-exitcode'])).code).toBe(0);
  });

  it('keeps unnamed policies with purge: false', async () => {
    const file = h.file('ps.yaml', desired(`      purge: false\n      policies:${policyB}`));
    expect((await h.cli(['apply', file, '--auto-approve'])).code).toBe(0);
    expect((await livePolicies()).map((p) => p.description)).toEqual([
      'checkout allow-list',
      'log third-party scripts',
    ]);
  });

  it('toggles enabled both ways', async () => {
    const off = h.file('ps.yaml', desired('      enabled: false'));
    expect((await h.cli(['apply', off, '--auto-approve'])).code).toBe(0);
    expect((await h.t.api('GET', `/zones/${id}/page_shield`)).body.result.enabled).toBe(false);
    expect((await h.cli(['plan', off, '--detailed-exitcode'])).code).toBe(0);
    const on = h.file('ps.yaml', desired('      enabled: true'));
    expect((await h.cli(['apply', on, '--auto-approve'])).code).toBe(0);
    expect((await h.t.api('GET', `/zones/${id}/page_shield`)).body.result.enabled).toBe(true);
  });

  it('drift exits 2 on an out-of-band change and names the policy', async () => {
    const file = h.file('ps.yaml', desired(`      enabled: true\n      policies:${policyA}${policyB}`));
    expect((await h.cli(['apply', file, '--auto-approve'])).code).toBe(0);
    expect((await h.cli(['drift', file])).code).toBe(0);
    const target = (await livePolicies()).find((p) => p.description === 'checkout allow-list')!;
    const put = await h.t.api('PUT', `/zones/${id}/page_shield/policies/${target.id}`, {
      value: "script-src 'self' https://attacker.example",
    });
    expect(put.status).toBe(200);
    const drift = await h.cli(['drift', file]);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('checkout allow-list');
    expect(drift.stdout).toContain('https://attacker.example');
  });

  it('needs a token: with only an e-mail/key pair the plan fails before any request', async () => {
    const file = h.file('ps.yaml', desired('      enabled: true'));
    const r = await h.cli(['plan', file], {
      CLOUDFLARE_API_TOKEN: '',
      CLOUDFLARE_EMAIL: 'ops@shop.example',
      CLOUDFLARE_API_KEY: '0123456789abcdef0123456789abcdef01234',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/page_shield needs an API token/);
  });

  describe('max_malicious_scripts', () => {
    const withCeiling = (n: number) =>
      h.file('ceiling.yaml', desired(`      enabled: true\n      max_malicious_scripts: ${n}`));

    it('fails plan and drift with exit 1 naming the count and the limit (active and infrequent counted)', async () => {
      for (const cmd of ['plan', 'drift']) {
        const r = await h.cli([cmd, withCeiling(1)]);
        expect(r.code, cmd).toBe(1);
        expect(r.stderr).toMatch(/ceiling\.yaml:\d+:\d+: zone shop\.example/);
        expect(r.stderr).toMatch(
          /zone shop\.example: 2 malicious scripts detected \(active and infrequent\), more than max_malicious_scripts 1/,
        );
        expect(r.stderr).toContain('https://evil.example.net/skim.js (score 2, active)');
        expect(r.stderr).toContain('https://old.example.net/miner.js (score 9, infrequent)');
        // unscored, score 10 and inactive scripts are not counted
        expect(r.stderr).not.toContain('unscored.js');
        expect(r.stderr).not.toContain('inactive.js');
      }
    });

    it('passes at the limit', async () => {
      const r = await h.cli(['plan', withCeiling(2), '--detailed-exitcode']);
      expect(r.code, r.stderr).toBe(0);
    });
  });

  describe('page-shield report', () => {
    it('pages through everything and lists malicious first, unknown apart, reported-malicious as a column', async () => {
      const r = await h.cli(['page-shield', 'report', ZONE, '-v']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/GET \/zones\/:id\/page_shield\/scripts\?\S*page=2\S* 200/);
      const lines = r.stdout.split('\n');
      const at = (text: string) => lines.findIndex((l) => l.includes(text));
      expect(lines[1]).toBe(
        '155 scripts: 2 malicious, 152 clean, 1 unknown score, 0 reported malicious; 2 connections, 2 cookies',
      );
      expect(at('Malicious scripts')).toBeLessThan(at('skim.js'));
      expect(at('skim.js')).toBeLessThan(at('miner.js'));
      expect(at('miner.js')).toBeLessThan(at('Other scripts'));
      expect(at('Other scripts')).toBeLessThan(at('chunk-149.js'));
      expect(at('chunk-149.js')).toBeLessThan(at('Scripts without a score'));
      expect(at('Scripts without a score')).toBeLessThan(at('unscored.js'));
      expect(r.stdout).not.toContain('inactive.js');
      expect(lines[at('Connections') + 1]).toMatch(/STATUS\s+REPORTED MALICIOUS\s+URL/);
      expect(lines[at('Connections') + 2]).toMatch(
        /active\s+domain \(Phishing\)\s+https:\/\/collect\.example\.org\/beacon/,
      );
      expect(lines[at('Cookies') + 2]).toMatch(/shop\.example\s+_ga\s+first_party\s+no/);
    });

    it('filters by status and prints json by zone id', async () => {
      const r = await h.cli([
        'page-shield',
        'report',
        id,
        '--status',
        'infrequent,inactive',
        '--format',
        'json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout);
      expect(doc.zone).toEqual({ id, name: ZONE });
      expect(doc.scripts.malicious.map((s: { url: string }) => s.url)).toEqual([
        'https://gone.example.org/inactive.js',
        'https://old.example.net/miner.js',
      ]);
      expect(doc.scripts.clean.map((s: { status: string }) => s.status)).toEqual(['infrequent']);
    });

    it('says plainly when the zone or the status is wrong', async () => {
      const missing = await h.cli(['page-shield', 'report', 'nope.example']);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('zone nope.example was not found at this target');
      const bad = await h.cli(['page-shield', 'report', ZONE, '--status', 'sometimes']);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('--status takes a comma list of active, infrequent, inactive');
    });
  });
});
