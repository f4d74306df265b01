/**
 * WAF and load-balancing state through `export --as fixtures` and `plan --rehearse`, against a
 * `serve` standing in for production: the served export plans step for step like the original
 * (ids and fingerprints), a rehearsal of a WAF migration and of a notification migration converges
 * and sends the target GETs only, and `apply --rehearse-first` applies them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, cliAt, writeYaml } from '../cli-reconcile/helpers.js';
import { bedsClosedAfterEach, cliWatched } from './bed.js';
import { DESIRED, POLICIES, POOLS, PRODUCTION, SELECTION, URI_OVERRIDE, ZONES } from './waf-lb-world.js';

const startProduction = bedsClosedAfterEach();

type Step = { id: string; action: string; fingerprint?: string };

describe('WAF and load balancing in fixtures and rehearsal', { timeout: 120_000 }, () => {
  it('serving the export plans exactly like the original target', async () => {
    const prod = await startProduction({ fixtures: PRODUCTION });
    const desired = writeYaml(prod.dir, 'zones.yaml', DESIRED);
    const exp = await cliAt(prod, ['export', '--as', 'fixtures', ...SELECTION, '--out', 'copy.json']);
    if (exp.code !== 0) throw new Error(exp.stderr);
    const copy = JSON.parse(readFileSync(join(prod.dir, 'copy.json'), 'utf8'));
    const prev = copy.zones.find((z: { name: string }) => z.name === 'prev.example').waf;
    expect(prev.migration_state).toBe('default');
    // the rules' new ids pair with the configuration the plan read: the copy derives it again
    expect(prev.migration_config).toBeUndefined();
    // the local API lists no firewall rules: counts under the limits are not stated, over them they are
    const many = copy.zones.find((z: { name: string }) => z.name === 'many.example').waf;
    expect(many).toMatchObject({ firewall_rules: 250, longest_firewall_expression: 5000 });
    expect(prev.overrides[0]).toMatchObject({
      id: URI_OVERRIDE,
      rules: { '100000000000000000000000000000a1': 'disable' },
    });
    const rules = prev.packages[0].groups.flatMap((g: { rules: unknown[] }) => g.rules);
    expect(rules.map((r: { id: string }) => r.id)).toContain('100000000000000000000000000000a4');
    expect(rules.every((r: { allowed_modes?: unknown }) => Array.isArray(r.allowed_modes))).toBe(true);
    const val = copy.zones.find((z: { name: string }) => z.name === 'val.example').waf;
    expect(val.entrypoint).toMatchObject({ id: '00000000000000000000000000000e02', version: '3' });
    const account = copy.accounts[0];
    expect(account.pools.map((p: { id: string }) => p.id).sort()).toEqual([POOLS.web, POOLS.api]);
    expect(account.pools.find((p: { id: string }) => p.id === POOLS.web).origins[0].address).toBe(
      '192.0.2.20',
    );
    expect(account.notification_policies.map((p: { id: string }) => p.id)).toEqual([
      POLICIES.health,
      POLICIES.old,
    ]);

    const served = await startProduction({
      fixtures: join(prod.dir, 'copy.json') as unknown as Record<string, unknown>,
    });
    const a = await cliAt(prod, ['plan', desired, '--format', 'json']);
    if (!a.stdout) throw new Error(a.stderr);
    const b = await cliAt(served, ['plan', desired, '--format', 'json']);
    const sa = JSON.parse(a.stdout).steps as Step[];
    const ids = sa.map((s) => s.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        `prev.example/waf/uri-override:${URI_OVERRIDE}`,
        'prev.example/waf/migration:fetch',
        'prev.example/waf/migration:pending',
        'val.example/waf/entrypoint-overrides',
        'done.example/waf/entrypoint-overrides',
        `${PRODUCTION.accounts[0].id}/load_balancing/${POLICIES.health}`,
        `${PRODUCTION.accounts[0].id}/load_balancing/${POLICIES.old}`,
        `${PRODUCTION.accounts[0].id}/load_balancing/legacy-pool-emails`,
      ]),
    );
    expect(JSON.parse(b.stdout).steps).toEqual(sa);
    expect(b.stderr.replaceAll(served.contract.url, prod.contract.url)).toBe(a.stderr);
  });

  it('plan --rehearse --allow-irreversible converges with GETs only to the target; apply --rehearse-first applies', async () => {
    const prod = await startProduction({ fixtures: PRODUCTION });
    const desired = writeYaml(prod.dir, 'zones.yaml', DESIRED);
    const before = await cliAt(prod, ['plan', desired, '--format', 'json']);
    const { result: r, methods } = await cliWatched(prod, [
      'plan',
      desired,
      '--rehearse',
      '--allow-irreversible',
    ]);
    if (!r.stderr.includes('second plan empty')) throw new Error(r.stderr + r.stdout);
    const steps = (JSON.parse(before.stdout).steps as Step[]).filter((s) => s.action !== 'report');
    expect(r.stderr).toContain(`rehearsed: ${steps.length} steps applied in the sandbox, second plan empty`);
    expect(r.stderr).not.toContain('not rehearsed');
    expect(r.stderr).toMatch(/the real apply would send: .*PUT/);
    expect(r.code).toBe(0);
    expect(methods.filter((m) => m !== 'GET')).toEqual([]);
    const again = await cliAt(prod, ['plan', desired, '--format', 'json']);
    expect(JSON.parse(again.stdout).steps).toEqual(JSON.parse(before.stdout).steps);

    // without --allow-irreversible the migration's irreversible steps are left out: no convergence
    const partial = await cliAt(prod, ['plan', desired, '--rehearse']);
    expect(partial.stderr).toMatch(/second plan has \d+ steps?, \d+ skipped/);
    expect(partial.code).toBe(1);

    const applied = await cliAt(prod, [
      'apply',
      desired,
      '--rehearse-first',
      '--allow-irreversible',
      '--auto-approve',
    ]);
    if (applied.code !== 0) throw new Error(applied.stderr + applied.stdout);
    expect(applied.stderr).toContain('second plan empty');
    const after = await cliAt(prod, ['plan', desired, '--format', 'json']);
    expect(JSON.parse(after.stdout).steps).toEqual([]);
    const status = await api<{ migration_state: string }>(
      prod,
      'GET',
      `/zones/${ZONES.prev}/waf_migration/status`,
    );
    expect(status.migration_state).toBe('complete');
  });
});
