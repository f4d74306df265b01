/**
 * The waf kind against the real local API, through the built CLI:
 * - a saved plan is refused, naming the fetch step, when the previous WAF's configuration changed
 *   after it was made (a rule the file does not name): the irreversible final step must send what was
 *   planned, not a configuration re-planned from the new one;
 * - a migrated zone with no managed entrypoint ruleset (a zone created after the migration) gets one,
 *   executing the Cloudflare Managed Ruleset with the file's overrides; apply then plan is empty.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fixtures, startBed, type Bed } from '../load-balancing/harness.js';

const RULE = '5de7edfa648c4d6891dc3e7f84534ffa';
const OTHER = 'e3a567afc347477d9702d9047e97d760';
const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const PACKAGE = 'a25a9a7e9c00afc1fb2e0245519d725b';
const UNNAMED = '100000000000000000000000000000a2';

let bed: Bed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

const zones = [
  {
    name: 'pro.example',
    plan: 'pro',
    waf: {
      packages: [
        {
          id: PACKAGE,
          name: 'Cloudflare Managed Ruleset',
          detection_mode: 'traditional',
          groups: [
            {
              name: 'Specials',
              mode: 'on',
              rules: [
                { id: '100000000000000000000000000000a1', description: 'r1', mode: 'block', new_id: RULE },
                { id: UNNAMED, description: 'r2', mode: 'default', new_id: OTHER },
              ],
            },
          ],
        },
      ],
    },
  },
  { name: 'done.example', plan: 'pro', waf: { migration_state: 'complete' } },
];

const file = (zone: string, overrides: string) =>
  `version: 1\nzones:\n  - name: ${zone}\n    waf:\n      managed_rules: new\n      overrides:\n${overrides}`;

async function zoneIdOf(b: Bed, name: string): Promise<string> {
  return (await b.t.api('GET', `/zones?name=${name}`)).body.result[0].id;
}

describe('waf saved plans and the entrypoint of a migrated zone', { timeout: 120_000 }, () => {
  it('refuses a saved plan when the previous configuration changed in a rule the file does not name', async () => {
    bed = await startBed(fixtures({ zones }));
    const desired = bed.file('waf.yaml', file('pro.example', `        - { id: ${RULE}, action: log }\n`));
    const saved = `${bed.dir}/plan.json`;
    const planned = await bed.cli(['plan', desired, '--out', saved]);
    expect(planned.code, planned.stderr).toBe(0);

    // someone changes a previous-WAF rule the file does not name
    const id = await zoneIdOf(bed, 'pro.example');
    const patch = await bed.t.api('PATCH', `/zones/${id}/firewall/waf/packages/${PACKAGE}/rules/${UNNAMED}`, {
      mode: 'block',
    });
    expect(patch.body.success, patch.text).toBe(true);

    const apply = await bed.cli(['apply', saved, '--auto-approve', '--allow-irreversible']);
    expect(apply.code, apply.stdout).toBe(1);
    expect(apply.stderr).toMatch(/saved plan .* is stale/);
    expect(apply.stderr).toMatch(/pro\.example waf migration step 2: fetch the equivalent configuration/);
    const status = (await bed.t.api('GET', `/zones/${id}/waf_migration/status`)).body.result;
    expect(status.old_waf_status).toBe('enabled');
    expect(status.migration_state).not.toBe('complete');

    // a fresh plan merges into the new configuration, and applies
    const fresh = await bed.cli(['plan', desired, '--out', saved, '--force']);
    expect(fresh.code, fresh.stderr).toBe(0);
    const again = await bed.cli(['apply', saved, '--auto-approve', '--allow-irreversible']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const entry = (
      await bed.t.api('GET', `/zones/${id}/rulesets/phases/http_request_firewall_managed/entrypoint`)
    ).body.result;
    expect(entry.rules[0].action_parameters.overrides.rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: RULE, action: 'log' }),
        expect.objectContaining({ id: OTHER, action: 'block' }),
      ]),
    );
  });

  it('creates the managed entrypoint of a migrated zone that has none, then plans nothing', async () => {
    bed = await startBed(fixtures({ zones }));
    const id = await zoneIdOf(bed, 'done.example');
    const path = `/zones/${id}/rulesets/phases/http_request_firewall_managed/entrypoint`;
    expect((await bed.t.api('GET', path)).status).toBe(404);
    const desired = bed.file(
      'done.yaml',
      file(
        'done.example',
        `        - { id: ${RULE}, action: log }\n        - { id: ${OTHER}, enabled: false }\n`,
      ),
    );
    const plan = await bed.cli(['plan', desired, '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toMatch(
      /\+ create managed rules entrypoint ruleset \(http_request_firewall_managed\)/,
    );
    expect(plan.stdout).toContain(`rules[0]: "execute Cloudflare Managed Ruleset (${MANAGED})"`);
    expect(plan.stdout).not.toMatch(/irreversible/);

    const apply = await bed.cli(['apply', desired, '--auto-approve']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const entry = (await bed.t.api('GET', path)).body.result;
    expect(entry.rules).toHaveLength(1);
    expect(entry.rules[0]).toMatchObject({ action: 'execute', action_parameters: { id: MANAGED } });
    expect(entry.rules[0].action_parameters.overrides.rules).toEqual([
      { id: RULE, action: 'log' },
      { id: OTHER, enabled: false },
    ]);
    const after = await bed.cli(['plan', desired, '--detailed-exitcode']);
    expect(after.code, after.stdout).toBe(0);
  });
});
