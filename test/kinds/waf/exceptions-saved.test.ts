/**
 * `waf.managed_rulesets` beyond one plan, through the CLI against the local API:
 * - export writes the exceptions back in the file's form, and a zone with 355 rule overrides
 *   (terraform-provider-cloudflare #3758: 355 came back as 350) round-trips: export, then plan: no changes;
 * - a saved plan is refused once the provider published a version of a named ruleset, or someone
 *   wrote the entry point, since it was made;
 * - `plan --rehearse` applies the exceptions in the sandbox and converges.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startBed, type Bed } from '../load-balancing/harness.js';
import {
  EXCEPTIONS,
  LOG_RULE,
  MANAGED,
  MANAGED_EXEC,
  OWASP,
  SCORE_RULE,
  ZONE,
  entrypointOf,
  publish,
  world,
  zoneIdOf,
} from './exceptions-world.js';

let bed: Bed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

const ENTRYPOINT = '/rulesets/phases/http_request_firewall_managed/entrypoint';

describe('waf managed_rulesets: export, saved plans, rehearsal', { timeout: 120_000 }, () => {
  it('exports 355 rule overrides and the OWASP settings in the file form, and the export plans nothing', async () => {
    bed = await startBed(world());
    const zone = await zoneIdOf(bed);
    const catalogue = (await bed.t.api('GET', `/zones/${zone}/rulesets/${MANAGED}`)).body.result;
    const ids: string[] = catalogue.rules.map((r: { id: string }) => r.id).slice(0, 355);
    const live = await entrypointOf(bed);
    live.rules[0].action_parameters = {
      id: MANAGED,
      overrides: {
        categories: [{ category: 'wordpress', action: 'log' }],
        rules: ids.map((id, i) => ({ id, ...(i % 2 ? { action: 'log' } : { enabled: false }) })),
      },
    };
    const owasp = {
      action: 'execute',
      expression: 'true',
      action_parameters: {
        id: OWASP,
        overrides: {
          categories: [{ category: 'paranoia-level-4', enabled: false }],
          rules: [{ id: SCORE_RULE, action: 'block', score_threshold: 60 }],
        },
      },
    };
    const put = await bed.t.api('PUT', `/zones/${zone}${ENTRYPOINT}`, {
      name: 'default',
      rules: [...live.rules, owasp],
    });
    expect(put.body.success, put.text).toBe(true);

    const out = join(bed.dir, 'exported.yaml');
    const exported = await bed.cli(['export', '--zone', ZONE, '--kinds', 'waf', '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('managed_rulesets:');
    expect(text).toContain('- ruleset: cloudflare_managed');
    expect(text.match(/^ {12}- \{ id: [0-9a-f]{32}, (action: log|enabled: false) \}$/gm)).toHaveLength(355);
    expect(text).toMatch(
      /- ruleset: owasp\n {10}paranoia_level: 3\n {10}action: block\n {10}score_threshold: low\n/,
    );

    const plan = await bed.cli(['plan', out, '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain('No changes.');
  });

  it('refuses a saved plan once the provider published a version, or someone wrote the entry point', async () => {
    bed = await startBed(world());
    const zone = await zoneIdOf(bed);
    const desired = bed.file('waf.yaml', EXCEPTIONS);
    const saved = join(bed.dir, 'plan.json');

    expect((await bed.cli(['plan', desired, '--out', saved])).code).toBe(0);
    await publish(bed, MANAGED, {
      add: [
        {
          id: 'abcdef0123456789abcdef0123456789',
          description: 'Citrix - RCE - CVE-2026-7',
          categories: ['citrix'],
        },
      ],
    });
    const stale = await bed.cli(['apply', saved, '--auto-approve']);
    expect(stale.code, stale.stdout).toBe(1);
    expect(stale.stderr).toMatch(/saved plan .* is stale/);
    expect(stale.stderr).toContain('done.example waf managed rules exceptions (entrypoint ruleset)');
    expect((await entrypointOf(bed)).version).toBe('1');

    expect((await bed.cli(['plan', desired, '--out', saved, '--force'])).code).toBe(0);
    const live = await entrypointOf(bed);
    live.rules[2] = { ...live.rules[2], description: 'watch closely' };
    expect(
      (await bed.t.api('PUT', `/zones/${zone}${ENTRYPOINT}`, { name: 'default', rules: live.rules })).body
        .success,
    ).toBe(true);
    const changed = await bed.cli(['apply', saved, '--auto-approve']);
    expect(changed.code, changed.stdout).toBe(1);
    expect(changed.stderr).toMatch(/saved plan .* is stale/);

    // planned again, it applies, and keeps the rule someone else changed
    expect((await bed.cli(['plan', desired, '--out', saved, '--force'])).code).toBe(0);
    const applied = await bed.cli(['apply', saved, '--auto-approve']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const after = await entrypointOf(bed);
    expect(after.rules[0].id).toBe(MANAGED_EXEC);
    expect(after.rules[2]).toMatchObject({ id: LOG_RULE, description: 'watch closely' });
  });

  it('plan --rehearse applies the exceptions in the sandbox, and the second plan is empty', async () => {
    bed = await startBed(world());
    const desired = bed.file('waf.yaml', EXCEPTIONS);
    const rehearsed = await bed.cli(['plan', desired, '--rehearse']);
    expect(rehearsed.stderr).toContain('rehearsed: 1 step applied in the sandbox, second plan empty');
    expect(rehearsed.code, rehearsed.stderr).toBe(0);
    expect((await entrypointOf(bed)).version).toBe('1');
  });

  it('plan --rehearse checks the exceptions against the target catalogue, copied into the sandbox', async () => {
    // a target whose Cloudflare Managed Ruleset is not the local API's generated one (a real one)
    const own = 'c0ffee00c0ffee00c0ffee00c0ffee00';
    const base = {
      version: '82',
      last_updated: '2025-06-01T00:00:00.000000Z',
      rules: [
        {
          id: own,
          action: 'block',
          categories: ['wordpress', 'rce'],
          description: 'WordPress - RCE - CVE-2025-1',
        },
        {
          id: 'c0ffee00c0ffee00c0ffee00c0ffee01',
          action: 'log',
          categories: ['joomla'],
          description: 'Joomla - SQLi',
        },
      ],
    };
    bed = await startBed({ ...world(), managed_rulesets: [{ id: MANAGED, base }] });
    const desired = bed.file(
      'real.yaml',
      `version: 1\nzones:\n  - name: ${ZONE}\n    waf:\n      managed_rules: new\n      managed_rulesets:\n` +
        `        - ruleset: cloudflare_managed\n          rules:\n            - { id: ${own}, action: log }\n`,
    );
    const rehearsed = await bed.cli(['plan', desired, '--rehearse']);
    expect(rehearsed.stderr).toContain('rehearsed: 1 step applied in the sandbox, second plan empty');
    expect(rehearsed.code, rehearsed.stderr).toBe(0);
  });
});
