/**
 * The pure planner of `waf.managed_rulesets`: desired exceptions + the live entry point + the
 * catalogue -> the execute rules' override objects, the plan's lines in the file's terms, the rules
 * kept, the catalogue errors at their places, the provider's changes, and export's inverse.
 */
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/errors.js';
import { sha256 } from '../../../src/kinds/waf/apply.js';
import type { Catalogue, CatalogueRule } from '../../../src/kinds/waf/catalogue.js';
import { checkAgainstCatalogue } from '../../../src/kinds/waf/exceptions-check.js';
import { exportWaf } from '../../../src/kinds/waf/export.js';
import type { RulesetConfig, WafLive } from '../../../src/kinds/waf/model.js';
import { planWaf, type WafStepData } from '../../../src/kinds/waf/plan.js';

const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
const EXPOSED = 'c2e184081120413c86c3ab7e14069605';
const DRUPAL = '5de7edfa648c4d6891dc3e7f84534ffa';
const WP = 'e3a567afc347477d9702d9047e97d760';
const SCORE = '6179ae15870a4bb7b2d480d4843b323c';
const KEPT_LOG = '11111111111111111111111111111111';
const EXPOSED_EXEC = '22222222222222222222222222222222';
const MANAGED_EXEC = '33333333333333333333333333333333';

const rule = (id: string, description: string, categories: string[], action = 'block'): CatalogueRule => ({
  id,
  description,
  action,
  categories,
  enabled: true,
});

const manyRules = Array.from({ length: 360 }, (_, i) =>
  rule(i.toString(16).padStart(32, 'a'), `Generic - SQLi - ${i}`, ['generic', 'sqli']),
);

function catalogue(over: Partial<Catalogue['rulesets'][string]> = {}): Catalogue {
  return {
    available: [
      { id: MANAGED, name: 'Cloudflare Managed Ruleset', version: '1' },
      { id: OWASP, name: 'Cloudflare OWASP Core Ruleset', version: '1' },
      { id: EXPOSED, name: 'Cloudflare Exposed Credentials Check Ruleset', version: '1' },
    ],
    rulesets: {
      [MANAGED]: {
        id: MANAGED,
        name: 'Cloudflare Managed Ruleset',
        version: '1',
        last_updated: '2026-01-05T00:00:00Z',
        rules: [
          rule(DRUPAL, 'Drupal - SQLi - CVE-2019-6340', ['drupal', 'sqli']),
          rule(WP, 'WordPress - XSS - Comment Author Field', ['wordpress', 'xss']),
          rule('44444444444444444444444444444444', 'Joomla - RCE', ['joomla', 'rce'], 'log'),
          ...manyRules,
        ],
        ...over,
      },
      [OWASP]: {
        id: OWASP,
        name: 'Cloudflare OWASP Core Ruleset',
        version: '1',
        last_updated: '2026-01-05T00:00:00Z',
        rules: [
          rule('55555555555555555555555555555555', '920100: Protocol', ['paranoia-level-1', 'protocol']),
          rule('66666666666666666666666666666666', '942100: SQLi', ['paranoia-level-3', 'sqli']),
          rule(SCORE, '949110: Inbound Anomaly Score Exceeded', ['anomaly-score']),
        ],
      },
    },
  };
}

const entrypoint = (): RulesetConfig => ({
  id: '99999999999999999999999999999999',
  version: '4',
  name: 'default',
  rules: [
    {
      id: MANAGED_EXEC,
      ref: 'my-ref',
      action: 'execute',
      expression: 'true',
      description: 'Execute the Cloudflare Managed Ruleset',
      enabled: true,
      action_parameters: { id: MANAGED, overrides: { rules: [{ id: WP, enabled: false }] } },
    },
    {
      id: EXPOSED_EXEC,
      action: 'execute',
      expression: 'http.request.uri.path eq "/login"',
      enabled: true,
      action_parameters: { id: EXPOSED },
    },
    { id: KEPT_LOG, action: 'log', expression: 'ip.src eq 192.0.2.1', description: 'watch', enabled: true },
  ],
});

const migrated = (ep: RulesetConfig | null, cat: Catalogue = catalogue()): WafLive => ({
  tier: 'pro',
  status: { migration_state: 'complete', old_waf_status: 'disabled', new_waf_status: 'enabled' },
  uriOverrides: [],
  entrypoint: ep,
  catalogue: cat,
});

const file = {
  managed_rules: 'new',
  managed_rulesets: [
    {
      ruleset: 'cloudflare_managed',
      categories: [
        { category: 'wordpress', action: 'block' },
        { category: 'joomla', enabled: false },
      ],
      rules: [{ id: DRUPAL, action: 'log' }],
    },
    { ruleset: 'owasp', paranoia_level: 2, score_threshold: 'medium', action: 'managed_challenge' },
  ],
};

const plan = (desired: unknown, live: WafLive, place = {}) =>
  planWaf(desired as never, live, 'zones[0].waf', sha256, place);
const configOf = (steps: ReturnType<typeof plan>) => (steps[0].data as { config: RulesetConfig }).config;

describe('waf managed_rulesets planner', () => {
  it('writes the override set of each named ruleset, shows it in the file terms, keeps the other rules', () => {
    const steps = plan(file, migrated(entrypoint()));
    expect(steps).toHaveLength(1);
    const step = steps[0];
    expect(step.action).toBe('update');
    const lines = step.changes!.map((c) => [c.path, c.before, c.after]);
    expect(lines).toEqual(
      expect.arrayContaining([
        ['cloudflare_managed: category wordpress', 'default', 'block'],
        ['cloudflare_managed: category joomla', 'default', 'disabled'],
        [`cloudflare_managed: rule ${DRUPAL} "Drupal - SQLi - CVE-2019-6340"`, 'default (block)', 'log'],
        // the file owns the set: an exception it does not declare is removed live
        [
          `cloudflare_managed: rule ${WP} "WordPress - XSS - Comment Author Field"`,
          'disabled',
          'default (block)',
        ],
        ['owasp', undefined, 'executed on every request (new execute rule)'],
        ['owasp: paranoia level', 'default', 2],
        ['owasp: score threshold', 'default', 'medium'],
        ['owasp: action', 'default', 'managed_challenge'],
      ]),
    );
    expect(step.reason).toBe(
      `kept: not managed by this file: rules[1] execute exposed_credentials (id ${EXPOSED_EXEC}); ` +
        `rules[2] log "watch" (id ${KEPT_LOG})`,
    );
    const config = configOf(steps);
    expect(config.rules.map((r) => r.id)).toEqual([MANAGED_EXEC, EXPOSED_EXEC, KEPT_LOG, undefined]);
    expect(config.rules[0].ref).toBe('my-ref');
    expect(config.rules[1]).toEqual(entrypoint().rules[1]);
    expect(config.rules[0].action_parameters!.overrides).toEqual({
      categories: [
        { category: 'wordpress', action: 'block' },
        { category: 'joomla', enabled: false },
      ],
      rules: [{ id: DRUPAL, action: 'log' }],
    });
    expect(config.rules[3].action_parameters).toEqual({
      id: OWASP,
      overrides: {
        categories: [
          { category: 'paranoia-level-3', enabled: false },
          { category: 'paranoia-level-4', enabled: false },
        ],
        rules: [{ id: SCORE, action: 'managed_challenge', score_threshold: 40 }],
      },
    });
    // the write records the version of each ruleset it was made against
    expect(config.rules[0].description).toBe(
      'Execute the Cloudflare Managed Ruleset (rules seen at version 1)',
    );
    // a saved plan is tied to the entry point's version and the catalogue's versions
    expect(step.before).toMatchObject({
      entrypoint: { version: '4' },
      managed_rulesets: { cloudflare_managed: '1', owasp: '1' },
    });
    expect((step.data as WafStepData).op).toBe('update-entrypoint');

    // applied, the same file plans nothing
    expect(plan(file, migrated(config))).toEqual([]);
  });

  it('shows a paranoia level change as one line', () => {
    const ep = entrypoint();
    ep.rules.push({
      id: '77777777777777777777777777777777',
      action: 'execute',
      expression: 'true',
      enabled: true,
      action_parameters: {
        id: OWASP,
        overrides: {
          categories: [2, 3, 4].map((l) => ({ category: `paranoia-level-${l}`, enabled: false })),
        },
      },
    } as never);
    const steps = plan(
      { managed_rules: 'new', managed_rulesets: [{ ruleset: 'owasp', paranoia_level: 2 }] },
      migrated(ep),
    );
    expect(steps[0].changes).toEqual([{ path: 'owasp: paranoia level', before: 1, after: 2 }]);
  });

  it('refuses a rule id or category the live ruleset does not have, at its place, with the closest ones', () => {
    const desired = {
      managed_rules: 'new',
      managed_rulesets: [
        {
          ruleset: 'cloudflare_managed',
          categories: [{ category: 'wordpres', action: 'block' }],
          rules: [{ id: '5de7edfa648c4d6891dc3e7f84534ffb', action: 'log' }],
        },
      ],
    };
    const locate = (p: string) => `waf.yaml:${p.length}:7`;
    let error: unknown;
    try {
      plan(desired, migrated(entrypoint()), { zone: 'example.com', locate });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UserError);
    const message = (error as Error).message;
    expect(message).toContain('zone example.com:');
    expect(message).toContain(
      `waf.yaml:${'zones[0].waf.managed_rulesets[0].categories[0].category'.length}:7: ` +
        'zones[0].waf.managed_rulesets[0].categories[0].category: cloudflare_managed (version 1) has no rule in the ' +
        'category "wordpress"'.replace('"wordpress"', '"wordpres"'),
    );
    expect(message).toMatch(/the closest: wordpress/);
    expect(message).toContain(
      `zones[0].waf.managed_rulesets[0].rules[0].id: cloudflare_managed (version 1) has no rule 5de7edfa648c4d6891dc3e7f84534ffb; ` +
        `the closest: ${DRUPAL} "Drupal - SQLi - CVE-2019-6340"`,
    );
  });

  it('suggests near misses only', () => {
    const problems = checkAgainstCatalogue(
      [{ ruleset: 'cloudflare_managed', rules: [{ id: 'c0ffee00c0ffee00c0ffee00c0ffee00', action: 'log' }] }],
      catalogue(),
      'zones[0].waf',
    );
    expect(problems).toEqual([
      {
        path: 'zones[0].waf.managed_rulesets[0].rules[0].id',
        message: 'cloudflare_managed (version 1) has no rule c0ffee00c0ffee00c0ffee00c0ffee00',
      },
    ]);
  });

  it('refuses an action the rule cannot take and a score threshold outside the score rule', () => {
    const cat = catalogue();
    cat.rulesets[OWASP].rules.push(
      rule('a7777777777777777777777777777777', '920999: scoring only', ['sqli'], 'score'),
    );
    const desired = {
      managed_rules: 'new',
      managed_rulesets: [
        {
          ruleset: 'owasp',
          rules: [
            { id: 'a7777777777777777777777777777777', action: 'block' },
            { id: '55555555555555555555555555555555', score_threshold: 30 },
          ],
        },
      ],
    };
    expect(() => plan(desired, migrated(entrypoint(), cat))).toThrow(
      new RegExp(
        'managed_rulesets\\[0\\]\\.rules\\[0\\]\\.action: rule a7777777777777777777777777777777 "920999: scoring only" ' +
          '\\(default action score\\) cannot take the action block[\\s\\S]*' +
          'managed_rulesets\\[0\\]\\.rules\\[1\\]\\.score_threshold: rule 55555555555555555555555555555555 .* does not act on the anomaly score',
      ),
    );
  });

  it('reports the provider changes since the version the last write saw: a step with report_new_rules, else a warning', () => {
    const added = rule('88888888888888888888888888888888', 'Citrix - RCE - CVE-2026-1234', ['citrix'], 'log');
    const cat = catalogue();
    const latest = cat.rulesets[MANAGED];
    const seenRules = latest.rules.filter((r) => r.id !== '88888888888888888888888888888888');
    cat.rulesets[MANAGED] = {
      ...latest,
      version: '2',
      rules: [...latest.rules.filter((r) => r.id !== WP), added],
      seen: { version: '1', rules: seenRules },
    };
    const ep = entrypoint();
    ep.rules[0].description = 'Execute the Cloudflare Managed Ruleset (rules seen at version 1)';
    ep.rules[0].action_parameters!.overrides = { rules: [{ id: DRUPAL, action: 'log' }] };
    const entry = { ruleset: 'cloudflare_managed', rules: [{ id: DRUPAL, action: 'log' }] };

    const warnings: string[] = [];
    const quiet = plan({ managed_rules: 'new', managed_rulesets: [entry] }, migrated(ep, cat), {
      zone: 'example.com',
      warn: (m: string) => warnings.push(m),
    });
    expect(quiet).toEqual([]);
    expect(warnings.join('\n')).toContain('since version 1 (now 2)');
    expect(warnings.join('\n')).toContain(
      'rule 88888888888888888888888888888888 "Citrix - RCE - CVE-2026-1234" added (default log)',
    );
    expect(warnings.join('\n')).toContain(`rule ${WP} "WordPress - XSS - Comment Author Field" removed`);

    const loud = plan(
      { managed_rules: 'new', managed_rulesets: [{ ...entry, report_new_rules: true }] },
      migrated(ep, cat),
    );
    expect(loud).toHaveLength(1);
    expect(loud[0].changes).toEqual([
      {
        path: 'cloudflare_managed: rule 88888888888888888888888888888888 "Citrix - RCE - CVE-2026-1234"',
        before: 'not in version 1',
        after: 'added in version 2, default log',
      },
      {
        path: `cloudflare_managed: rule ${WP} "WordPress - XSS - Comment Author Field"`,
        before: 'in version 1, default block',
        after: 'removed in version 2',
      },
      { path: 'cloudflare_managed: rules seen at version', before: '1', after: '2' },
    ]);
    expect(configOf(loud).rules[0].description).toBe(
      'Execute the Cloudflare Managed Ruleset (rules seen at version 2)',
    );
  });

  it('exports 350+ rule overrides with a category as managed_rulesets, and the export plans nothing', () => {
    const ep = entrypoint();
    ep.rules[0].action_parameters!.overrides = {
      categories: [{ category: 'wordpress', action: 'log' }],
      rules: manyRules
        .slice(0, 355)
        .map((r, i) => ({ id: r.id, ...(i % 2 ? { action: 'log' } : { enabled: false }) })),
    };
    ep.rules.push({
      action: 'execute',
      expression: 'true',
      enabled: true,
      action_parameters: {
        id: OWASP,
        overrides: {
          categories: [3, 4].map((l) => ({ category: `paranoia-level-${l}`, enabled: false })),
          rules: [{ id: SCORE, action: 'block', score_threshold: 60 }],
        },
      },
    } as never);
    const live = migrated(ep);
    const exported = exportWaf(live, { owner: { scope: 'zone', name: 'example.com', id: 'z' } } as never);
    const value = exported.value as { managed_rulesets: Record<string, unknown>[] };
    expect(value.managed_rulesets).toHaveLength(2);
    expect((value.managed_rulesets[0].rules as unknown[]).length).toBe(355);
    expect(value.managed_rulesets[1]).toEqual({
      ruleset: 'owasp',
      paranoia_level: 2,
      action: 'block',
      score_threshold: 'low',
    });
    expect(plan(value, live)).toEqual([]);
  });
});
