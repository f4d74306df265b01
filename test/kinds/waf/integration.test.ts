/**
 * The waf kind against the real local API, through the built CLI: the migration of a Pro zone
 * (pending) and of an Enterprise zone (validation, then pending by a later change of the file), the
 * irreversible steps with and without --allow-irreversible, every blocker, the deletion of URI-based
 * overrides, a saved plan made stale by someone else's migration, and the overrides managed in the
 * entrypoint ruleset after the migration with foreign rules kept.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT, fixtures, startBed, type Bed } from '../load-balancing/harness.js';

const RULE = '5de7edfa648c4d6891dc3e7f84534ffa';
const OTHER = 'e3a567afc347477d9702d9047e97d760';
const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';

let bed: Bed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

const zones = [
  { name: 'pro.example', plan: 'pro', waf: { firewall_rules: 3 } },
  { name: 'ent.example', plan: 'enterprise', waf: { firewall_rules: 10 } },
  { name: 'free.example', plan: 'free', waf: {} },
  {
    name: 'uri.example',
    plan: 'business',
    waf: { overrides: [{ urls: ['uri.example/admin/*'], rules: { '100015': 'disable' } }] },
  },
  { name: 'many.example', plan: 'pro', waf: { firewall_rules: 201 } },
  { name: 'long.example', plan: 'pro', waf: { longest_firewall_expression: 5000 } },
];

function wafFile(zone: string, waf: string, extra = ''): string {
  return `version: 1\n${extra}zones:\n  - name: ${zone}\n    waf:\n${waf
    .trim()
    .split('\n')
    .map((l) => `      ${l}`)
    .join('\n')}\n`;
}

async function zoneIdOf(b: Bed, name: string): Promise<string> {
  return (await b.t.api('GET', `/zones?name=${name}`)).body.result[0].id;
}
async function statusOf(b: Bed, zone: string) {
  return (await b.t.api('GET', `/zones/${await zoneIdOf(b, zone)}/waf_migration/status`)).body.result as {
    migration_state: string;
    old_waf_status: string;
    new_waf_status: string;
  };
}
async function entrypointOf(b: Bed, zone: string) {
  const id = await zoneIdOf(b, zone);
  return (await b.t.api('GET', `/zones/${id}/rulesets/phases/http_request_firewall_managed/entrypoint`)).body
    .result as {
    rules: {
      id: string;
      action: string;
      action_parameters: { id: string; overrides?: { rules: unknown[] } };
    }[];
  };
}

// several CLI runs per test: generous on a loaded 2-core runner
describe('waf migration against the local API', { timeout: 120_000 }, () => {
  it('migrates a Pro zone: without --allow-irreversible everything else is applied, then with it', async () => {
    bed = await startBed(fixtures({ zones, pools: [{ name: 'web', notification_email: '' }] }));
    const account = `accounts:\n  - id: ${ACCOUNT}\n    load_balancing:\n      notifications:\n        - { name: health, alert_type: load_balancing_health_alert, pools: all, email: [ops@example.com] }\n`;
    const file = bed.file(
      'waf.yaml',
      wafFile(
        'pro.example',
        `managed_rules: new\nmigration: { mode: pending }\noverrides:\n  - { id: ${RULE}, action: log }`,
        account,
      ),
    );
    const plan = await bed.cli(['plan', file, '--detailed-exitcode']);
    expect(plan.code).toBe(2);
    const order = [
      'check compatibility',
      'fetch the equivalent configuration',
      "merge the file's overrides",
      'final step',
    ];
    const at = order.map((s) => plan.stdout.indexOf(s));
    expect(
      at.every((i, n) => i > 0 && (n === 0 || i > at[n - 1])),
      plan.stdout,
    ).toBe(true);
    expect(plan.stdout).toMatch(/final step: new WAF only \(previous WAF disabled\) \(irreversible\)/);
    const [jsonRun, markdown] = await Promise.all([
      bed.cli(['plan', file, '--format', 'json']),
      bed.cli(['plan', file, '--format', 'markdown']),
    ]);
    const json = JSON.parse(jsonRun.stdout);
    const irreversible = json.steps
      .filter((s: { irreversible: boolean }) => s.irreversible)
      .map((s: { id: string }) => s.id);
    expect(irreversible).toEqual(['pro.example/waf/migration:pending']);
    // the same count as the text summary's "1 irreversible"
    expect(json.summary).toMatchObject({ migrate: 4, irreversible: 1 });
    expect(plan.stdout).toMatch(/, 1 irreversible \(/);
    expect(markdown.stdout).toMatch(
      /final step.*\*\*\(irreversible\)\*\*|\*\*\(irreversible\)\*\*.*final step/,
    );

    const without = await bed.cli(['apply', file, '--auto-approve']);
    expect(without.code).toBe(1);
    expect(without.stdout).toMatch(
      /skipped \(irreversible, needs --allow-irreversible\): pro\.example waf migration final step/,
    );
    // everything else was applied: the account's policy exists, the check ran, the zone did not move
    const policies = (await bed.t.api('GET', `/accounts/${ACCOUNT}/alerting/v3/policies`)).body.result;
    expect(policies.map((p: { name: string }) => p.name)).toEqual(['health']);
    expect(await statusOf(bed, 'pro.example')).toMatchObject({
      migration_state: 'start',
      old_waf_status: 'enabled',
    });

    const withFlag = await bed.cli(['apply', file, '--auto-approve', '--allow-irreversible']);
    expect(withFlag.code, withFlag.stdout + withFlag.stderr).toBe(0);
    expect(await statusOf(bed, 'pro.example')).toMatchObject({
      migration_state: 'complete',
      old_waf_status: 'disabled',
      new_waf_status: 'enabled',
    });
    const entry = await entrypointOf(bed, 'pro.example');
    expect(entry.rules[0].action_parameters.overrides?.rules).toContainEqual({ id: RULE, action: 'log' });
    const again = await bed.cli(['plan', file, '--detailed-exitcode']);
    expect(again.code, again.stdout).toBe(0);
  });

  // The read-back re-plans the zone: the check/fetch/merge steps stay planned while the final step
  // waits, and the engine expects them to remain (prerequisites of a skipped step, src/core/apply.ts).
  it('without --allow-irreversible names only the skipped steps, with no read-back error', async () => {
    bed = await startBed(fixtures({ zones }));
    const file = bed.file('waf.yaml', wafFile('pro.example', 'managed_rules: new'));
    const r = await bed.cli(['apply', file, '--auto-approve']);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/read-back/);
    expect(r.stderr).toMatch(/1 irreversible step\(s\) skipped; rerun with --allow-irreversible/);
  });

  it('stops an Enterprise zone in validation, and completes it when the file changes to pending', async () => {
    bed = await startBed(fixtures({ zones }));
    const validation = bed.file(
      'v.yaml',
      wafFile('ent.example', `managed_rules: new\nmigration: { mode: validation }`),
    );
    const plan = await bed.cli(['plan', validation]);
    expect(plan.stdout).toMatch(/validation mode .*\(irreversible\)/);
    expect(plan.stdout).not.toMatch(/final step/);
    const apply = await bed.cli(['apply', validation, '--auto-approve', '--allow-irreversible']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(await statusOf(bed, 'ent.example')).toMatchObject({
      migration_state: 'validation',
      old_waf_status: 'enabled',
      new_waf_status: 'enabled',
    });
    expect((await bed.cli(['plan', validation, '--detailed-exitcode'])).code).toBe(0);

    const pending = bed.file(
      'p.yaml',
      wafFile('ent.example', `managed_rules: new\nmigration: { mode: pending }`),
    );
    const next = await bed.cli(['plan', pending]);
    expect(next.stdout).toMatch(/merge the file's overrides[\s\S]*final step.*\(irreversible\)/);
    expect(next.stdout).toMatch(/migration_state: "validation" -> "complete"/);
    const done = await bed.cli(['apply', pending, '--auto-approve', '--allow-irreversible']);
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect(await statusOf(bed, 'ent.example')).toMatchObject({
      migration_state: 'complete',
      old_waf_status: 'disabled',
    });
    expect((await bed.cli(['plan', pending, '--detailed-exitcode'])).code).toBe(0);
    // the old file, still asking for validation, is drift that no apply can fix: a report says so
    const stale = await bed.cli(['drift', validation]);
    expect(stale.code, stale.stdout + stale.stderr).toBe(2);
    expect(stale.stdout).toMatch(
      /cannot go back to validation mode; set zones\[0\]\.waf\.migration\.mode: pending/,
    );
    const noop = await bed.cli(['apply', validation, '--auto-approve']);
    expect(noop.code, noop.stdout + noop.stderr).toBe(0);
    expect(await statusOf(bed, 'ent.example')).toMatchObject({ migration_state: 'complete' });
  });

  it('turns every blocker into a plan error that says what to do', async () => {
    bed = await startBed(fixtures({ zones }));
    // The two support-only blockers are named by the check's envelope `messages` when the target sends
    // them; otherwise the plan still names both causes and says to contact support.
    const cases: [string, string, RegExp][] = [
      [
        'free.example',
        'managed_rules: new',
        /Free plan.*upgrade the zone's plan to Pro or higher, or set managed_rules: previous/,
      ],
      [
        'uri.example',
        'managed_rules: new',
        /URI-based WAF override.*uri\.example\/admin\/\*.*delete_uri_overrides: true/,
      ],
      [
        'many.example',
        'managed_rules: new',
        /(201 firewall rules|more than 200 firewall rules).*contact support/,
      ],
      ['long.example', 'managed_rules: new', /(5000 bytes|expression over 4 KB).*contact support/],
      [
        'pro.example',
        'managed_rules: new\nmigration: { mode: validation }',
        /validation is for Enterprise zones only/,
      ],
    ];
    // independent read-only plans: run side by side
    const results = await Promise.all(
      cases.map(([zone, waf]) => bed!.cli(['plan', bed!.file(`${zone}.yaml`, wafFile(zone, waf))])),
    );
    results.forEach((r, i) => {
      const [zone, , message] = cases[i];
      expect(r.code, `${zone}: ${r.stdout}`).toBe(1);
      // the zone, and where in the file, like validation errors
      const z = zone.replace(/\./g, '\\.');
      expect(r.stderr).toMatch(
        new RegExp(
          `zone ${z}: \\S*${z}\\.yaml:\\d+:\\d+: zones\\[0\\]\\.waf: the WAF migration cannot be planned`,
        ),
      );
      expect(r.stderr).toMatch(message);
    });
    expect(await statusOf(bed, 'free.example')).toMatchObject({
      old_waf_status: 'enabled',
      new_waf_status: 'disabled',
    });
  });

  it('deletes URI-based overrides only with delete_uri_overrides and --allow-irreversible', async () => {
    bed = await startBed(fixtures({ zones }));
    const file = bed.file(
      'uri.yaml',
      wafFile('uri.example', 'managed_rules: new\ndelete_uri_overrides: true'),
    );
    const plan = await bed.cli(['plan', file]);
    expect(plan.stdout).toMatch(/- delete URI-based WAF override [0-9a-f]{32} \(irreversible\)/);
    const id = await zoneIdOf(bed, 'uri.example');
    const without = await bed.cli(['apply', file, '--auto-approve']);
    expect(without.code).toBe(1);
    expect(without.stdout).toMatch(
      /skipped \(irreversible, needs --allow-irreversible\): uri\.example waf URI-based WAF override/,
    );
    // the check, fetch and merge wait for the deletion, but are not irreversible themselves
    expect(without.stdout).toMatch(
      /skipped \(depends on a skipped irreversible step\): uri\.example waf migration step 1: check compatibility/,
    );
    expect(without.stdout).not.toMatch(/skipped \(irreversible[^\n]*migration step [123]/);
    expect(without.stderr).toMatch(
      /2 irreversible step\(s\) skipped, and 3 step\(s\) that depend on them; rerun with --allow-irreversible/,
    );
    expect((await bed.t.api('GET', `/zones/${id}/firewall/waf/overrides`)).body.result).toHaveLength(1);
    const withFlag = await bed.cli(['apply', file, '--auto-approve', '--allow-irreversible']);
    expect(withFlag.code, withFlag.stdout + withFlag.stderr).toBe(0);
    expect(await statusOf(bed, 'uri.example')).toMatchObject({ migration_state: 'complete' });
    expect((await bed.cli(['plan', file, '--detailed-exitcode'])).code).toBe(0);
  });

  it('refuses a saved plan made before someone else migrated the zone', async () => {
    bed = await startBed(fixtures({ zones }));
    const file = bed.file('waf.yaml', wafFile('pro.example', 'managed_rules: new'));
    const saved = `${bed.dir}/plan.json`;
    expect((await bed.cli(['plan', file, '--out', saved])).code).toBe(0);
    // someone else migrates the zone by hand
    const id = await zoneIdOf(bed, 'pro.example');
    const config = (await bed.t.api('GET', `/zones/${id}/waf_migration/config?phase_two=1`)).body.result;
    const put = await bed.t.api(
      'PUT',
      `/zones/${id}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=pending&phase_two=1`,
      config,
    );
    expect(put.body.success, put.text).toBe(true);
    const apply = await bed.cli(['apply', saved, '--auto-approve', '--allow-irreversible']);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toMatch(/saved plan .* is stale/);
    expect(apply.stderr).toMatch(/migration final step/);
  });

  it('after the migration manages the overrides in place, keeps foreign rules, and sees drift', async () => {
    bed = await startBed(fixtures({ zones }));
    const first = bed.file(
      'a.yaml',
      wafFile('pro.example', `managed_rules: new\noverrides:\n  - { id: ${RULE}, action: log }`),
    );
    expect((await bed.cli(['apply', first, '--auto-approve', '--allow-irreversible'])).code).toBe(0);
    const id = await zoneIdOf(bed, 'pro.example');
    const path = `/zones/${id}/rulesets/phases/http_request_firewall_managed/entrypoint`;
    // someone adds a rule executing OWASP and an override of another managed rule
    const live = await entrypointOf(bed, 'pro.example');
    const managed = live.rules[0];
    managed.action_parameters.overrides!.rules.push({ id: OTHER, enabled: false });
    const foreign = {
      action: 'execute',
      expression: 'true',
      description: 'owasp',
      enabled: true,
      action_parameters: { id: OWASP },
    };
    expect((await bed.t.api('PUT', path, { name: 'default', rules: [managed, foreign] })).body.success).toBe(
      true,
    );
    expect((await bed.cli(['plan', first, '--detailed-exitcode'])).code).toBe(0);

    const second = bed.file(
      'b.yaml',
      wafFile('pro.example', `managed_rules: new\noverrides:\n  - { id: ${RULE}, action: block }`),
    );
    const plan = await bed.cli(['plan', second]);
    expect(plan.stdout).toMatch(/~ update managed rules overrides/);
    expect(plan.stdout).not.toMatch(/irreversible/);
    expect((await bed.cli(['apply', second, '--auto-approve'])).code).toBe(0);
    const after = await entrypointOf(bed, 'pro.example');
    expect(after.rules.map((r) => r.action_parameters.id)).toEqual([MANAGED, OWASP]);
    expect(after.rules[0].action_parameters.overrides?.rules).toEqual([
      { id: RULE, action: 'block' },
      { id: OTHER, enabled: false },
    ]);
    expect((await bed.cli(['plan', second, '--detailed-exitcode'])).code).toBe(0);

    // an out-of-band change of a managed override is drift
    after.rules[0].action_parameters.overrides!.rules[0] = { id: RULE, action: 'log' };
    expect((await bed.t.api('PUT', path, { name: 'default', rules: after.rules })).body.success).toBe(true);
    const drift = await bed.cli(['drift', second]);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toMatch(new RegExp(`overrides\\.${RULE}\\.action: "log" -> "block"`));
  });
});
