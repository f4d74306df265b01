// The reliability scenario shared by bench/soak, bench/crash and test/reliability: fixtures for the
// local API (what the API cannot create), a desired-state file with N DNS changes plus every other
// kind, and a checker that compares the server's stored state with the desired state record by record.
// Everything random comes from a seeded generator, so a failing seed can be replayed exactly.

// The .ts file itself: node strips its types (Node 22.18 and later, 24), vitest transforms it, and
// neither needs a build first.
import { seededRandom } from '../../src/seeded-random.ts';

export const ACCOUNT = '0123456789abcdef0123456789abcdef';
export const TOKEN = 'soak-token-0123456789abcdef';
/**
 * DNS changes go here: a Free zone, so the batch limit (200) splits them into many requests. It is
 * dated before 2024-09-01, so it holds 1,000 records (a newer Free zone holds 200): see dnsZonePlan.
 */
export const DNS_ZONE = 'dns.soak';
/** Page Shield, Logpush and the WAF migration: a business zone (migration eligible) */
export const KINDS_ZONE = 'kinds.soak';
/** A zone the desired-state file does not name: it must stay byte-identical */
export const OTHER_ZONE = 'other.soak';
/** The Logpush destination secret, read from the environment through `${env:...}` */
export const LOGPUSH_SECRET_ENV = 'SOAK_LOGPUSH_SECRET';
const WAF_RULE = '5de7edfa648c4d6891dc3e7f84534ffa';

/** The seeded generator (mulberry32) of src/seeded-random.ts, under the name the scripts use. */
export const rng = seededRandom;

const ip = (prefix, i) => `${prefix}.${Math.floor(i / 250) % 250}.${(i % 250) + 1}`;

/**
 * The DNS part: `seedRecords` are in the zone before apply, `records` are what the file asks for.
 * Of `changes`: half creates, 30% updates (new content or TTL), 20% deletes; as many records again
 * stay as they are, so the plan has to tell changed from unchanged.
 */
export function dnsScenario(changes, seed) {
  const random = rng(seed);
  const creates = Math.round(changes * 0.5);
  const updates = Math.round(changes * 0.3);
  const deletes = changes - creates - updates;
  const unchanged = Math.max(10, Math.round(changes * 0.1));
  const seedRecords = [];
  const records = [];
  for (let i = 0; i < unchanged + updates + deletes; i++) {
    const rec = { name: `h${i}`, type: 'A', content: ip('198.18', i), ttl: 3600 };
    seedRecords.push(rec);
    if (i < unchanged) records.push({ ...rec });
    else if (i < unchanged + updates)
      records.push(random() < 0.5 ? { ...rec, content: ip('198.19', i) } : { ...rec, ttl: 600 });
  }
  for (let i = 0; i < creates; i++) {
    const r = random();
    if (r < 0.8) records.push({ name: `n${i}`, type: 'A', content: ip('198.19', 60000 + i), ttl: 1 });
    else if (r < 0.9) records.push({ name: `t${i}`, type: 'TXT', content: `soak-${seed}-${i}`, ttl: 1 });
    else records.push({ name: `c${i}`, type: 'CNAME', content: `h${i % unchanged}.${DNS_ZONE}`, ttl: 1 });
  }
  return { seedRecords, records };
}

/** Records the file leaves alone through `ignore:` (they exist only in the fixtures). */
export const IGNORED = [
  { name: '_acme-challenge', type: 'TXT', content: 'ignored-token-one' },
  { name: '_acme-challenge.www', type: 'TXT', content: 'ignored-token-two' },
];

/** Records an older Free zone holds (docs/kinds/dns.md, "Comments, tags and plan limits"). */
export const OLDER_FREE_QUOTA = 1000;

/**
 * The plan (and creation date) of DNS_ZONE for a zone that holds at most `count` records, the ignored
 * ones included: a Free zone created before 2024-09-01 (1,000 records, batches of 200) when they fit,
 * so the changes go in several batches on both sides' limits; else Pro (3,500 records, but batches
 * of 3,500: one batch), else Enterprise. The planner reads the same plan and date from the zone.
 */
export function dnsZonePlan(count) {
  if (count <= OLDER_FREE_QUOTA) return { plan: 'free', created_on: '2023-05-01T00:00:00Z' };
  return count <= 3500 ? { plan: 'pro' } : { plan: 'enterprise' };
}

/**
 * The fixtures document (JSON is YAML, so it can be written to a .yaml file as is). `records`, when
 * given, is the desired state: the DNS zone's plan holds the larger of it and the seed records.
 */
export function fixtures({ seedRecords, records = [], pools = 30 }) {
  const most = Math.max(seedRecords.length, records.length) + IGNORED.length;
  return {
    accounts: [
      {
        id: ACCOUNT,
        name: 'Soak',
        pools: Array.from({ length: pools }, (_, i) => ({
          name: `pool-${String(i).padStart(3, '0')}`,
          notification_email: 'ops@soak.example',
        })),
      },
    ],
    zones: [
      { name: DNS_ZONE, account: ACCOUNT, ...dnsZonePlan(most), records: [...seedRecords, ...IGNORED] },
      {
        name: KINDS_ZONE,
        account: ACCOUNT,
        plan: 'business',
        records: [{ name: '@', type: 'A', content: '192.0.2.10', proxied: true }],
        page_shield: { enabled: false },
        waf: {
          migration_state: 'default',
          firewall_rules: 3,
          packages: [
            {
              name: 'Cloudflare Managed Ruleset',
              detection_mode: 'traditional',
              groups: [
                {
                  name: 'Specials',
                  mode: 'on',
                  rules: [{ id: '100000000000000000000000000000a1', mode: 'block', new_id: WAF_RULE }],
                },
              ],
            },
          ],
        },
      },
      {
        name: OTHER_ZONE,
        account: ACCOUNT,
        plan: 'free',
        records: Array.from({ length: 12 }, (_, i) => ({
          name: `o${i}`,
          type: 'A',
          content: ip('203.0', i),
          ttl: 300,
        })),
      },
    ],
    tokens: [{ name: 'soak', value: TOKEN, zones: 'all', accounts: 'all', permissions: 'edit' }],
  };
}

const flow = (o) => JSON.stringify(o);

/** Variant n of the other kinds renames their objects, so each variant replaces the previous one's. */
const suffixes = (variant) => (variant ? { sp: ` v${variant}`, dash: `-v${variant}` } : { sp: '', dash: '' });

/**
 * The desired-state file: the DNS records, and (unless `dnsOnly`) every other kind; `variant` renames
 * the Page Shield policies, Logpush jobs and notification policy (creates and deletes in every kind).
 */
export function desiredYaml(records, { dnsOnly = false, variant = 0 } = {}) {
  const { sp, dash } = suffixes(variant);
  const lines = [
    'version: 1',
    'zones:',
    `  - name: ${DNS_ZONE}`,
    `    account: ${ACCOUNT}`,
    '    dns:',
    '      purge: true',
    `      ignore: [{ name: '_acme-challenge*', type: TXT }]`,
    '      records:',
    ...records.map((r) => `        - ${flow(r)}`),
  ];
  if (!dnsOnly) {
    lines.push(
      `  - name: ${KINDS_ZONE}`,
      `    account: ${ACCOUNT}`,
      '    dns:',
      '      records:',
      `        - { name: '@', type: A, content: 192.0.2.10, proxied: true }`,
      `        - { name: www, type: CNAME, content: ${KINDS_ZONE}, proxied: true }`,
      '    page_shield:',
      '      enabled: true',
      '      policies:',
      `        - description: log third-party scripts${sp}`,
      '          action: log',
      `          expression: http.host eq "${KINDS_ZONE}"`,
      `          value: script-src 'self' https://cdn.${KINDS_ZONE}`,
      `        - description: checkout allow-list${sp}`,
      '          action: allow',
      `          expression: http.host eq "${KINDS_ZONE}"`,
      `          value: script-src 'self'`,
      '    logpush:',
      '      jobs:',
      `        - name: http-to-collector${dash}`,
      '          dataset: http_requests',
      `          destination_conf: https://collector.${KINDS_ZONE}/ingest?header_Authorization=Bearer%20\${env:${LOGPUSH_SECRET_ENV}}`,
      '          output_options: { field_names: [ClientIP, EdgeResponseStatus], timestamp_format: rfc3339 }',
      `          filter: { where: { and: [{ key: ClientRequestHost, operator: eq, value: ${KINDS_ZONE} }] } }`,
      `        - name: firewall-to-collector${dash}`,
      '          dataset: firewall_events',
      `          destination_conf: https://collector.${KINDS_ZONE}/firewall`,
      '          output_options: { field_names: [Action, ClientIP] }',
      '    waf:',
      '      managed_rules: new',
      '      migration: { mode: pending }',
      `      overrides: [{ id: ${WAF_RULE}, action: log }]`,
      'accounts:',
      `  - id: ${ACCOUNT}`,
      '    load_balancing:',
      '      legacy_pool_emails: remove',
      '      purge: true',
      '      notifications:',
      `        - name: pool health${sp}`,
      '          alert_type: load_balancing_health_alert',
      '          pools: all',
      '          new_health: [Unhealthy, Healthy]',
      '          event_source: [pool, origin]',
      '          email: [ops@soak.example]',
    );
  }
  return lines.join('\n') + '\n';
}

/**
 * A small API reader for the checks, throwing on a failed envelope. It retries 429 and 5xx itself
 * (the server may be running with faults), so a check never fails because of an injected fault.
 */
export function reader(url, token) {
  return async function get(path) {
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(url + path, { headers: { authorization: `Bearer ${token}` } });
      const text = await res.text();
      if ((res.status === 429 || res.status >= 500) && attempt < 50) {
        await new Promise((r) => setTimeout(r, res.status === 429 ? 1000 : 20));
        continue;
      }
      const body = JSON.parse(text);
      if (!body.success) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(body.errors)}`);
      return body.result;
    }
  };
}

export async function zoneId(get, name) {
  const zones = await get(`/zones?name=${name}`);
  if (zones.length !== 1) throw new Error(`zone ${name}: ${zones.length} found`);
  return zones[0].id;
}

/** Every record of a zone, as the API stores it, in a stable order (for byte-identical checks). */
export async function zoneRecords(get, name) {
  const id = await zoneId(get, name);
  const all = await get(`/zones/${id}/dns_records?per_page=5000000`);
  return all.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

const fqdn = (name, zone) => (name === '@' ? zone : `${name}.${zone}`).toLowerCase();
const unquote = (s) => (/^".*"$/.test(s) ? s.slice(1, -1) : s);
const key = (r) => `${r.name} ${r.type} ${r.type === 'TXT' ? unquote(r.content) : r.content.toLowerCase()}`;

/**
 * Compares the DNS zone with the desired records (plus the ignored ones) record by record: same
 * identities, no duplicates, and the same TTL and proxied status. Returns the differences (empty
 * when equal), each naming the record.
 */
export async function dnsDifferences(get, records) {
  const live = (await zoneRecords(get, DNS_ZONE)).filter(
    (r) => r.type !== 'SOA' && !(r.type === 'NS' && r.name === DNS_ZONE),
  );
  const want = new Map();
  for (const r of [...records, ...IGNORED]) {
    const n = { ...r, name: fqdn(r.name, DNS_ZONE), ttl: r.ttl ?? 1, proxied: r.proxied ?? false };
    want.set(key(n), n);
  }
  const problems = [];
  const seen = new Set();
  for (const r of live) {
    const k = key(r);
    if (seen.has(k)) problems.push(`duplicate: ${k}`);
    seen.add(k);
    const w = want.get(k);
    if (!w) problems.push(`not in the desired state: ${k}`);
    else if (w.ttl !== r.ttl || w.proxied !== r.proxied)
      problems.push(`${k}: ttl/proxied ${r.ttl}/${r.proxied}, desired ${w.ttl}/${w.proxied}`);
  }
  for (const k of want.keys()) if (!seen.has(k)) problems.push(`missing: ${k}`);
  return problems;
}

/** The other kinds: Page Shield, Logpush, the WAF migration, pools and the notification policy. */
export async function kindDifferences(get, variant = 0) {
  const { sp, dash } = suffixes(variant);
  const problems = [];
  const id = await zoneId(get, KINDS_ZONE);
  const ps = await get(`/zones/${id}/page_shield`);
  if (ps.enabled !== true) problems.push('page_shield: not enabled');
  const policies = (await get(`/zones/${id}/page_shield/policies`)).map((p) => p.description).sort();
  if (flow(policies) !== flow([`checkout allow-list${sp}`, `log third-party scripts${sp}`]))
    problems.push(`page_shield policies: ${flow(policies)}`);
  const jobs = (await get(`/zones/${id}/logpush/jobs`)).map((j) => j.name).sort();
  if (flow(jobs) !== flow([`firewall-to-collector${dash}`, `http-to-collector${dash}`]))
    problems.push(`logpush jobs: ${flow(jobs)}`);
  const waf = await get(`/zones/${id}/waf_migration/status`);
  if (waf.migration_state !== 'complete') problems.push(`waf: migration_state ${waf.migration_state}`);
  const pools = await get(`/accounts/${ACCOUNT}/load_balancers/pools`);
  const withEmail = pools.filter((p) => p.notification_email);
  if (withEmail.length > 0) problems.push(`pools: ${withEmail.length} still have a legacy e-mail`);
  const alerting = (await get(`/accounts/${ACCOUNT}/alerting/v3/policies`)).map((p) => p.name);
  if (flow(alerting) !== flow([`pool health${sp}`]))
    problems.push(`notification policies: ${flow(alerting)}`);
  return problems;
}
