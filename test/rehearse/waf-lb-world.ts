/**
 * A production stand-in with WAF and load-balancing state for the rehearsal tests: a zone on the
 * previous WAF (packages, groups, rules, a URI-based override), an Enterprise zone in validation
 * and a migrated zone (both with an entry point ruleset), and an account with pools (legacy e-mails)
 * and notification policies; plus a desired file that changes every one of them.
 */
import { ACCOUNT } from '../cli-reconcile/helpers.js';

export const ZONES = {
  prev: '0000000000000000000000000000a001',
  val: '0000000000000000000000000000a002',
  done: '0000000000000000000000000000a003',
  many: '0000000000000000000000000000a004',
};
export const POOLS = { web: '0000000000000000000000000000b001', api: '0000000000000000000000000000b002' };
export const POLICIES = {
  health: '11111111-1111-4111-8111-111111111111',
  old: '22222222-2222-4222-8222-222222222222',
};
export const URI_OVERRIDE = '0000000000000000000000000000c001';
/** new rules of the Cloudflare Managed Ruleset (ids the file overrides) */
export const NEW_RULE = '5de7edfa648c4d6891dc3e7f84534ffa';
export const OTHER_RULE = 'e3a567afc347477d9702d9047e97d760';
const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';

/** The managed phase entry point as a zone has it after its migration (ids, versions, refs). */
function entrypoint(n: string, overrides: unknown[]) {
  return {
    id: `00000000000000000000000000000e0${n}`,
    name: 'default',
    description: 'managed rules',
    version: '3',
    last_updated: '2026-01-02T03:04:05.123456Z',
    rules: [
      {
        id: `00000000000000000000000000000d0${n}`,
        version: '2',
        ref: `00000000000000000000000000000d0${n}`,
        last_updated: '2026-01-02T03:04:05.123456Z',
        action: 'execute',
        expression: 'true',
        description: 'Execute the Cloudflare Managed Ruleset',
        enabled: true,
        action_parameters:
          overrides.length > 0 ? { id: MANAGED, overrides: { rules: overrides } } : { id: MANAGED },
      },
    ],
  };
}

export const PRODUCTION = {
  accounts: [
    {
      id: ACCOUNT,
      name: 'Example Corp',
      pools: [
        {
          id: POOLS.web,
          name: 'web',
          notification_email: 'ops@example.com',
          origins: [{ name: 'w1', address: '192.0.2.20', enabled: true, weight: 1 }],
        },
        {
          id: POOLS.api,
          name: 'api',
          notification_email: 'noc@example.com',
          notification_filter: { origin: { disable: true } },
        },
      ],
      notification_policies: [
        {
          id: POLICIES.health,
          name: 'pool health',
          alert_type: 'load_balancing_health_alert',
          enabled: true,
          mechanisms: { email: [{ id: 'ops@example.com' }] },
          filters: { pool_id: [POOLS.web] },
          created: '2026-01-01T00:00:00.000001Z',
        },
        {
          id: POLICIES.old,
          name: 'old',
          alert_type: 'load_balancing_health_alert',
          enabled: true,
          mechanisms: { email: [{ id: 'old@example.com' }] },
          created: '2026-01-01T00:00:00.000002Z',
        },
      ],
    },
  ],
  zones: [
    {
      name: 'prev.example',
      id: ZONES.prev,
      account: ACCOUNT,
      plan: 'pro',
      waf: {
        firewall_rules: 12,
        longest_firewall_expression: 180,
        packages: [
          {
            id: '00000000000000000000000000000f01',
            name: 'Cloudflare Managed Ruleset',
            detection_mode: 'traditional',
            groups: [
              {
                name: 'Specials',
                mode: 'on',
                rules: [
                  {
                    id: '100000000000000000000000000000a1',
                    description: 'SQLi',
                    mode: 'block',
                    new_id: NEW_RULE,
                  },
                  { id: '100000000000000000000000000000a2', description: 'XSS', mode: 'disable' },
                  { id: '100000000000000000000000000000a3', description: 'RCE' },
                ],
              },
              {
                name: 'Drupal',
                mode: 'off',
                rules: [{ id: '100000000000000000000000000000a4', description: 'D1' }],
              },
            ],
          },
          {
            name: 'OWASP ModSecurity Core Rule Set',
            detection_mode: 'anomaly',
            sensitivity: 'medium',
            action_mode: 'challenge',
            groups: [{ name: 'OWASP', rules: [{ description: 'anomaly 1', mode: 'off' }] }],
          },
        ],
        overrides: [
          {
            id: URI_OVERRIDE,
            urls: ['prev.example/admin/*'],
            rules: { '100000000000000000000000000000a1': 'disable' },
            description: 'admin pages',
          },
        ],
      },
    },
    {
      name: 'val.example',
      id: ZONES.val,
      account: ACCOUNT,
      plan: 'enterprise',
      waf: {
        migration_state: 'validation',
        firewall_rules: 3,
        entrypoint: entrypoint('2', [{ id: OTHER_RULE, action: 'log' }]),
      },
    },
    {
      name: 'done.example',
      id: ZONES.done,
      account: ACCOUNT,
      plan: 'business',
      waf: { migration_state: 'complete', entrypoint: entrypoint('3', []) },
    },
    {
      // support-only blockers: the local API states them in the compatibility check only
      name: 'many.example',
      id: ZONES.many,
      account: ACCOUNT,
      plan: 'pro',
      waf: { firewall_rules: 250, longest_firewall_expression: 5000 },
    },
  ],
};

/** Changes every part: a migration with the override deleted, overrides in place, the e-mails moved. */
export const DESIRED = `version: 1
zones:
  - name: prev.example
    waf:
      managed_rules: new
      delete_uri_overrides: true
      overrides:
        - { id: ${NEW_RULE}, action: log }
  - name: val.example
    waf:
      managed_rules: new
      migration: { mode: validation }
      overrides:
        - { id: ${NEW_RULE}, action: block }
  - name: done.example
    waf:
      managed_rules: new
      overrides:
        - { id: ${OTHER_RULE}, enabled: false }
  - name: many.example
    waf: { managed_rules: previous }
accounts:
  - id: ${ACCOUNT}
    load_balancing:
      legacy_pool_emails: remove
      purge: true
      notifications:
        - name: pool health
          alert_type: load_balancing_health_alert
          pools: all
          email: [ops@example.com, noc@example.com]
`;

export const SELECTION = [
  '--zone',
  'prev.example',
  '--zone',
  'val.example',
  '--zone',
  'done.example',
  '--zone',
  'many.example',
  '--account',
  ACCOUNT,
];
