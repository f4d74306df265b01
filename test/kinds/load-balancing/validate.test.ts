/** Offline checks of `load_balancing` and `waf`, through the real loader (positions and paths). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkFile } from '../../../src/config/load.js';

const dir = mkdtempSync(join(tmpdir(), 'zp-lbwaf-validate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function problems(yaml: string, env: Record<string, string> = {}): Promise<string[]> {
  const file = join(dir, `f${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, yaml);
  const r = await checkFile(file, { env });
  return r.diagnostics.map(
    (d) => `${d.line}:${d.col} ${d.path}: ${d.severity === 'warning' ? 'warning: ' : ''}${d.message}`,
  );
}

const account = (body: string) =>
  `version: 1\naccounts:\n  - id: 0123456789abcdef0123456789abcdef\n    load_balancing:\n${body}`;
const zone = (body: string) => `version: 1\nzones:\n  - name: example.com\n    waf:\n${body}`;

describe('load_balancing validation', () => {
  it('accepts a full policy, and e-mail recipients from the environment', async () => {
    const ok = account(`      legacy_pool_emails: remove
      notifications:
        - name: pool health
          alert_type: load_balancing_health_alert
          pools: all
          new_health: [Unhealthy, Healthy]
          event_source: [pool, origin]
          email: [ops@example.com, '\${env:ONCALL_EMAIL}']
          webhooks: [2d5e6a44-3c0f-4b8a-9d8e-6f1a2b3c4d5e]
`);
    expect(await problems(ok, { ONCALL_EMAIL: 'oncall@example.com' })).toEqual([]);
  });

  it('names every problem with its place', async () => {
    const bad = account(`      notifications:
        - name: a
          alert_type: load_balancing_health_alert
          email: ['ops@example.com, noc@example.com', not-an-address]
          filters: { pool_id: [x] }
        - name: A
          alert_type: universal_ssl_event_type
          pools: all
        - name: b
          alert_type: load_balancing_pool_enablement_alert
          new_health: [Healthy]
          pools: [web, WEB]
          pagerduty: [p1]
`);
    expect(await problems(bad)).toEqual([
      '8:19 accounts[0].load_balancing.notifications[0].email[0]: "ops@example.com, noc@example.com" holds several addresses; write one address per list item',
      '8:55 accounts[0].load_balancing.notifications[0].email[1]: "not-an-address" is not an e-mail address',
      '9:31 accounts[0].load_balancing.notifications[0].filters.pool_id: write this filter as `pools` on the policy, not under `filters`',
      '10:11 accounts[0].load_balancing.notifications[1]: a notification policy needs at least one recipient: `email`, `webhooks` or `pagerduty`',
      '10:17 accounts[0].load_balancing.notifications[1].name: duplicate notification policy name "A" (first at notifications[0])',
      '12:18 accounts[0].load_balancing.notifications[1].pools: `pools` applies only to load-balancing alert types, not "universal_ssl_event_type"',
      '15:23 accounts[0].load_balancing.notifications[2].new_health: `new_health` applies only to load_balancing_health_alert',
      '16:24 accounts[0].load_balancing.notifications[2].pools[1]: "WEB" is listed twice',
    ]);
  });

  it('leaves enums to the schema', async () => {
    const bad = account(`      legacy_pool_emails: delete
      notifications:
        - { name: a, alert_type: load_balancing_health_alert, new_health: [Down], email: [ops@example.com] }
`);
    const found = await problems(bad);
    expect(found.some((p) => p.includes('legacy_pool_emails'))).toBe(true);
    expect(found.some((p) => p.includes('new_health[0]'))).toBe(true);
  });
});

describe('waf validation', () => {
  it('accepts the migration with overrides, and warns that previous ignores them', async () => {
    expect(
      await problems(
        zone(`      managed_rules: new
      migration: { mode: validation }
      overrides:
        - { id: 5de7edfa648c4d6891dc3e7f84534ffa, action: log }
        - { id: e3a567afc347477d9702d9047e97d760, enabled: false, ruleset: 4814384a9e5d4991b9815dcfc25d2f1f }
`),
      ),
    ).toEqual([]);
    expect(
      await problems(
        zone(
          `      managed_rules: previous\n      overrides: [{ id: 5de7edfa648c4d6891dc3e7f84534ffa, action: log }]\n`,
        ),
      ),
    ).toEqual([
      '6:18 zones[0].waf.overrides: warning: ignored while `managed_rules` is `previous` (nothing is planned for WAF)',
    ]);
  });

  it('checks the override shape with the rules the API uses', async () => {
    const found = await problems(
      zone(`      managed_rules: new
      overrides:
        - { id: 5de7edfa648c4d6891dc3e7f84534ffa }
        - { id: 5DE7EDFA648C4D6891DC3E7F84534FFA, action: log, ruleset: '00000000000000000000000000000000' }
        - { id: nothex, action: log }
`),
    );
    expect(found).toEqual([
      '7:11 zones[0].waf.overrides[0]: an override sets action, enabled, or both',
      '8:17 zones[0].waf.overrides[1].id: rule 5de7edfa648c4d6891dc3e7f84534ffa is overridden twice',
      '8:73 zones[0].waf.overrides[1].ruleset: "00000000000000000000000000000000" is not a managed ruleset; use efb7b8c949ac4650a09736fc376e9aee (Cloudflare Managed Ruleset), 4814384a9e5d4991b9815dcfc25d2f1f (Cloudflare OWASP Core Ruleset), ' +
        'c2e184081120413c86c3ab7e14069605 (Cloudflare Exposed Credentials Check)',
      '9:17 zones[0].waf.overrides[2].id: must be the 32-hex-digit id of a managed rule',
    ]);
  });
});
