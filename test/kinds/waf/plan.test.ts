import { describe, expect, it } from 'vitest';
import { sha256 } from '../../../src/kinds/waf/apply.js';
import { mergeOverrides } from '../../../src/kinds/waf/merge.js';
import type { RulesetConfig, WafLive } from '../../../src/kinds/waf/model.js';
import { tierOf } from '../../../src/kinds/waf/model.js';
import { planWaf, STEP } from '../../../src/kinds/waf/plan.js';
import type { WafStepData } from '../../../src/kinds/waf/plan.js';

const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
const RULE = '5de7edfa648c4d6891dc3e7f84534ffa';

const config = (): RulesetConfig => ({
  name: 'default',
  rules: [
    {
      id: '',
      version: '',
      action: 'execute',
      expression: 'true',
      description: 'managed',
      ref: '',
      enabled: true,
      action_parameters: {
        id: MANAGED,
        overrides: { rules: [{ id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', action: 'block' }] },
      },
    },
    { action: 'execute', expression: 'true', enabled: true, action_parameters: { id: OWASP } },
  ],
});

const previous = (over: Partial<WafLive> = {}): WafLive => ({
  tier: 'pro',
  status: { migration_state: 'start', old_waf_status: 'enabled', new_waf_status: 'disabled' },
  config: config(),
  uriOverrides: [],
  firewall: { count: 3, longestExpressionBytes: 100 },
  ...over,
});
const state = (s: 'validation' | 'complete', entrypoint: RulesetConfig | null = config()): WafLive => ({
  tier: 'enterprise',
  status: {
    migration_state: s,
    old_waf_status: s === 'validation' ? 'enabled' : 'disabled',
    new_waf_status: 'enabled',
  },
  uriOverrides: [],
  entrypoint,
});
const plan = (desired: Record<string, unknown>, live: WafLive) =>
  planWaf(desired, live, 'zones[0].waf', sha256);
const migrateNew = { managed_rules: 'new', overrides: [{ id: RULE, action: 'log' }] };

describe('waf plan', () => {
  it('plans nothing for managed_rules: previous on a previous-only zone', () => {
    expect(plan({ managed_rules: 'previous' }, previous())).toEqual([]);
  });

  it('reports, for a zone the plan creates, that its WAF is planned once the zone exists', () => {
    const drafts = planWaf(migrateNew, undefined, 'zones[0].waf', sha256);
    expect(drafts.map((d) => d.action)).toEqual(['report']);
    expect(drafts[0].reason).toMatch(/created by this plan.*plan \(or apply\) again after this apply/);
  });

  it('reports a migrated zone whose file still says previous', () => {
    const drafts = plan({ managed_rules: 'previous' }, state('complete'));
    expect(drafts.map((d) => d.action)).toEqual(['report']);
    expect(drafts[0].reason).toMatch(/cannot go back/);
  });

  it('plans the ordered procedure for a pro zone, the final step irreversible', () => {
    const drafts = plan(migrateNew, previous());
    expect(drafts.map((d) => d.key)).toEqual([STEP.check, STEP.fetch, STEP.merge, STEP.pending]);
    expect(drafts.map((d) => d.irreversible === true)).toEqual([false, false, false, true]);
    expect(drafts[3].dependsOn).toEqual([STEP.merge]);
    const final = drafts[3].data as Extract<WafStepData, { op: 'migrate' }>;
    expect(final.mode).toBe('pending');
    expect(final.config.rules[0].action_parameters?.overrides?.rules).toContainEqual({
      id: RULE,
      action: 'log',
    });
    // the saved-plan fingerprint covers the migration status, default and start alike
    expect(drafts[0].before).toEqual({ state: 'previous', old_waf: 'enabled', new_waf: 'disabled' });
  });

  it('plans validation for an enterprise zone with mode validation, and refuses it on pro', () => {
    const ent = plan({ ...migrateNew, migration: { mode: 'validation' } }, previous({ tier: 'enterprise' }));
    expect(ent.map((d) => d.key)).toEqual([STEP.check, STEP.fetch, STEP.merge, STEP.validation]);
    expect(ent[3].irreversible).toBe(true);
    expect(() => plan({ ...migrateNew, migration: { mode: 'validation' } }, previous())).toThrow(
      /validation is for Enterprise zones only \(this zone is pro\)/,
    );
  });

  it('completes from validation when the file changes to pending, and stays put otherwise', () => {
    const validation = state('validation');
    expect(plan({ ...migrateNew, migration: { mode: 'pending' } }, validation).map((d) => d.key)).toEqual([
      STEP.merge,
      STEP.pending,
    ]);
    const entry = config();
    entry.rules[0].action_parameters!.overrides!.rules!.push({ id: RULE, action: 'log' });
    expect(plan({ ...migrateNew, migration: { mode: 'validation' } }, state('validation', entry))).toEqual(
      [],
    );
  });

  it('reports, beside any override update, that a migrated zone cannot go back to validation', () => {
    const entry = config();
    const steps = plan({ ...migrateNew, migration: { mode: 'validation' } }, state('complete', entry));
    expect(steps.map((d) => [d.key, d.action])).toEqual([
      [STEP.entrypoint, 'update'],
      ['validation-unreachable', 'report'],
    ]);
    expect(steps[1].reason).toMatch(
      /completed the migration .* set zones\[0\]\.waf\.migration\.mode: pending/,
    );
    // with the override already in place, the report alone stays
    entry.rules[0].action_parameters!.overrides!.rules!.push({ id: RULE, action: 'log' });
    expect(
      plan({ ...migrateNew, migration: { mode: 'validation' } }, state('complete', entry)).map((d) => d.key),
    ).toEqual(['validation-unreachable']);
    expect(plan({ ...migrateNew, migration: { mode: 'pending' } }, state('complete', entry))).toEqual([]);
  });

  it('turns each blocker into a plan error that says what to do', () => {
    expect(() => plan(migrateNew, previous({ tier: 'free' }))).toThrow(/Free plan/);
    expect(() =>
      plan(migrateNew, previous({ firewall: { count: 201, longestExpressionBytes: 10 } })),
    ).toThrow(/201 firewall rules.*contact support/);
    expect(() =>
      plan(migrateNew, previous({ firewall: { count: 1, longestExpressionBytes: 5000 } })),
    ).toThrow(/5000 bytes.*contact support/);
    const uri = previous({ uriOverrides: [{ id: 'ov1', urls: ['example.com/admin'] }] });
    expect(() => plan(migrateNew, uri)).toThrow(
      /ov1 \(example\.com\/admin\); set delete_uri_overrides: true/,
    );
  });

  it('plans the deletion of URI-based overrides as irreversible steps before the check', () => {
    const uri = previous({ uriOverrides: [{ id: 'ov1', urls: ['example.com/admin'] }] });
    const drafts = plan({ ...migrateNew, delete_uri_overrides: true }, uri);
    expect(drafts[0]).toMatchObject({ key: 'uri-override:ov1', action: 'delete', irreversible: true });
    expect(drafts[1]).toMatchObject({ key: STEP.check, dependsOn: ['uri-override:ov1'] });
  });

  it('after the migration, updates only the named overrides and keeps every other rule', () => {
    const drafts = plan(migrateNew, state('complete'));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]).toMatchObject({ key: STEP.entrypoint, action: 'update' });
    expect(drafts[0].irreversible).toBeUndefined();
    const data = drafts[0].data as Extract<WafStepData, { op: 'update-entrypoint' }>;
    expect(data.config.rules).toHaveLength(2);
    expect(data.config.rules[0].action_parameters?.overrides?.rules).toEqual([
      { id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', action: 'block' },
      { id: RULE, action: 'log' },
    ]);
    expect(drafts[0].before).toMatchObject({ overrides: { [RULE]: null } });
    // what the API stores after that PUT plans to nothing
    expect(plan(migrateNew, state('complete', data.config))).toEqual([]);
  });
});

describe('waf plan: saved plans, a missing entrypoint, and where errors are', () => {
  it('carries a digest of the equivalent configuration in the fetch step, so a changed one makes a saved plan stale', () => {
    const fetch = (live: WafLive) => plan(migrateNew, live).find((d) => d.key === STEP.fetch)!;
    const changed = config();
    changed.rules[0].action_parameters!.overrides!.rules!.push({
      id: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
      action: 'block',
    });
    expect(fetch(previous()).before).toMatchObject({ configuration: `sha256:${sha256(config())}` });
    expect(fetch(previous({ config: changed })).before).not.toEqual(fetch(previous()).before);
    // from validation, the merge step carries the digest of the entrypoint it merges into
    const merge = (entry: RulesetConfig) =>
      plan({ ...migrateNew, migration: { mode: 'pending' } }, state('validation', entry))[0];
    expect(merge(changed).before).not.toEqual(merge(config()).before);
    const bumped = config();
    bumped.rules[0].version = '7'; // server-set on every write: not a change
    expect(merge(bumped).before).toEqual(merge(config()).before);
  });

  it('creates the entrypoint of a migrated zone that has none, with the overrides; then plans nothing', () => {
    const drafts = plan(migrateNew, state('complete', null));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]).toMatchObject({ key: STEP.entrypoint, action: 'create', before: null });
    expect(drafts[0].irreversible).toBeUndefined();
    const data = drafts[0].data as Extract<WafStepData, { op: 'update-entrypoint' }>;
    expect(data.mode).toBeUndefined();
    expect(data.config.rules).toEqual([
      expect.objectContaining({
        action: 'execute',
        expression: 'true',
        action_parameters: { id: MANAGED, overrides: { rules: [{ id: RULE, action: 'log' }] } },
      }),
    ]);
    expect(plan(migrateNew, state('complete', data.config))).toEqual([]);
    // an override of a ruleset the new entrypoint would not execute is an error that says so
    expect(() =>
      plan(
        { managed_rules: 'new', overrides: [{ id: RULE, action: 'log', ruleset: OWASP }] },
        state('complete', null),
      ),
    ).toThrow(/executes only the Cloudflare Managed Ruleset/);
  });

  it('names the zone and file:line:col in plan errors; the Free blocker says what to do', () => {
    const place = { zone: 'free.example', locate: () => 'waf.yaml:5:5' };
    expect(() => planWaf(migrateNew, previous({ tier: 'free' }), 'zones[0].waf', sha256, place)).toThrow(
      /^zone free\.example: waf\.yaml:5:5: zones\[0\]\.waf: the WAF migration cannot be planned:\n {2}- the zone is on the Free plan.*upgrade the zone's plan to Pro or higher, or set managed_rules: previous/,
    );
    expect(() =>
      planWaf(
        migrateNew,
        previous({ firewall: { count: 201, longestExpressionBytes: 10 } }),
        'zones[0].waf',
        sha256,
        place,
      ),
    ).toThrow(/^zone free\.example: waf\.yaml:5:5: zones\[0\]\.waf: .*\n.*201 firewall rules/);
  });
});

describe('merge of overrides', () => {
  it('targets the execute rule that already overrides the id, or the named ruleset', () => {
    const base = config();
    base.rules[1].action_parameters!.overrides = { rules: [{ id: RULE, action: 'block' }] };
    const moved = mergeOverrides(base, [{ id: RULE, enabled: false }]);
    expect(moved.config.rules[1].action_parameters?.overrides?.rules).toEqual([
      { id: RULE, action: 'block', enabled: false },
    ]);
    const named = mergeOverrides(config(), [{ id: RULE, action: 'log', ruleset: OWASP }]);
    expect(named.config.rules[1].action_parameters?.overrides?.rules).toEqual([{ id: RULE, action: 'log' }]);
    expect(mergeOverrides({ rules: [] }, [{ id: RULE, action: 'log' }]).problems[0]).toMatch(
      /no rule that executes/,
    );
  });
});

describe('plan tier', () => {
  it('reads the tier from the zone object', () => {
    expect(tierOf({ plan: { legacy_id: 'enterprise' } })).toBe('enterprise');
    expect(tierOf({ plan: { name: 'Pro Website' } })).toBe('pro');
    expect(tierOf({ plan: { id: 'free' } })).toBe('free');
    expect(tierOf({})).toBeUndefined();
  });
});
