/**
 * `export --as fixtures` makes a faithful copy of live state: serve the exported file, plan the same
 * desired file against the original and the copy, and the steps are the same (ids, fingerprints).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, cliAt, writeYaml, type ApiRecord, type Bed } from '../cli-reconcile/helpers.js';
import { APEX_A, WWW_CNAME, exportCopy, bedsClosedAfterEach, productionFixtures } from './bed.js';

const ZONE_ID = '023e105f4ecef8ad9ca31a8372d0c353';

const SERVICE_MANAGED = [
  { id: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb01', name: '@', type: 'NS', content: 'ns1.example.net' },
  {
    id: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb02',
    name: 'app',
    type: 'A',
    content: '192.0.2.20',
    locked: true,
    meta: { managed_by_apps: true, source: 'primary' },
  },
  {
    id: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb03',
    name: 'tunnel',
    type: 'CNAME',
    content: 'abc.cfargotunnel.com',
    proxied: true,
    meta: { managed_by_argo_tunnel: true },
  },
  {
    id: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb04',
    name: '_acme-challenge',
    type: 'TXT',
    content: '"token"',
    meta: { auto_added: true },
  },
];

const PRODUCTION = productionFixtures({
  id: ZONE_ID,
  created_on: '2023-05-01T00:00:00.000Z',
  records: [
    APEX_A,
    WWW_CNAME,
    {
      id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa03',
      name: '@',
      type: 'MX',
      content: 'mx1.example.net',
      priority: 10,
      ttl: 3600,
    },
    {
      id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa04',
      name: '@',
      type: 'TXT',
      content: '"v=spf1 -all"',
      comment: 'spf',
      tags: ['team:mail'],
    },
    { id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa05', name: 'old', type: 'A', content: '192.0.2.99', ttl: 120 },
    {
      id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa06',
      name: '_sip._tcp',
      type: 'SRV',
      data: { priority: 1, weight: 5, port: 5060, target: 'sip.example.com' },
    },
    // records the service manages itself: no plan sees them, the copy holds them all the same
    ...SERVICE_MANAGED,
  ],
});

const DESIRED = `version: 1
zones:
  - name: example.com
    dns:
      purge: true
      records:
        - { name: '@', type: A, content: 192.0.2.10, proxied: true }
        - { name: www, type: CNAME, content: example.com, ttl: 600 }
        - { name: '@', type: MX, content: mx1.example.net, priority: 10, ttl: 3600 }
        - { name: '@', type: TXT, content: '"v=spf1 -all"', comment: spf, tags: ['team:mail'] }
        - { name: new, type: AAAA, content: '2001:db8::1' }
`;

/** The plan's steps without what names the target. */
function steps(stdout: string): unknown {
  const plan = JSON.parse(stdout) as Record<string, unknown>;
  return plan.steps;
}

const startProduction = bedsClosedAfterEach();

describe('export --as fixtures', () => {
  it('serving the export plans exactly like the original target', async () => {
    const prod = await startProduction({ fixtures: PRODUCTION });
    const desired = writeYaml(prod.dir, 'zones.yaml', DESIRED);
    const exp = await exportCopy(prod);
    expect(exp.stderr).toContain('1 account(s), 1 zone(s)');
    expect(exp.code).toBe(0);
    const copy = JSON.parse(readFileSync(join(prod.dir, 'copy.json'), 'utf8')) as {
      zones: { id: string; plan: string; created_on: string; records: { id: string }[] }[];
    };
    expect(copy.zones[0].id).toBe(ZONE_ID);
    expect(copy.zones[0].plan).toBe('enterprise');
    // a Free zone's record quota depends on when it was made: the copy keeps the date
    expect(copy.zones[0].created_on).toBe('2023-05-01T00:00:00.000Z');
    expect(copy.zones[0].records.map((r) => r.id)).toContain('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa05');
    const app = copy.zones[0].records.find((r) => r.id === 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb02');
    expect(app).toMatchObject({ locked: true, meta: { managed_by_apps: true, source: 'primary' } });

    const sandbox = await startProduction({
      fixtures: join(prod.dir, 'copy.json') as unknown as Record<string, unknown>,
    });
    // the service-managed records, same ids, same marks, as the API serves them
    const served = (bed: Bed) =>
      api<(ApiRecord & { locked?: boolean })[]>(
        bed,
        'GET',
        `/zones/${ZONE_ID}/dns_records?per_page=100`,
      ).then((rs) =>
        rs
          .filter((r) => SERVICE_MANAGED.some((x) => x.id === r.id))
          .map(({ id, name, type, content, proxied, locked, meta }) => ({
            id,
            name,
            type,
            content,
            proxied,
            locked,
            meta,
          }))
          .sort((x, y) => x.id.localeCompare(y.id)),
      );
    const original = await served(prod);
    expect(original.map((r) => r.id)).toEqual(SERVICE_MANAGED.map((r) => r.id));
    expect(await served(sandbox)).toEqual(original);

    const exchanges = (bed: Bed) => bed.contract.exchanges.length;
    const [pa, sb] = [exchanges(prod), exchanges(sandbox)];
    const a = await cliAt(prod, ['plan', desired, '--format', 'json']);
    if (!a.stdout) throw new Error(a.stderr);
    const b = await cliAt(sandbox, ['plan', desired, '--format', 'json']);
    // no request more for the records set aside: one list read on both
    expect(exchanges(sandbox) - sb).toBe(exchanges(prod) - pa);
    expect(a.stderr).toBe(b.stderr.replaceAll(sandbox.contract.url, prod.contract.url));
    const sa = steps(a.stdout) as unknown[];
    expect(sa.length).toBeGreaterThanOrEqual(4); // update www, delete old and the SRV, create new
    expect(steps(b.stdout)).toEqual(sa);
  });

  it('refuses --kinds and an unknown format', async () => {
    const prod = await startProduction({ fixtures: PRODUCTION });
    const r1 = await cliAt(prod, ['export', '--as', 'fixtures', '--zone', 'example.com', '--kinds', 'dns']);
    expect(r1.code).not.toBe(0);
    expect(r1.stderr).toContain('--kinds does not go with --as fixtures');
    const r2 = await cliAt(prod, ['export', '--as', 'terraform', '--zone', 'example.com']);
    expect(r2.stderr).toContain('--as terraform: expected desired or fixtures');
  });
});
