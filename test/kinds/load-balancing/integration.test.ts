/**
 * load_balancing against the real local API, through the built CLI: the example applies and then
 * plans nothing, drift sees an out-of-band change, 60 pools are cleared page by page and verified,
 * and an uncovered legacy recipient makes the plan refuse without touching anything.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT, fixtures, pools, startBed, type Bed } from './harness.js';

const example = readFileSync(new URL('../../../examples/load-balancing.yaml', import.meta.url), 'utf8');

let bed: Bed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

async function livePools(b: Bed) {
  return (await b.t.api('GET', `/accounts/${ACCOUNT}/load_balancers/pools`)).body.result as {
    id: string;
    name: string;
    notification_email: string;
  }[];
}

async function livePolicies(b: Bed) {
  return (await b.t.api('GET', `/accounts/${ACCOUNT}/alerting/v3/policies`)).body.result as {
    id: string;
    name: string;
    filters: Record<string, string[]>;
    mechanisms: Record<string, { id: string }[]>;
  }[];
}

// several CLI runs per test: generous on a loaded 2-core runner
describe('load_balancing against the local API', { timeout: 120_000 }, () => {
  it('applies the example, plans nothing after, and drift exits 2 on an out-of-band change', async () => {
    bed = await startBed(
      fixtures({
        pools: [
          { name: 'eu-primary', notification_email: 'ops@example.com, noc@example.com' },
          { name: 'us-primary', notification_email: 'ops@example.com' },
          { name: 'apac-backup', notification_email: '' },
        ],
      }),
    );
    const file = bed.file('load-balancing.yaml', example);
    expect((await bed.cli(['validate', file])).code).toBe(0);

    const plan = await bed.cli(['plan', file, '--detailed-exitcode']);
    expect(plan.code).toBe(2);
    const ids = new Map((await livePools(bed)).map((p) => [p.name, p.id]));
    // `pools: all` is shown expanded, by name and id
    expect(plan.stdout).toContain(`us-primary (${ids.get('us-primary')})`);
    expect(plan.stdout).toContain(`apac-backup (${ids.get('apac-backup')})`);
    expect(plan.stdout).toMatch(/migrate legacy notification_email of 2 pools/);

    const apply = await bed.cli(['apply', file, '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(0);
    const policies = await livePolicies(bed);
    expect(policies.map((p) => p.name).sort()).toEqual(['eu pools down', 'pool health']);
    const health = policies.find((p) => p.name === 'pool health')!;
    expect([...health.filters.pool_id].sort()).toEqual([...ids.values()].sort());
    expect((await livePools(bed)).map((p) => p.notification_email)).toEqual(['', '', '']);

    const again = await bed.cli(['plan', file, '--detailed-exitcode']);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain('No changes');

    // someone drops a recipient by hand
    await bed.t.api('PUT', `/accounts/${ACCOUNT}/alerting/v3/policies/${health.id}`, {
      name: 'pool health',
      alert_type: 'load_balancing_health_alert',
      enabled: true,
      description: 'every pool and origin, both directions (replaces the legacy e-mails)',
      filters: health.filters,
      mechanisms: { email: [{ id: 'ops@example.com' }] },
    });
    const drift = await bed.cli(['drift', file]);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toMatch(/update notification policy "pool health"/);
    expect(drift.stdout).toContain('noc@example.com');
  });

  it('clears the legacy e-mails of 60 pools page by page (25 per PATCH) and verifies them', async () => {
    bed = await startBed(
      fixtures({ pools: pools(60, (i) => (i % 2 ? 'ops@example.com' : 'noc@example.com')) }),
    );
    const file = bed.file(
      'lb.yaml',
      `version: 1
accounts:
  - id: ${ACCOUNT}
    load_balancing:
      legacy_pool_emails: remove
      notifications:
        - { name: all pools, alert_type: load_balancing_health_alert, pools: all, email: [ops@example.com, noc@example.com] }
`,
    );
    const apply = await bed.cli(['apply', file, '--auto-approve', '--verbose']);
    expect(apply.code, apply.stderr).toBe(0);
    const patches = apply.stderr.split('\n').filter((l) => /PATCH \S*load_balancers\/pools/.test(l));
    expect(patches).toHaveLength(3); // pages 1, 2 and 3 of 25
    // the pool list is one page on the real API: read without page/per_page (docs/reference/api-facts.md)
    const reads = apply.stderr.split('\n').filter((l) => /GET \S*load_balancers\/pools/.test(l));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.filter((l) => /pools\?/.test(l))).toEqual([]);
    const live = await livePools(bed);
    expect(live).toHaveLength(60);
    expect(live.filter((p) => p.notification_email !== '')).toEqual([]);
    expect((await bed.cli(['plan', file, '--detailed-exitcode'])).code).toBe(0);
  });

  it('refuses to clear when a legacy recipient would be lost, naming addresses and pools, and changes nothing', async () => {
    bed = await startBed(
      fixtures({
        pools: [
          { name: 'web', notification_email: 'ops@example.com, dba@example.com' },
          { name: 'api', notification_email: 'ops@example.com' },
        ],
      }),
    );
    const file = bed.file(
      'lb.yaml',
      `version: 1
accounts:
  - id: ${ACCOUNT}
    load_balancing:
      legacy_pool_emails: remove
      notifications:
        - name: web only
          alert_type: load_balancing_health_alert
          pools: [web]
          new_health: [Unhealthy]
          email: [ops@example.com]
`,
    );
    for (const cmd of ['plan', 'apply']) {
      const r = await bed.cli(cmd === 'plan' ? ['plan', file] : ['apply', file, '--auto-approve']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/would lose recipients/);
      expect(r.stderr).toMatch(/dba@example\.com: web \([0-9a-f]{32}; missing pool:Unhealthy, pool:Healthy/);
      expect(r.stderr).toMatch(
        /ops@example\.com: api \([0-9a-f]{32}; missing pool:Unhealthy.*\); web \([0-9a-f]{32}; missing pool:Healthy, origin:Healthy\)/,
      );
    }
    expect(await livePolicies(bed)).toEqual([]);
    expect((await livePools(bed)).map((p) => p.notification_email).sort()).toEqual([
      'ops@example.com',
      'ops@example.com, dba@example.com',
    ]);
  });
});
