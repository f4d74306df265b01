/**
 * The waf kind's share of a fixtures copy (src/kinds/waf/fixtures.ts), without a server: the new
 * rule ids of the previous rules are paired with the equivalent configuration the plan read, and a
 * configuration that does not pair (another target's mapping) is copied as it is, so the copy
 * answers it byte for byte; the local API then serves that configuration.
 */
import { describe, expect, it } from 'vitest';
import { wafFixtures } from '../../../src/kinds/waf/fixtures.js';
import { startServer } from '../../../src/server/index.js';

const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const ZONE = '0000000000000000000000000000a001';
const owner = { scope: 'zone' as const, name: 'prev.example', id: ZONE };

const rules = [
  {
    id: '100000000000000000000000000000a1',
    description: 'SQLi',
    mode: 'block',
    default_mode: 'challenge',
    group: { id: '00000000000000000000000000000b91' },
  },
  {
    id: '100000000000000000000000000000a2',
    description: 'RCE',
    mode: 'default',
    default_mode: 'challenge',
    group: { id: '00000000000000000000000000000b91' },
  },
];
const live = (overrideRules: unknown[]) => ({
  status: { migration_state: 'start', old_waf_status: 'enabled', new_waf_status: 'disabled' },
  uriOverrides: [],
  config: {
    rules: [
      {
        id: '',
        version: '',
        ref: '',
        action: 'execute',
        expression: 'true',
        description: 'Execute the Cloudflare Managed Ruleset',
        enabled: true,
        action_parameters: { id: MANAGED, overrides: { rules: overrideRules } },
      },
    ],
    name: 'default',
  },
  packages: [
    {
      pkg: {
        id: '00000000000000000000000000000f01',
        name: 'Cloudflare Managed Ruleset',
        detection_mode: 'traditional',
      },
      groups: [{ id: '00000000000000000000000000000b91', name: 'Specials', mode: 'on' }],
      rules,
    },
  ],
});

describe('waf fixtures', () => {
  it('gives each carried-over rule the id of its override in the configuration', () => {
    const w = wafFixtures.entry(
      live([{ id: '5de7edfa648c4d6891dc3e7f84534ffa', action: 'block', enabled: true }]),
      owner,
    ).fields!.waf as {
      packages: { groups: { rules: { id: string; new_id?: string }[] }[] }[];
      migration_config?: unknown;
    };
    expect(w.packages[0].groups[0].rules.map((r) => r.new_id)).toEqual([
      '5de7edfa648c4d6891dc3e7f84534ffa',
      undefined,
    ]);
    expect(w.migration_config).toBeUndefined();
  });

  it('copies a configuration that does not pair with the rules, and the local API answers it', async () => {
    const other = [{ id: '5de7edfa648c4d6891dc3e7f84534ffa', action: 'log', enabled: true }];
    const w = wafFixtures.entry(live(other), owner).fields!.waf as Record<string, unknown>;
    expect(w.migration_config).toEqual(live(other).config);
    const server = await startServer({
      db: ':memory:',
      quiet: true,
      fixtures: {
        accounts: [{ id: '0123456789abcdef0123456789abcdef', name: 'A' }],
        zones: [{ name: 'prev.example', id: ZONE, plan: 'pro', waf: w }],
      },
    });
    try {
      const res = await fetch(`${server.url}/zones/${ZONE}/waf_migration/config?phase_two=1`, {
        headers: { authorization: `Bearer ${server.devToken}` },
      });
      expect(((await res.json()) as { result: unknown }).result).toEqual(live(other).config);
    } finally {
      await server.close();
    }
  });
});
