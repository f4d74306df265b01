import { describe, expect, it } from 'vitest';
import {
  migrationBlockers,
  migrationTransition,
  overrideForPreviousMode,
  parseWafMigrationParam,
  previousWafApisAvailable,
  stateAfterCheck,
  validateManagedEntrypoint,
  WAF_MIGRATION_TRANSITIONS,
  wafStatuses,
  type WafZoneFacts,
} from '../../../src/rules/waf/index.js';

const pro: WafZoneFacts = {
  plan: 'pro',
  uriOverrides: 0,
  firewallRuleCount: 200,
  longestExpressionBytes: 4096,
};
const ent: WafZoneFacts = { ...pro, plan: 'enterprise' };

describe('WAF migration state machine', () => {
  it('reads waf_migration values', () => {
    expect(['pending', '1', 'validation', '2', undefined].map((v) => parseWafMigrationParam(v))).toEqual([
      'pending',
      'pending',
      'validation',
      'validation',
      undefined,
    ]);
    expect(parseWafMigrationParam('3')).toHaveProperty('error');
  });

  it('finds every blocker; 200 rules and 4096 bytes are still fine', () => {
    expect(migrationBlockers(pro)).toEqual([]);
    const all = migrationBlockers({
      plan: 'free',
      uriOverrides: 2,
      firewallRuleCount: 201,
      longestExpressionBytes: 4097,
    });
    expect(all.map((b) => b.code)).toEqual([
      'free_plan',
      'uri_overrides',
      'too_many_firewall_rules',
      'expression_too_long',
    ]);
    expect(all.filter((b) => b.needsSupport).map((b) => b.code)).toEqual([
      'too_many_firewall_rules',
      'expression_too_long',
    ]);
  });

  it('moves default to start on a check, and nothing else', () => {
    expect(stateAfterCheck('default')).toBe('start');
    expect(stateAfterCheck('start')).toBe('start');
    expect(stateAfterCheck('validation')).toBe('validation');
    expect(stateAfterCheck('complete')).toBe('complete');
  });

  it('allows every transition of the spec', () => {
    expect(migrationTransition('default', 'pending', pro, true)).toEqual({ ok: true, next: 'complete' });
    expect(migrationTransition('start', 'pending', pro, true)).toEqual({ ok: true, next: 'complete' });
    expect(migrationTransition('start', 'validation', ent, true)).toEqual({ ok: true, next: 'validation' });
    expect(migrationTransition('default', 'validation', ent, true)).toEqual({ ok: true, next: 'validation' });
    for (const spec of WAF_MIGRATION_TRANSITIONS) {
      for (const from of spec.from)
        expect(migrationTransition(from, spec.mode, ent, true)).toEqual({ ok: true, next: spec.to });
    }
    expect(migrationTransition('validation', 'pending', ent, true)).toEqual({ ok: true, next: 'complete' });
    expect(migrationTransition('validation', 'validation', ent, true)).toEqual({
      ok: true,
      next: 'validation',
    });
  });

  it('refuses what the spec forbids', () => {
    const reason = (r: ReturnType<typeof migrationTransition>) => (r.ok ? 'ok' : r.reason);
    expect(reason(migrationTransition('start', 'validation', pro, true))).toBe('not_enterprise');
    expect(reason(migrationTransition('start', 'pending', { ...pro, uriOverrides: 1 }, true))).toBe(
      'not_eligible',
    );
    expect(reason(migrationTransition('start', 'pending', { ...pro, plan: 'free' }, true))).toBe(
      'not_eligible',
    );
    expect(reason(migrationTransition('start', 'pending', { ...pro, firewallRuleCount: 201 }, true))).toBe(
      'not_eligible',
    );
    expect(
      reason(migrationTransition('start', 'pending', { ...pro, longestExpressionBytes: 4097 }, true)),
    ).toBe('not_eligible');
    expect(reason(migrationTransition('validation', 'pending', ent, false))).toBe('no_configuration');
    // an override created while both WAFs ran still blocks the final step
    const blocked = migrationTransition('validation', 'pending', { ...ent, uriOverrides: 1 }, true);
    expect(blocked).toMatchObject({
      ok: false,
      reason: 'not_eligible',
      blockers: [{ code: 'uri_overrides' }],
    });
    expect(reason(migrationTransition('validation', 'validation', { ...ent, uriOverrides: 1 }, true))).toBe(
      'ok',
    );
    expect(reason(migrationTransition('complete', 'pending', ent, true))).toBe('irreversible');
    expect(reason(migrationTransition('complete', 'validation', ent, true))).toBe('irreversible');
  });

  it('says which WAF runs, and when the previous APIs work', () => {
    expect(wafStatuses('start')).toEqual({ old_waf_status: 'enabled', new_waf_status: 'disabled' });
    expect(wafStatuses('validation')).toEqual({ old_waf_status: 'enabled', new_waf_status: 'enabled' });
    expect(wafStatuses('complete')).toEqual({ old_waf_status: 'disabled', new_waf_status: 'enabled' });
    expect(previousWafApisAvailable('validation')).toBe(true);
    expect(previousWafApisAvailable('complete')).toBe(false);
  });
});

describe('managed entry point body', () => {
  const rule = {
    action: 'execute',
    expression: 'true',
    action_parameters: {
      id: 'efb7b8c949ac4650a09736fc376e9aee',
      overrides: { rules: [{ id: '5de7edfa648c4d6891dc3e7f84534ffa', action: 'log', enabled: true }] },
    },
  };

  it('accepts rules with id/version/ref omitted or blank', () => {
    expect(validateManagedEntrypoint({ name: 'x', rules: [rule] })).toEqual([]);
    expect(validateManagedEntrypoint({ rules: [{ ...rule, id: '', version: '', ref: '' }] })).toEqual([]);
  });

  it('names the path of a bad override', () => {
    const bad = {
      ...rule,
      action_parameters: {
        ...rule.action_parameters,
        overrides: { rules: [{ id: 'nope', action: 'explode' }] },
      },
    };
    expect(validateManagedEntrypoint({ rules: [bad] }).map((v) => v.path)).toEqual([
      'rules[0].action_parameters.overrides.rules[0].id',
      'rules[0].action_parameters.overrides.rules[0].action',
    ]);
    expect(validateManagedEntrypoint({}).map((v) => v.path)).toEqual(['rules']);
    expect(validateManagedEntrypoint({ rules: [{ ...rule, action_parameters: undefined }] })[0].path).toBe(
      'rules[0].action_parameters',
    );
  });

  it('maps previous rule modes to overrides', () => {
    expect(overrideForPreviousMode('off')).toEqual({ enabled: false });
    expect(overrideForPreviousMode('simulate')).toEqual({ action: 'log', enabled: true });
    expect(overrideForPreviousMode('default')).toBeUndefined();
  });
});
