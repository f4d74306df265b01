/**
 * The world of the drift property test (drift-property.test.ts): fixtures for what the API cannot
 * create (accounts with pools, paid zones that have completed the WAF migration, zones the file never
 * names) and a seeded desired state in which every zone manages every zone-level kind and every
 * account its load-balancing notifications. Half the owners purge, half do not, so the same edit (an
 * added object) is drift in one and must be silence in the other. Deterministic: the same seed gives
 * the same file.
 */
import { generateRecords } from '../convergence/spellings.js';
import { rng } from '../support/dns-entries.js';

export const TOKEN = 'zp-drift-token-5e2c9a1b7d3f4e6a8b0c';
export const ZONE_COUNT = 104;
export const ACCOUNT_COUNT = 6;
/** zones in the fixtures that no file names: an edit there must never show */
export const STRANGER_ZONES = ['stranger-1.example', 'stranger-2.example'];
/** the managed rule the files override, and one they never name */
export const WAF_RULE = '5de7edfa648c4d6891dc3e7f84534ffa';
export const WAF_OTHER_RULE = 'e3a567afc347477d9702d9047e97d760';
export const POOLS = ['pool-a', 'pool-b', 'pool-c'];

/** the owner the file names on every fourth zone, and the one whose objects it must leave alone */
export const OWNER = 'drift';
export const OTHER_OWNER = 'other';
const isOwnerZone = (i: number) => i % 4 === 3;

export const accountId = (a: number) => `${'d'.repeat(30)}${String(a).padStart(2, '0')}`;
export const zoneName = (i: number) => `drift-${String(i).padStart(3, '0')}.example`;
export const accountOfZone = (i: number) => i % ACCOUNT_COUNT;

type Entry = Record<string, unknown>;

export interface ZoneWorld {
  name: string;
  seed: number;
  dnsPurge: boolean;
  records: Entry[];
  pageShieldPurge: boolean;
  /** the file sets the Page Shield switch */
  pageShieldEnabled?: boolean;
  policies: Entry[];
  logpushPurge: boolean;
  jobs: Entry[];
  /** the file's WAF overrides (only `action`, or `action` and `enabled`) */
  wafOverrides: Entry[];
  /**
   * the entry's `owner` (every fourth zone): everything purges, yet only objects with this owner's
   * marker; another owner's objects and unmarked ones are never drift (docs/sharing-a-zone.md)
   */
  owner?: string;
}

export interface AccountWorld {
  id: string;
  purge: boolean;
  notifications: Entry[];
}

export function zoneWorld(i: number, baseSeed: number): ZoneWorld {
  const seed = baseSeed + i;
  const r = rng(seed);
  const name = zoneName(i);
  const policies: Entry[] = [
    {
      description: 'log third-party scripts',
      action: 'log',
      expression: `http.host eq "${name}"`,
      value: "script-src 'self' https://cdn.example.net",
    },
    {
      description: 'checkout allow-list',
      action: 'allow',
      expression: `http.host in {"${name}" "www.${name}"}`,
      value: "script-src 'self'",
      enabled: r.chance(0.5),
    },
  ];
  const jobs: Entry[] = [
    {
      name: 'http-to-collector',
      dataset: 'http_requests',
      destination_conf: `https://collector.example.net/http?tag=${name}`,
      output_options: { field_names: ['ClientIP', 'EdgeResponseStatus'] },
      filter: { where: { and: [{ key: 'ClientRequestHost', operator: 'eq', value: name }] } },
    },
    {
      name: 'firewall-to-collector',
      dataset: 'firewall_events',
      destination_conf: `https://collector.example.net/firewall?tag=${name}`,
      enabled: true,
      ...(r.chance(0.5) ? { max_upload_records: 5000 } : {}),
    },
  ];
  return {
    name,
    seed,
    dnsPurge: i % 2 === 0 || isOwnerZone(i),
    records: generateRecords(seed, name, 1),
    pageShieldPurge: i % 3 === 0 || isOwnerZone(i),
    ...(r.chance(0.5) ? { pageShieldEnabled: true } : {}),
    policies,
    logpushPurge: i % 2 === 1 || isOwnerZone(i),
    ...(isOwnerZone(i) ? { owner: OWNER } : {}),
    jobs,
    wafOverrides: [
      { id: WAF_RULE, action: r.pick(['log', 'block']), ...(r.chance(0.5) ? { enabled: true } : {}) },
    ],
  };
}

export function accountWorld(a: number): AccountWorld {
  return {
    id: accountId(a),
    purge: a % 2 === 0,
    notifications: [
      {
        name: 'pool health',
        description: 'every pool, both directions',
        alert_type: 'load_balancing_health_alert',
        pools: 'all',
        new_health: ['Unhealthy', 'Healthy'],
        event_source: ['pool', 'origin'],
        email: ['ops@example.com'],
      },
      {
        name: 'pool a down',
        alert_type: 'load_balancing_health_alert',
        pools: ['pool-a'],
        new_health: ['Unhealthy'],
        event_source: ['pool'],
        email: ['oncall@example.com', 'noc@example.com'],
      },
    ],
  };
}

export function fixtures(zones: ZoneWorld[]): Record<string, unknown> {
  return {
    accounts: Array.from({ length: ACCOUNT_COUNT }, (_, a) => ({
      id: accountId(a),
      name: `Drift ${a}`,
      pools: POOLS.map((name) => ({ name, notification_email: '' })),
    })),
    zones: [
      ...zones.map((z, i) => ({
        name: z.name,
        account: accountId(accountOfZone(i)),
        plan: 'pro',
        waf: { migration_state: 'complete' },
      })),
      ...STRANGER_ZONES.map((name) => ({ name, account: accountId(0), plan: 'pro' })),
    ],
    tokens: [{ value: TOKEN, zones: 'all', accounts: 'all', permissions: 'edit' }],
  };
}

/** The desired-state file (JSON) of every zone and account. */
export function desiredFile(zones: ZoneWorld[], accounts: AccountWorld[]): string {
  return JSON.stringify(
    {
      version: 1,
      accounts: accounts.map((a) => ({
        id: a.id,
        load_balancing: { purge: a.purge, notifications: a.notifications },
      })),
      zones: zones.map((z, i) => ({
        name: z.name,
        account: accountId(accountOfZone(i)),
        ...(z.owner !== undefined ? { owner: z.owner } : {}),
        dns: {
          purge: z.dnsPurge,
          // the ignored names hold live records the file must never report, purge or not
          ...(z.dnsPurge ? { ignore: [{ name: 'ignored-*' }] } : {}),
          records: z.records,
        },
        page_shield: {
          ...(z.pageShieldEnabled !== undefined ? { enabled: z.pageShieldEnabled } : {}),
          purge: z.pageShieldPurge,
          policies: z.policies,
        },
        logpush: { purge: z.logpushPurge, jobs: z.jobs },
        waf: { managed_rules: 'new', migration: { mode: 'pending' }, overrides: z.wafOverrides },
      })),
    },
    null,
    1,
  );
}
