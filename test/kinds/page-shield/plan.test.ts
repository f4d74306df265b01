import { describe, expect, it } from 'vitest';
import type { DesiredCspPolicy, DesiredPageShield } from '../../../src/kinds/page-shield/desired.js';
import { UserError } from '../../../src/errors.js';
import { planPageShield, type PageShieldLive } from '../../../src/kinds/page-shield/plan.js';
import { livePolicyFromApi, type LivePolicy } from '../../../src/kinds/page-shield/policies.js';
import type { DetectedScript } from '../../../src/kinds/page-shield/scripts.js';

const policy = (over: Partial<DesiredCspPolicy> = {}): DesiredCspPolicy => ({
  description: 'log third-party scripts',
  action: 'log',
  expression: 'http.host eq "example.com"',
  value: "script-src 'self' https://cdn.example.com",
  path: 'zones[0].page_shield.policies[0]',
  ...over,
});

const live = (id: string, over: Record<string, unknown> = {}): LivePolicy =>
  livePolicyFromApi({
    id,
    description: 'log third-party scripts',
    action: 'log',
    expression: 'http.host eq "example.com"',
    value: "script-src 'self' https://cdn.example.com",
    enabled: 'true',
    ...over,
  })!;

const state = (policies: LivePolicy[], extra: Partial<PageShieldLive> = {}): PageShieldLive => ({
  enabled: true,
  policies,
  ...extra,
});

describe('page_shield plan', () => {
  it('plans nothing when the live policy matches, whatever the spelling of enabled and spacing', () => {
    const desired: DesiredPageShield = {
      enabled: true,
      policies: [policy({ value: "script-src  'self'   https://cdn.example.com;" })],
    };
    expect(planPageShield('example.com', desired, state([live('a1', { enabled: true })]))).toEqual([]);
    expect(planPageShield('example.com', desired, state([live('a1')]))).toEqual([]);
  });

  it('creates a missing policy with enabled sent as a boolean, as the published schema says', () => {
    const [step] = planPageShield('example.com', { policies: [policy()] }, state([]));
    expect(step).toMatchObject({ key: 'create:log third-party scripts', action: 'create', before: null });
    expect((step.data as { body: Record<string, unknown> }).body).toEqual({
      description: 'log third-party scripts',
      action: 'log',
      expression: 'http.host eq "example.com"',
      value: "script-src 'self' https://cdn.example.com",
      enabled: true,
    });
  });

  it('updates in place by description, keyed by the live id', () => {
    const steps = planPageShield(
      'example.com',
      { policies: [policy({ action: 'allow', enabled: false })] },
      state([live('a1')]),
    );
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ key: 'a1', action: 'update', liveId: 'a1' });
    expect(steps[0].before).toMatchObject({ action: 'log', enabled: true });
    expect(steps[0].after).toMatchObject({ action: 'allow', enabled: false });
  });

  it('purges unnamed policies by default, keeps them with purge: false, ignores them without policies', () => {
    const other = live('b2', { description: 'someone else' });
    expect(planPageShield('z', { policies: [policy()] }, state([live('a1'), other]))).toMatchObject([
      { action: 'delete', key: 'b2', address: 'policy "someone else"' },
    ]);
    expect(planPageShield('z', { policies: [policy()], purge: false }, state([live('a1'), other]))).toEqual(
      [],
    );
    expect(planPageShield('z', { enabled: true }, state([live('a1'), other]))).toEqual([]);
  });

  it('pairs the first of duplicate live descriptions (by id) and deletes the others', () => {
    const steps = planPageShield('z', { policies: [policy()] }, state([live('c3'), live('a1')]));
    expect(steps).toMatchObject([{ action: 'delete', key: 'c3' }]);
  });

  it('toggles the feature, and writes policies after switching it on', () => {
    const steps = planPageShield('z', { enabled: true, policies: [policy()] }, state([], { enabled: false }));
    expect(steps[0]).toMatchObject({
      key: 'settings',
      action: 'update',
      before: { enabled: false },
      after: { enabled: true },
    });
    expect(steps[1]).toMatchObject({ action: 'create', dependsOn: ['settings'] });
    const off = planPageShield('z', { enabled: false }, state([]));
    expect(off).toMatchObject([
      { key: 'settings', after: { enabled: false }, summary: 'disable Page Shield' },
    ]);
    expect(planPageShield('z', { enabled: false }, state([], { enabled: false }))).toEqual([]);
  });

  it('plans creates for a zone that does not exist yet', () => {
    const steps = planPageShield('new.example', { enabled: true, policies: [policy()] }, undefined);
    expect(steps.map((s) => s.action)).toEqual(['update', 'create']);
  });

  describe('max_malicious_scripts', () => {
    const script = (id: string, score: number | undefined, status = 'active'): DetectedScript => ({
      id,
      url: `https://cdn.example.net/${id}.js`,
      status,
      js_integrity_score: score,
    });
    const scripts = [
      script('m1', 3),
      script('m2', 9, 'infrequent'),
      script('c1', 10),
      script('c2', 80, 'infrequent'),
      script('u1', undefined),
      script('u2', undefined, 'infrequent'),
    ];

    it('fails with the count and the limit when more malicious scripts are detected', () => {
      const run = () => planPageShield('example.com', { max_malicious_scripts: 1 }, state([], { scripts }));
      expect(run).toThrow(UserError);
      expect(run).toThrow(
        /zone example\.com: 2 malicious scripts detected .*more than max_malicious_scripts 1/,
      );
      expect(run).toThrow(/m1\.js \(score 3, active\).*m2\.js \(score 9, infrequent\)/);
    });

    it('passes at the limit: unknown scores and a score of exactly 10 never count', () => {
      expect(planPageShield('z', { max_malicious_scripts: 2 }, state([], { scripts }))).toEqual([]);
      const onlyUnknown = [script('u1', undefined), script('c1', 10)];
      expect(planPageShield('z', { max_malicious_scripts: 0 }, state([], { scripts: onlyUnknown }))).toEqual(
        [],
      );
    });

    it('counts a script once even when listed twice', () => {
      const twice = [script('m1', 1), script('m1', 1, 'infrequent')];
      expect(planPageShield('z', { max_malicious_scripts: 1 }, state([], { scripts: twice }))).toEqual([]);
    });
  });
});

describe('the runtime plan and the file locations', () => {
  it('looks at no location unless a ceiling or a policy needs one (a fast-path file is not parsed again)', async () => {
    const { pageShieldRuntime } = await import('../../../src/kinds/page-shield/runtime.js');
    let looked = 0;
    const locations = new Map<string, { file: string; line: number; col: number }>();
    locations.get = () => {
      looked++;
      return undefined;
    };
    const ctx = {
      owner: { scope: 'zone' as const, name: 'example.com', id: 'z1' },
      desired: { version: 1, zones: [], accounts: [], locations, source: { files: [], sha256: '' } },
      entry: { name: 'example.com', path: 'zones[0]' },
    };
    const drafts = pageShieldRuntime.plan({ enabled: true }, { enabled: false }, ctx as never);
    expect(drafts.map((d) => d.summary)).toEqual(['enable Page Shield']);
    expect(looked).toBe(0);
    pageShieldRuntime.plan(
      { enabled: true, max_malicious_scripts: 3 },
      { enabled: true, scripts: [] },
      ctx as never,
    );
    expect(looked).toBeGreaterThan(0);
  });
});
