/**
 * The exporters on in-memory live state, no I/O: each kind's export, loaded the way the config
 * loader does, plans to nothing with the kind's own pure `plan`, including the cases the file cannot
 * express (they become comments, and `ignore` or `purge: false` keeps `plan` from deleting them).
 */
import { describe, expect, it } from 'vitest';
import { resolveReferences } from '../../src/config/env.js';
import type { DesiredDns } from '../../src/kinds/dns/desired.js';
import { checkKindValue } from '../../src/config/check-value.js';
import { VariableRegistry, variablePart } from '../../src/core/export/env-names.js';
import type { ExportContext } from '../../src/core/export/types.js';
import { exportDns, exportedName, exportedNames, relativeNames } from '../../src/kinds/dns/export.js';
import { normLive, relativeName } from '../../src/kinds/dns/normalize.js';
import { planDns } from '../../src/kinds/dns/plan.js';
import { exportLoadBalancing } from '../../src/kinds/load-balancing/export.js';
import { planLoadBalancing } from '../../src/kinds/load-balancing/plan.js';
import { exportLogpush, referenceSecrets } from '../../src/kinds/logpush/export.js';
import { liveJobFromApi } from '../../src/kinds/logpush/jobs.js';
import { planLogpush } from '../../src/kinds/logpush/plan.js';
import { exportPageShield } from '../../src/kinds/page-shield/export.js';
import { planPageShield } from '../../src/kinds/page-shield/plan.js';
import { exportWaf } from '../../src/kinds/waf/export.js';
import { planWaf } from '../../src/kinds/waf/plan.js';

const ZONE = 'unit.example';
const ACCOUNT = 'abababababababababababababababab';

function ctxFor(key: string, scope: 'zone' | 'account' = 'zone'): ExportContext {
  const owner = scope === 'zone' ? { name: ZONE } : { id: ACCOUNT };
  return {
    owner: { scope, name: scope === 'zone' ? ZONE : ACCOUNT, id: 'f'.repeat(32) },
    variables: new VariableRegistry(),
    check: (value) => checkKindValue(scope, owner, key, value),
  };
}

/** What the loader hands the kinds: `ttl: auto` as 1, paths on records. */
function loadedDns(value: Record<string, unknown>): DesiredDns {
  const records = (value.records as Record<string, unknown>[]).map((r, i) => ({
    ...r,
    ttl: r.ttl === 'auto' ? 1 : r.ttl,
    path: `zones[0].dns.records[${i}]`,
  }));
  return { ...(value as object), records } as DesiredDns;
}

const record = (id: string, fields: Record<string, unknown>) =>
  normLive({ id, ttl: 1, proxied: false, ...fields }, ZONE);

describe('dns export', () => {
  it('plans to nothing, and keeps a record it cannot express as a comment and an ignore entry', () => {
    const live = {
      serviceManaged: [
        { record: record('8', { name: ZONE, type: 'NS', content: 'ns1.example.net' }) },
        {
          record: record('9', { name: `a.${ZONE}`, type: 'A', content: '192.0.2.9' }),
          locked: true as const,
        },
      ],
      records: [
        record('1', { name: ZONE, type: 'A', content: '192.0.2.1', proxied: true }),
        record('2', { name: `www.${ZONE}`, type: 'CNAME', content: ZONE, ttl: 300 }),
        record('3', { name: `loc.${ZONE}`, type: 'LOC', content: '51 30 12.748 N 0 7 39.611 W 0.00m' }),
        record('4', {
          name: `_svc.${ZONE}`,
          type: 'HTTPS',
          data: { priority: 1, target: '.', value: 'alpn="h2"' },
        }),
      ],
    };
    const result = exportDns(live, ctxFor('dns'));
    const value = result.value!;
    expect(value.purge).toBe(true);
    expect(value.ignore).toEqual([
      { name: 'loc', type: 'LOC', content: '51 30 12.748 N 0 7 39.611 W 0.00m' },
    ]);
    expect((value.records as unknown[]).length).toBe(3);
    expect(
      result.layout!.some((h) =>
        h.commentBefore?.includes('not managed (the file cannot express it): loc LOC'),
      ),
    ).toBe(true);
    expect(result.notes!.join('\n')).toContain('left out loc LOC');
    expect(planDns({ zone: ZONE, desired: loadedDns(value), live: live.records })).toEqual([]);
  });

  it('turns purge off when a record it cannot express shares a name and type with one it can', () => {
    const live = {
      serviceManaged: [],
      records: [
        record('1', { name: ZONE, type: 'A', content: '192.0.2.1' }),
        record('2', { name: `t.${ZONE}`, type: 'TXT', content: 'fine' }),
        record('3', { name: `t.${ZONE}`, type: 'TXT', content: 'x'.repeat(5000) }),
      ],
    };
    const value = exportDns(live, ctxFor('dns')).value!;
    expect(value.purge).toBe(false);
    expect(planDns({ zone: ZONE, desired: loadedDns(value), live: live.records })).toEqual([]);
  });

  it('works out relative names as the rules do, the zone normalised once', () => {
    const names = [
      'www.unit.example',
      'unit.example',
      'UNIT.example.',
      ' a.unit.example ',
      'a..',
      'x.other',
      '',
      '.',
    ];
    for (const zone of [ZONE, 'Unit.Example.', ' unit.example']) {
      const relative = relativeNames(zone);
      for (const name of names) expect(relative(name), `${name} in ${zone}`).toBe(relativeName(name, zone));
    }
  });

  it('decides which names read back, for a whole zone, as exportedName does', () => {
    const names = ['www', '', '@', 'a.', 'x.@', `a.${ZONE}`, ZONE, ' a ', 'A', 'a.b', '*', `${ZONE}.${ZONE}`];
    for (const zone of [ZONE, 'Unit.Example.', `a.${ZONE}`]) {
      const exported = exportedNames(zone);
      for (const full of [...names.map((n) => `${n}.${ZONE}`), ...names]) {
        for (const rel of [...names, relativeName(full, zone)]) {
          expect(exported(full, rel), `${full} as ${rel} in ${zone}`).toBe(exportedName(full, zone, rel));
        }
      }
    }
  });

  it('writes a name that would read back as another name in full, with its dot', () => {
    expect(exportedName(`www.${ZONE}`, ZONE)).toBe('www');
    expect(exportedName(ZONE, ZONE)).toBe('@');
    expect(exportedName(`${ZONE}.${ZONE}`, ZONE)).toBe(`${ZONE}.${ZONE}.`);
  });
});

describe('logpush destinations', () => {
  const names = new VariableRegistry();
  const nameFor = (part: string) => names.name(['LOGPUSH', ZONE, 'job', part], part);

  it('replaces every secret part by a reference that resolves back to the live destination', () => {
    const conf =
      'https://user:p%40ss@collector.example/in?header_Authorization=Bearer%20abc123&region=eu&sig=zz%2Fyy';
    const ref = referenceSecrets(conf, nameFor);
    expect(ref.conf).toBe(
      'https://${env:ZONEPLAN_LOGPUSH_UNIT_EXAMPLE_JOB_USERINFO}@collector.example/in' +
        '?header_Authorization=${env:ZONEPLAN_LOGPUSH_UNIT_EXAMPLE_JOB_HEADER_AUTHORIZATION}&region=eu' +
        '&sig=${env:ZONEPLAN_LOGPUSH_UNIT_EXAMPLE_JOB_SIG}',
    );
    const env = {
      ZONEPLAN_LOGPUSH_UNIT_EXAMPLE_JOB_USERINFO: 'user:p%40ss',
      ZONEPLAN_LOGPUSH_UNIT_EXAMPLE_JOB_HEADER_AUTHORIZATION: 'Bearer%20abc123',
      ZONEPLAN_LOGPUSH_UNIT_EXAMPLE_JOB_SIG: 'zz%2Fyy',
    };
    expect(resolveReferences(ref.conf, 'x', { env }, () => undefined)).toBe(conf);
  });

  it('escapes a literal ${env: and treats a value it cannot parse as one secret', () => {
    const literal = referenceSecrets('https://h/${env:X}/path?region=eu', nameFor).conf;
    expect(resolveReferences(literal, 'x', { env: {} }, () => undefined)).toBe(
      'https://h/${env:X}/path?region=eu',
    );
    expect(referenceSecrets('not a uri', nameFor).conf).toMatch(
      /^\$\{env:ZONEPLAN_LOGPUSH_UNIT_EXAMPLE_JOB_DESTINATION_CONF\}$/,
    );
  });

  it('names variables stably, unique per object, valid as shell names', () => {
    const r = new VariableRegistry();
    const a = r.name(['LOGPUSH', 'a-b.example', 'job', 'key'], 'a');
    expect(a).toBe('ZONEPLAN_LOGPUSH_A_B_EXAMPLE_JOB_KEY');
    expect(r.name(['LOGPUSH', 'a-b.example', 'job', 'key'], 'a')).toBe(a);
    expect(r.name(['LOGPUSH', 'a.b.example', 'job', 'key'], 'b')).toBe(`${a}_2`);
    expect(variablePart('--')).toBe('X');
  });
});

describe('logpush, page shield, load balancing and waf exports plan to nothing', () => {
  it('logpush: an unnamed job is a comment and purge is off', () => {
    const live = [
      {
        id: 1,
        name: 'http',
        dataset: 'http_requests',
        destination_conf: 'r2://b/p?account-id=x&access-key-id=K123456789',
        enabled: true,
        filter: '{"where":{"key":"ClientIP","operator":"eq","value":"192.0.2.1"}}',
        output_options: { sample_rate: 0.5 },
      },
      { id: 2, name: '', dataset: 'dns_logs', destination_conf: 'https://h/in', enabled: true },
    ].map((j) => liveJobFromApi(j)!);
    const ctx = ctxFor('logpush');
    const result = exportLogpush(live, ctx);
    const value = result.value!;
    expect(value.purge).toBe(false);
    expect(result.notes!.join()).toContain('job 2 (dns_logs): it has no name');
    const job = (value.jobs as Record<string, unknown>[])[0];
    expect(job.filter).toEqual({ where: { key: 'ClientIP', operator: 'eq', value: '192.0.2.1' } });
    // the loader resolves the reference before the kind plans
    const env = { ZONEPLAN_LOGPUSH_UNIT_EXAMPLE_HTTP_ACCESS_KEY_ID: 'K123456789' };
    const loaded = resolveReferences(value, 'logpush', { env }, () => undefined) as Record<string, any>;
    loaded.jobs = loaded.jobs.map((j: object, i: number) => ({ ...j, path: `jobs[${i}]` }));
    expect(planLogpush(ZONE, loaded as never, live)).toEqual([]);
  });

  it('page shield: a second policy with the same description is a comment and purge is off', () => {
    const policy = (id: string, description: string) => ({
      id,
      description,
      action: 'log',
      expression: `http.host eq "${ZONE}"`,
      value: "script-src 'self'",
      enabled: true,
    });
    const live = { enabled: true, policies: [policy('b', 'one'), policy('a', 'one'), policy('c', 'two')] };
    const value = exportPageShield(live, ctxFor('page_shield')).value!;
    expect(value.purge).toBe(false);
    expect((value.policies as unknown[]).length).toBe(2);
    const loaded = {
      ...value,
      policies: (value.policies as object[]).map((p, i) => ({ ...p, path: `p[${i}]` })),
    };
    expect(planPageShield(ZONE, loaded as never, live)).toEqual([]);
  });

  it('load balancing: pools by name, a policy with an unknown mechanism left alone', () => {
    const pools = [
      { id: 'p1', name: 'web', notification_email: 'a@example.com' },
      { id: 'p2', name: 'dup', notification_email: '' },
      { id: 'p3', name: 'dup', notification_email: '' },
    ];
    const policies = [
      {
        id: 'x1',
        name: 'health',
        alert_type: 'load_balancing_health_alert',
        enabled: true,
        filters: { pool_id: ['p1', 'p2'] },
        mechanisms: { email: [{ id: 'A@example.com' }] },
      },
      {
        id: 'x2',
        name: 'slack',
        alert_type: 'load_balancing_health_alert',
        enabled: true,
        filters: {},
        mechanisms: { slack: [{ id: 's' }] },
      },
      {
        id: 'x3',
        name: 'other',
        alert_type: 'billing_usage_alert',
        enabled: true,
        filters: {},
        mechanisms: {},
      },
    ];
    const live = { accountId: ACCOUNT, pools, policies };
    const result = exportLoadBalancing(live, ctxFor('load_balancing', 'account'));
    const value = result.value!;
    expect(value.legacy_pool_emails).toBe('keep');
    expect(value.notifications).toEqual([
      {
        name: 'health',
        alert_type: 'load_balancing_health_alert',
        pools: ['p2', 'web'],
        email: ['a@example.com'],
      },
    ]);
    expect(result.notes!.join()).toContain('delivers through slack');
    expect(planLoadBalancing(value, live as never, 'accounts[0].load_balancing')).toEqual([]);
  });

  it('waf: a zone in validation keeps validation, so the plan does not complete the migration', () => {
    const entrypoint = {
      rules: [
        {
          action: 'execute',
          action_parameters: { id: 'r1', overrides: { rules: [{ id: 'AB', action: 'log' }] } },
        },
        {
          action: 'execute',
          action_parameters: { id: 'r2', overrides: { categories: [{ category: 'x' }] } },
        },
      ],
    };
    const live = {
      status: { migration_state: 'validation', old_waf_status: 'enabled', new_waf_status: 'enabled' },
      uriOverrides: [],
      entrypoint,
    } as const;
    const result = exportWaf(live, ctxFor('waf'));
    expect(result.value).toEqual({
      managed_rules: 'new',
      migration: { mode: 'validation' },
      overrides: [{ id: 'ab', action: 'log', ruleset: 'r1' }],
    });
    expect(result.notes!.join()).toContain('categories override of managed ruleset r2');
    expect(planWaf(result.value, live as never, 'zones[0].waf', () => 'h')).toEqual([]);
  });
});
