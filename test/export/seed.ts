/**
 * The live state the export tests start from, on the real local API: fixtures for what the API
 * cannot create (accounts, plans, pools with legacy e-mails, the previous WAF, records the service
 * manages itself) and API writes for the rest (records of every type, Page Shield policies, Logpush
 * jobs with nested filters and secrets in their destinations, a notification policy, one zone
 * migrated to the new WAF with an override).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { startContractProxy } from '../support/contract-proxy.js';
import { owaspPackage } from '../support/waf-packages.js';

export const ACCOUNT = 'e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0';
export const TOKEN = 'export-test-token-0123456789abcdef';
/** reaches zones and DNS only: the other kinds are refused */
export const READER_TOKEN = 'export-test-dns-reader-0123456789';
export const ZONE = 'export.example';
export const OLD_WAF = 'waf-old.example';
export const NEW_WAF = 'waf-new.example';
/** secrets inside Logpush destinations: they must never appear in an export */
export const SECRETS = {
  header: 'Xk9-Very-S3cret-Header-Value',
  r2Key: 'r2AccessKeyId0123456789',
  r2Secret: 'r2SecretAccessKey/abc+def0123456789',
};

const PACKAGES = [owaspPackage()];

export function fixtures(): Record<string, unknown> {
  return {
    accounts: [
      {
        id: ACCOUNT,
        name: 'Export Corp',
        pools: [
          { name: 'web-pool', notification_email: 'ops@example.com' },
          { name: 'api-pool', notification_email: '' },
        ],
      },
    ],
    zones: [
      {
        name: ZONE,
        account: ACCOUNT,
        plan: 'business',
        records: [
          // managed by the service itself: never exported
          { name: 'app', type: 'A', content: '192.0.2.99', locked: true, meta: { managed_by_apps: true } },
          { name: 'auto', type: 'TXT', content: 'added by the service', meta: { auto_added: true } },
        ],
      },
      {
        name: OLD_WAF,
        account: ACCOUNT,
        plan: 'pro',
        waf: { migration_state: 'default', packages: PACKAGES },
      },
      {
        name: NEW_WAF,
        account: ACCOUNT,
        plan: 'pro',
        waf: { migration_state: 'default', packages: PACKAGES },
      },
    ],
    tokens: [
      { name: 'export', value: TOKEN, zones: 'all', accounts: 'all', permissions: 'edit' },
      {
        name: 'dns-reader',
        value: READER_TOKEN,
        zones: 'all',
        accounts: [],
        permissions: { zone: 'read', dns: 'read' },
      },
    ],
  };
}

/** One record of every type the spec names (SOA excepted: only the service has it). */
export const RECORDS: Record<string, unknown>[] = [
  { name: ZONE, type: 'A', content: '192.0.2.10', proxied: true },
  {
    name: 'origin',
    type: 'A',
    content: '198.51.100.20',
    ttl: 3600,
    comment: 'the origin',
    tags: ['team:web'],
  },
  { name: 'origin', type: 'A', content: '198.51.100.21', ttl: 3600 },
  { name: ZONE, type: 'AAAA', content: '2001:db8:0:0::10', proxied: true },
  { name: 'www', type: 'CNAME', content: ZONE, proxied: true },
  { name: 'mail', type: 'A', content: '198.51.100.25' },
  { name: ZONE, type: 'MX', content: `mail.${ZONE}`, priority: 10 },
  { name: ZONE, type: 'TXT', content: 'v=spf1 mx include:_spf.example.net ~all' },
  { name: '_dmarc', type: 'TXT', content: 'v=DMARC1; p=reject' },
  { name: ZONE, type: 'CAA', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } },
  { name: '_sip._tcp', type: 'SRV', data: { priority: 10, weight: 5, port: 5060, target: `sip.${ZONE}` } },
  { name: 'svc', type: 'SVCB', data: { priority: 1, target: `svc.${ZONE}`, value: 'alpn="h2"' } },
  { name: 'www2', type: 'HTTPS', data: { priority: 1, target: '.', value: 'alpn="h3,h2"' } },
  { name: '10', type: 'PTR', content: `host.${ZONE}` },
  { name: 'sub', type: 'NS', content: 'ns1.example.net' },
  {
    name: 'sub',
    type: 'DS',
    data: { key_tag: 2371, algorithm: 13, digest_type: 2, digest: '1F987CC6583E92DF0890718C42' },
  },
  {
    name: 'keys',
    type: 'DNSKEY',
    data: { flags: 257, protocol: 3, algorithm: 13, public_key: 'mdsswUyr3DPW132mOi8V9xESWE8jTo0d' },
  },
  {
    name: '_ftp._tcp',
    type: 'URI',
    data: { weight: 1, target: 'ftp://ftp.example.com/public' },
    priority: 10,
  },
  {
    name: 'sip',
    type: 'NAPTR',
    data: {
      order: 100,
      preference: 10,
      flags: 'S',
      service: 'SIP+D2U',
      regex: '',
      replacement: `_sip._udp.${ZONE}`,
    },
  },
  {
    name: 'ssh',
    type: 'SSHFP',
    data: { algorithm: 4, type: 2, fingerprint: '123456789abcdef67890123456789abcdef67890' },
  },
  {
    name: '_443._tcp',
    type: 'TLSA',
    data: { usage: 3, selector: 1, matching_type: 1, certificate: 'abcdef0123456789' },
  },
  {
    name: 'smime',
    type: 'SMIMEA',
    data: { usage: 3, selector: 0, matching_type: 1, certificate: '0123456789abcdef' },
  },
  {
    name: 'cert',
    type: 'CERT',
    data: { type: 1, key_tag: 12345, algorithm: 8, certificate: 'MIIBIjANBgkqhkiG9w0B' },
  },
  { name: 'pgp', type: 'OPENPGPKEY', content: 'mQINBFit2ioBEADhWpZ8' },
];

export interface Seeded {
  dir: string;
  server: RunningServer;
  url: string;
  zoneIds: Record<string, string>;
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function seed(): Promise<Seeded> {
  const dir = mkdtempSync(join(tmpdir(), 'zp-export-'));
  const server = await startServer({ db: join(dir, 'api.db'), fixtures: fixtures(), quiet: true });
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const env = text
      ? (JSON.parse(text) as { success: boolean; result: T })
      : { success: res.ok, result: undefined };
    if (!env.success) throw new Error(`${method} ${path}: ${text}`);
    return env.result as T;
  };
  const zoneIds: Record<string, string> = {};
  for (const name of [ZONE, OLD_WAF, NEW_WAF]) {
    zoneIds[name] = (await api<{ id: string }[]>('GET', `/zones?name=${name}`))[0].id;
  }
  const z = zoneIds[ZONE];
  for (const r of RECORDS) await api('POST', `/zones/${z}/dns_records`, r);
  for (const name of [OLD_WAF, NEW_WAF])
    await api('POST', `/zones/${zoneIds[name]}/dns_records`, { name, type: 'A', content: '192.0.2.1' });

  await api('PUT', `/zones/${z}/page_shield`, { enabled: true });
  await api('POST', `/zones/${z}/page_shield/policies`, {
    description: 'log third-party scripts',
    action: 'log',
    expression: `http.host eq "${ZONE}"`,
    value: "script-src 'self' https://cdn.example.com",
    enabled: 'true',
  });
  await api('POST', `/zones/${z}/page_shield/policies`, {
    description: 'allow the checkout scripts',
    action: 'allow',
    expression: `http.request.uri.path contains "/checkout"`,
    value: "script-src 'self'; connect-src 'self'",
    enabled: 'false',
  });

  await api('POST', `/zones/${z}/logpush/jobs`, {
    name: 'firewall-to-collector',
    dataset: 'firewall_events',
    destination_conf: `https://collector.example.com/ingest?header_X-Api-Key=${SECRETS.header}&region=eu`,
    output_options: { field_names: ['Action', 'ClientIP', 'RuleID'], timestamp_format: 'rfc3339' },
    filter: JSON.stringify({
      where: {
        or: [
          {
            and: [
              { key: 'ClientRequestHost', operator: 'eq', value: ZONE },
              { key: 'Action', operator: 'in', value: ['block', 'challenge'] },
            ],
          },
          { key: 'ClientCountry', operator: '!eq', value: 'us' },
        ],
      },
    }),
  });
  await api('POST', `/zones/${z}/logpush/jobs`, {
    name: 'http-to-r2',
    dataset: 'http_requests',
    enabled: false,
    destination_conf:
      `r2://logs-bucket/http/{DATE}?account-id=${ACCOUNT}&access-key-id=${SECRETS.r2Key}` +
      `&secret-access-key=${encodeURIComponent(SECRETS.r2Secret)}`,
    output_options: { field_names: ['ClientIP', 'EdgeResponseStatus'], sample_rate: 0.5 },
  });

  const pools = await api<{ id: string; name: string }[]>('GET', `/accounts/${ACCOUNT}/load_balancers/pools`);
  await api('POST', `/accounts/${ACCOUNT}/alerting/v3/policies`, {
    name: 'pool health',
    alert_type: 'load_balancing_health_alert',
    enabled: true,
    filters: {
      pool_id: pools.map((p) => p.id),
      new_health: ['Unhealthy', 'Healthy'],
      event_source: ['pool', 'origin'],
    },
    mechanisms: { email: [{ id: 'ops@example.com' }, { id: 'oncall@example.com' }] },
  });

  // one zone moved to the new WAF through the API's own procedure, with one override merged in
  const n = zoneIds[NEW_WAF];
  await api('GET', `/zones/${n}/waf_migration/check?phase_two=1`);
  const config = await api<{ name?: string; rules: Record<string, any>[] }>(
    'GET',
    `/zones/${n}/waf_migration/config?phase_two=1`,
  );
  const execute = config.rules.find((r) => r.action === 'execute');
  if (execute) {
    execute.action_parameters.overrides ??= {};
    execute.action_parameters.overrides.rules = [
      ...(execute.action_parameters.overrides.rules ?? []).filter(
        (o: { id: string }) => o.id !== '5de7edfa648c4d6891dc3e7f84534ffa',
      ),
      { id: '5de7edfa648c4d6891dc3e7f84534ffa', action: 'log', enabled: true },
    ];
  }
  await api(
    'PUT',
    `/zones/${n}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=pending&phase_two=1`,
    {
      name: config.name ?? 'default',
      rules: config.rules,
    },
  );

  // the CLI's way in: a proxy checking every exchange against the published schema
  const contract = await startContractProxy(server.url);
  return {
    dir,
    server,
    url: contract.url,
    zoneIds,
    api,
    async close() {
      try {
        await contract.close();
      } finally {
        await server.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
