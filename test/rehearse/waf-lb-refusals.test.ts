/**
 * What only live state reveals, caught by the rehearsal before any write (issue 16, point 3), for
 * the WAF and load-balancing kinds, against a `serve` standing in for production:
 * - a WAF migration on a zone whose URI-based override was added after the file was written. On a
 *   zone still on the previous WAF the plan itself reads the overrides and refuses; on a zone in
 *   validation it does not read them (the previous WAF's overrides play no part in its steps), yet
 *   the final step is refused while one exists: only the rehearsal sees it, with the API's message.
 * - a notification migration that the target's pool list makes incomplete: the plan reads every
 *   pool and checks every legacy address with the rule the API alerts with, so it is refused at
 *   plan time, and `plan --rehearse` / `apply --rehearse-first` stop there with no write.
 */
import { describe, expect, it } from 'vitest';
import { ACCOUNT, api, cliAt, writeYaml } from '../cli-reconcile/helpers.js';
import { bedsClosedAfterEach, cliWatched } from './bed.js';
import { NEW_RULE, PRODUCTION, ZONES } from './waf-lb-world.js';

const startProduction = bedsClosedAfterEach();

const writes = (methods: string[]) => methods.filter((m) => m !== 'GET');

describe('the rehearsal catches what the plan cannot see', { timeout: 120_000 }, () => {
  it('a WAF migration refused by a URI-based override added on the target after the file was written', async () => {
    const prod = await startProduction({ fixtures: PRODUCTION });
    // written while val.example (Enterprise, in validation) had no URI-based override
    const file = writeYaml(
      prod.dir,
      'waf.yaml',
      `version: 1
zones:
  - name: val.example
    waf:
      managed_rules: new
      migration: { mode: pending }
      overrides:
        - { id: ${NEW_RULE}, action: block }
`,
    );
    // then someone adds one (the previous WAF still runs in validation, its APIs answer)
    await api(prod, 'POST', `/zones/${ZONES.val}/firewall/waf/overrides`, {
      urls: ['val.example/legacy/*'],
      rules: { '100000000000000000000000000000a1': 'disable' },
    });

    const plan = await cliAt(prod, ['plan', file]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('migration final step'); // the plan sees nothing wrong

    const { result: r, methods } = await cliWatched(prod, [
      'plan',
      file,
      '--rehearse',
      '--allow-irreversible',
    ]);
    if (!r.stderr.includes('refused')) throw new Error(r.stderr + r.stdout);
    expect(r.stderr).toMatch(
      /refused: val\.example waf migration final step[^\n]*: PUT .*entrypoint -> 400 \d+ the zone has 1 URI-based WAF override\(s\); delete them before migrating/,
    );
    expect(r.code).toBe(1);
    expect(writes(methods)).toEqual([]);

    const { result: a, methods: applied } = await cliWatched(prod, [
      'apply',
      file,
      '--rehearse-first',
      '--allow-irreversible',
      '--auto-approve',
    ]);
    expect(a.code).not.toBe(0);
    expect(a.stderr).toContain('the rehearsal did not pass; nothing was applied to the target');
    expect(writes(applied)).toEqual([]);
    const status = await api<{ migration_state: string }>(
      prod,
      'GET',
      `/zones/${ZONES.val}/waf_migration/status`,
    );
    expect(status.migration_state).toBe('validation');
  });

  it('on a zone still on the previous WAF the plan itself refuses the override', async () => {
    const prod = await startProduction({ fixtures: PRODUCTION });
    const file = writeYaml(
      prod.dir,
      'waf.yaml',
      `version: 1\nzones:\n  - name: prev.example\n    waf: { managed_rules: new }\n`,
    );
    const { result: r, methods } = await cliWatched(prod, [
      'plan',
      file,
      '--rehearse',
      '--allow-irreversible',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/URI-based WAF override\(s\).*set delete_uri_overrides: true/s);
    expect(writes(methods)).toEqual([]);
  });

  it('a notification migration that the pool list makes incomplete is refused before any write', async () => {
    const prod = await startProduction({ fixtures: PRODUCTION });
    // written when the account had only the pool `web`; `api` (noc@example.com) came later
    const file = writeYaml(
      prod.dir,
      'lb.yaml',
      `version: 1
accounts:
  - id: ${ACCOUNT}
    load_balancing:
      legacy_pool_emails: remove
      notifications:
        - { name: web health, alert_type: load_balancing_health_alert, pools: [web], email: [ops@example.com] }
`,
    );
    for (const args of [
      ['plan', file, '--rehearse'],
      ['apply', file, '--rehearse-first', '--auto-approve'],
    ]) {
      const { result: r, methods } = await cliWatched(prod, args);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /lb\.yaml:\d+:\d+: accounts\[0\]\.load_balancing: legacy_pool_emails: remove would lose recipients/,
      );
      expect(r.stderr).toMatch(
        /noc@example\.com: api \(0000000000000000000000000000b002; missing pool:Unhealthy, pool:Healthy\)/,
      );
      expect(writes(methods)).toEqual([]);
    }
    const pools = await api<{ notification_email: string }[]>(
      prod,
      'GET',
      `/accounts/${ACCOUNT}/load_balancers/pools`,
    );
    expect(pools.map((p) => p.notification_email).sort()).toEqual(['noc@example.com', 'ops@example.com']);
  });
});
