/**
 * `waf.managed_rulesets` through the CLI against the local API (every exchange checked against the
 * published schema by the bed's contract proxy), on a migrated zone:
 * - plan shows the exceptions in the file's terms (text, Markdown, JSON) and the kept rules once;
 *   apply writes them keeping every other rule's id and ref; the second plan is empty;
 * - a rule id or a category the live ruleset lacks is a plan error at file:line:col with the
 *   closest ones, and nothing is written;
 * - validate (offline) names the traps as warnings and refuses a short-form override of a ruleset the
 *   file owns under managed_rulesets, at file:line:col;
 * - the provider's new version shows up: drift exits 2 only with `report_new_rules: true`, and an
 *   apply records the version reviewed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { startBed, type Bed } from '../load-balancing/harness.js';
import {
  BAD_ROBOTS,
  EXCEPTIONS,
  EXPOSED_EXEC,
  LOG_RULE,
  MANAGED,
  MANAGED_EXEC,
  OWASP,
  SCORE_RULE,
  WORDPRESS_XSS,
  entrypointOf,
  publish,
  world,
} from './exceptions-world.js';

let bed: Bed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

describe('waf managed_rulesets against the local API', { timeout: 120_000 }, () => {
  it('plans in the file terms, applies keeping the other rules and their ids, then plans nothing', async () => {
    bed = await startBed(world());
    const before = await entrypointOf(bed);
    const desired = bed.file('waf.yaml', EXCEPTIONS);

    const text = await bed.cli(['plan', desired, '--detailed-exitcode']);
    expect(text.code, text.stderr).toBe(2);
    expect(text.stdout).toContain('~ update managed rules exceptions (entrypoint ruleset)');
    expect(text.stdout).toContain('cloudflare_managed: category wordpress: "default" -> "block"');
    expect(text.stdout).toContain('cloudflare_managed: category joomla: "default" -> "disabled"');
    expect(text.stdout).toContain(
      `cloudflare_managed: rule ${BAD_ROBOTS} "Bad Robots - Known Malicious User Agent": "default (block)" -> "log"`,
    );
    expect(text.stdout).toContain(
      `cloudflare_managed: rule ${WORDPRESS_XSS} "WordPress - XSS - Comment Author Field": "disabled" -> "default (block)"`,
    );
    expect(text.stdout).toContain('owasp: paranoia level: "default" -> 2');
    expect(text.stdout).toContain('owasp: score threshold: "default" -> "medium"');
    expect(text.stdout).toContain('owasp: action: "default" -> "managed_challenge"');
    const kept = `kept: not managed by this file: rules[1] execute exposed_credentials (id ${EXPOSED_EXEC}); rules[2] log "watch" (id ${LOG_RULE})`;
    expect(text.stdout.split(kept)).toHaveLength(2);
    expect(text.stdout).not.toContain('action_parameters');

    const markdown = await bed.cli(['plan', desired, '--format', 'markdown']);
    expect(markdown.stdout).toContain('owasp: paranoia level: "default" → 2');
    expect(markdown.stdout).toContain('kept: not managed by this file');
    const json = JSON.parse((await bed.cli(['plan', desired, '--format', 'json'])).stdout);
    expect(json.steps[0].changes).toContainEqual({
      path: 'owasp: paranoia level',
      before: 'default',
      after: 2,
    });

    const apply = await bed.cli(['apply', desired, '--auto-approve']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const after = await entrypointOf(bed);
    expect(after.rules.map((r) => r.id).slice(0, 3)).toEqual([MANAGED_EXEC, EXPOSED_EXEC, LOG_RULE]);
    expect(after.rules.map((r) => r.ref).slice(0, 3)).toEqual(['managed-ref', 'exposed-ref', 'log-ref']);
    // the rules the file does not name are exactly as they were, version included
    expect(after.rules.slice(1, 3)).toEqual(before.rules.slice(1, 3));
    expect(after.rules[0].action_parameters).toEqual({
      id: MANAGED,
      overrides: {
        categories: [
          { category: 'wordpress', action: 'block' },
          { category: 'joomla', enabled: false },
        ],
        rules: [{ id: BAD_ROBOTS, action: 'log' }],
      },
    });
    expect(after.rules[3].action_parameters).toEqual({
      id: OWASP,
      overrides: {
        categories: [
          { category: 'paranoia-level-3', enabled: false },
          { category: 'paranoia-level-4', enabled: false },
        ],
        rules: [{ id: SCORE_RULE, action: 'managed_challenge', score_threshold: 40 }],
      },
    });
    const again = await bed.cli(['plan', desired, '--detailed-exitcode']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect((await bed.cli(['drift', desired])).code).toBe(0);
    expect(bed.contract.violations).toEqual([]);

    // the catalogue is read for a file that names managed rulesets, and only then
    const catalogueReads = (from: number) =>
      bed!.contract.exchanges.slice(from).filter((x) => /\/rulesets(\/[0-9a-f]{32})?(\?|$)/.test(x.url));
    let from = bed.contract.exchanges.length;
    await bed.cli(['plan', desired]);
    expect(catalogueReads(from).map((x) => x.url.replace(/^\/zones\/[0-9a-f]+/, ''))).toEqual(
      expect.arrayContaining(['/rulesets', `/rulesets/${MANAGED}`, `/rulesets/${OWASP}`]),
    );
    const shortForm = bed.file(
      'short.yaml',
      `version: 1\nzones:\n  - name: done.example\n    waf:\n      managed_rules: new\n      overrides:\n        - { id: ${BAD_ROBOTS}, action: log }\n`,
    );
    from = bed.contract.exchanges.length;
    expect((await bed.cli(['plan', shortForm])).code).toBe(0);
    expect(catalogueReads(from)).toEqual([]);
  });

  it('refuses a rule id or a category the ruleset does not have, at file:line:col, with the closest', async () => {
    bed = await startBed(world());
    const desired = bed.file(
      'typo.yaml',
      EXCEPTIONS.replace('category: wordpress,', 'category: wordpres,').replace(
        `id: ${BAD_ROBOTS}`,
        'id: 5de7edfa648c4d6891dc3e7f84534ffb',
      ),
    );
    const plan = await bed.cli(['plan', desired]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(
      'typo.yaml:9:27: zones[0].waf.managed_rulesets[0].categories[0].category: cloudflare_managed (version 1) ' +
        'has no rule in the category "wordpres"; the closest: wordpress',
    );
    expect(plan.stderr).toContain(
      `typo.yaml:12:21: zones[0].waf.managed_rulesets[0].rules[0].id: cloudflare_managed (version 1) has no rule ` +
        `5de7edfa648c4d6891dc3e7f84534ffb; the closest: ${BAD_ROBOTS} "Bad Robots - Known Malicious User Agent"`,
    );
    // only near misses are suggested: no unrelated category or rule after the one that is meant
    expect(plan.stderr).toMatch(/the closest: wordpress\n/);
    expect(plan.stderr).toMatch(
      /the closest: 5de7edfa648c4d6891dc3e7f84534ffa "Bad Robots - Known Malicious User Agent"\n/,
    );
    const apply = await bed.cli(['apply', desired, '--auto-approve']);
    expect(apply.code).toBe(1);
    expect((await entrypointOf(bed)).version).toBe('1');
  });

  it('shows the provider changes since the version the last apply saw; drift exits 2 only when asked', async () => {
    bed = await startBed(world());
    const loud = bed.file(
      'loud.yaml',
      EXCEPTIONS.replace('- ruleset: owasp', '- ruleset: owasp\n          report_new_rules: true'),
    );
    const quiet = bed.file('quiet.yaml', EXCEPTIONS);
    expect((await bed.cli(['apply', loud, '--auto-approve'])).code).toBe(0);
    expect((await bed.cli(['drift', loud])).code).toBe(0);
    const added = 'abcdef0123456789abcdef0123456789';
    await publish(bed, OWASP, {
      add: [
        {
          id: added,
          description: '942999: SQL Injection Attack Detected - Body',
          categories: ['paranoia-level-1', 'sqli'],
          action: 'log',
        },
      ],
    });

    const drift = await bed.cli(['drift', loud]);
    expect(drift.code, drift.stderr).toBe(2);
    expect(drift.stdout).toContain(
      `owasp: rule ${added} "942999: SQL Injection Attack Detected - Body": "not in version 1" -> "added in version 2, default log"`,
    );
    expect(drift.stdout).toContain('owasp: rules seen at version: "1" -> "2"');

    const calm = await bed.cli(['drift', quiet]);
    expect(calm.code, calm.stdout).toBe(0);
    expect(calm.stderr).toContain(
      `owasp: the provider changed the ruleset since version 1 (now 2): rule ${added} "942999: SQL Injection Attack Detected - Body" added (default log)`,
    );

    // applying the reviewed file records version 2: the next drift is clean
    expect((await bed.cli(['apply', loud, '--auto-approve'])).code).toBe(0);
    const owaspRule = (await entrypointOf(bed)).rules.find((r) => r.action_parameters?.id === OWASP);
    expect(owaspRule?.description).toBe(
      'Execute the Cloudflare OWASP Core Ruleset (rules seen at version 2)',
    );
    expect((await bed.cli(['drift', loud])).code).toBe(0);
  });

  it('validate warns of the traps and refuses a short-form override of an owned ruleset, at file:line:col', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zoneplan-waf-traps-'));
    try {
      const traps = join(dir, 'traps.yaml');
      writeFileSync(
        traps,
        `version: 1
zones:
  - name: done.example
    waf:
      managed_rules: new
      overrides:
        - { id: ${BAD_ROBOTS}, action: log }
      managed_rulesets:
        - ruleset: cloudflare_managed
          enabled: false
        - ruleset: owasp
          paranoia_level: 2
          categories:
            - { category: paranoia-level-3, enabled: true }
          rules:
            - { id: a5555555555555555555555555555555, action: log }
        - ruleset: exposed_credential
`,
      );
      const run = await runCli(['validate', traps], { cwd: dir });
      expect(run.code).toBe(1);
      const out = run.stdout + run.stderr;
      expect(out).toContain(
        'traps.yaml:7:11: zones[0].waf.overrides[0]: cloudflare_managed is managed under managed_rulesets[0]',
      );
      expect(out).toContain(
        'traps.yaml:10:20: zones[0].waf.managed_rulesets[0].enabled: warning: turns off every rule of cloudflare_managed',
      );
      expect(out).toContain('paranoia-level-3: this category wins, so the rules of level 3 run');
      expect(out).toMatch(/traps\.yaml:16:63: .*rules\[0\]\.action: warning: has no effect/);
      expect(out).toContain('(did you mean exposed_credentials?)');
      // a category is printed in every plan line of its exceptions: it cannot come from the environment
      const secret = join(dir, 'secret.yaml');
      writeFileSync(
        secret,
        'version: 1\nzones:\n  - name: done.example\n    waf:\n      managed_rules: new\n      managed_rulesets:\n' +
          '        - ruleset: owasp\n          categories:\n            - { category: "${env:SECRET_CATEGORY}", action: block }\n',
      );
      const env = await runCli(['validate', secret], { cwd: dir, env: { SECRET_CATEGORY: 'sqli' } });
      expect(env.code).toBe(1);
      expect(env.stdout + env.stderr).toMatch(
        /secret\.yaml:9:\d+: zones\[0\]\.waf\.managed_rulesets\[0\]\.categories\[0\]\.category: `\$\{env:SECRET_CATEGORY\}` cannot be used here/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
