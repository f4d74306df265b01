// The previous WAF answers with the real API's values: a traditional rule's default_mode is one of
// disable|simulate|block|challenge (OpenAPI `waf-managed-rules_default_mode`), an anomaly rule has
// none, packages carry a description; the migration configuration overrides exactly the rules whose
// configuration differs from their default.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/index.js';
import type { TestServer } from '../server/helpers.js';
import { ACCOUNT, startAreaServer, testCall } from './setup.js';

const ZONE = 'abcdef0123456789abcdef0123456789';
const NEW = (n: number) => `${n}`.padStart(32, 'e');
let t: TestServer;
beforeAll(async () => {
  t = await startAreaServer();
  const rule = (n: number, extra: Record<string, unknown>) => ({
    description: `rule ${n}`,
    new_id: NEW(n),
    ...extra,
  });
  const seeded = await testCall(t, 'POST', '/fixtures', {
    zones: [
      {
        id: ZONE,
        name: 'waf-fidelity.example',
        account: ACCOUNT,
        plan: 'business',
        waf: {
          packages: [
            {
              name: 'CloudFlare',
              detection_mode: 'traditional',
              groups: [
                {
                  name: 'Specials',
                  rules: [
                    rule(1, {}), // mode default: acts as its default_mode, no override
                    rule(2, { default_mode: 'block', mode: 'block' }), // its own default: no override
                    rule(3, { default_mode: 'block', mode: 'simulate' }), // differs: log
                    rule(4, { mode: 'disable' }), // differs from the fixture default (challenge)
                  ],
                },
              ],
            },
            {
              name: 'OWASP ModSecurity Core Rule Set',
              detection_mode: 'anomaly',
              groups: [{ name: 'OWASP XSS', rules: [rule(5, {}), rule(6, { mode: 'off' })] }],
            },
          ],
        },
      },
    ],
  });
  expect(seeded.status, seeded.text).toBe(200);
});
afterAll(() => t.close());

const base = `/zones/${ZONE}/firewall/waf/packages`;

describe('previous WAF fidelity', () => {
  it('packages answer a description: the OWASP summary, and the string "null" for a traditional one', async () => {
    const pkgs = (await t.api('GET', base)).body.result as Record<string, unknown>[];
    expect(pkgs.map((p) => [p.detection_mode, p.description])).toEqual([
      ['traditional', 'null'],
      ['anomaly', 'Covers OWASP Top 10 vulnerabilities and more.'],
    ]);
  });

  it('rules carry only real default_mode values; anomaly rules have none', async () => {
    const pkgs = (await t.api('GET', base)).body.result as { id: string; detection_mode: string }[];
    for (const pkg of pkgs) {
      const rules = (await t.api('GET', `${base}/${pkg.id}/rules?per_page=100`)).body.result as Record<
        string,
        unknown
      >[];
      expect(rules.length).toBeGreaterThan(0);
      for (const r of rules) {
        if (pkg.detection_mode === 'anomaly') expect(r).not.toHaveProperty('default_mode');
        else expect(['disable', 'simulate', 'block', 'challenge']).toContain(r.default_mode);
      }
    }
  });

  it('the migration overrides exactly the rules whose mode differs from their default', async () => {
    const cfg = (await t.api('GET', `/zones/${ZONE}/waf_migration/config?phase_two=1`)).body.result;
    const overrides = cfg.rules[0].action_parameters.overrides.rules as { id: string }[];
    expect([...overrides].sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: NEW(3), action: 'log', enabled: true },
      { id: NEW(4), enabled: false },
      { id: NEW(6), enabled: false },
    ]);
  });

  it('fixtures refuse a default_mode the real API does not have, and one on an anomaly rule', async () => {
    const load = (pkg: Record<string, unknown>) =>
      startServer({
        db: ':memory:',
        quiet: true,
        fixtures: {
          accounts: [{ id: ACCOUNT, name: 'a' }],
          zones: [{ name: 'bad-waf.example', account: ACCOUNT, plan: 'pro', waf: { packages: [pkg] } }],
        },
      });
    await expect(
      load({
        name: 'CloudFlare',
        groups: [{ name: 'g', rules: [{ description: 'r', default_mode: 'default' }] }],
      }),
    ).rejects.toThrow(/default_mode: must be one of disable, simulate, block, challenge/);
    await expect(
      load({
        name: 'OWASP',
        detection_mode: 'anomaly',
        groups: [{ name: 'g', rules: [{ description: 'r', default_mode: 'on' }] }],
      }),
    ).rejects.toThrow(/anomaly rules have no default_mode/);
  });
});
