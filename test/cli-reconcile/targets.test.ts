/**
 * Targets the local API cannot play by itself, through a real proxy in front of it: one without the
 * DNS batch endpoint (apply falls back to one call per record), and one that applies a batch but
 * drops the reply (the outcome is unknown: apply re-reads, finds the records, creates nothing twice),
 * and one that stores something other than it was sent (the read-back says so, and blames no 4xx).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { api, cli, startBed, writeYaml, zoneFile, zoneRecords, type Bed } from './helpers.js';
import { startProxy, type Proxy } from './proxy.js';

const ZONE = 'proxied.example';
const records = [
  "{ name: '@', type: A, content: 192.0.2.10 }",
  '{ name: www, type: CNAME, content: www.example.net }',
  "{ name: '@', type: TXT, content: 'v=spf1 -all' }",
];
let bed: Bed | undefined;
let proxy: Proxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await bed?.close();
  bed = proxy = undefined;
});

const via = (args: string[]) =>
  cli([...args, '--api-url', proxy!.url], { cwd: bed!.dir, env: { CLOUDFLARE_API_TOKEN: bed!.token } });

describe('targets', () => {
  it('without a batch endpoint, apply writes one record per call and converges', async () => {
    bed = await startBed();
    proxy = await startProxy(bed.server.url, 'no-batch');
    const file = writeYaml(bed.dir, 'zones.yaml', zoneFile(ZONE, records));
    const applied = await via(['apply', file, '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    const writes = proxy.seen.filter(
      (l) => l.startsWith('POST /client/v4/zones/') && l.includes('dns_records'),
    );
    expect(writes.filter((l) => l.endsWith('/batch'))).toHaveLength(1);
    expect(writes.filter((l) => l.endsWith('/dns_records'))).toHaveLength(3);
    expect(await zoneRecords(bed, ZONE)).toHaveLength(3);
    expect((await via(['plan', file, '--detailed-exitcode'])).code).toBe(0);
  });

  it('a batch whose reply is lost is resolved by a re-read, never sent twice', async () => {
    bed = await startBed();
    proxy = await startProxy(bed.server.url, 'drop-first-batch-reply');
    const file = writeYaml(bed.dir, 'zones.yaml', zoneFile(ZONE, records));
    const applied = await via(['apply', file, '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('resolved by re-reading (outcome was unknown)');
    expect(proxy.seen.filter((l) => l.endsWith('/batch'))).toHaveLength(1);
    expect(await zoneRecords(bed, ZONE)).toHaveLength(3);
    expect((await via(['plan', file, '--detailed-exitcode'])).code).toBe(0);
  });

  it('a write stored otherwise than sent fails the read-back, which says so and blames no refusal', async () => {
    bed = await startBed();
    proxy = await startProxy(bed.server.url, 'flip-page-shield-switch');
    const file = writeYaml(
      bed.dir,
      'zones.yaml',
      zoneFile(ZONE, records.slice(0, 1)) + '\n    page_shield: { enabled: true }\n',
    );
    const applied = await via(['apply', file, '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(1);
    expect(applied.stdout).toContain('read-back: ');
    expect(applied.stderr).toContain(
      'every step ran, but the read-back found 1 difference (above): the API stored something other than the plan promised',
    );
    expect(applied.stderr).toContain('run plan again to see what is live');
    expect(applied.stderr).not.toContain('refused');
    const [zone] = await api<{ id: string }[]>(bed, 'GET', `/zones?name=${ZONE}`);
    const stored = await api<{ enabled: boolean }>(bed, 'GET', `/zones/${zone!.id}/page_shield`);
    expect(stored.enabled).toBe(false);
  });
});

describe('zones', () => {
  it('a zone is deleted only with `delete: true`, and only with --allow-irreversible', async () => {
    bed = await startBed();
    proxy = await startProxy(bed.server.url, 'no-batch');
    const file = writeYaml(bed.dir, 'zones.yaml', zoneFile(ZONE, records.slice(0, 1)));
    expect((await via(['apply', file, '--auto-approve'])).code).toBe(0);
    // leaving the zone out of the file does not delete it
    writeYaml(bed.dir, 'zones.yaml', 'version: 1\nzones: []\n');
    expect((await via(['plan', file, '--detailed-exitcode'])).code).toBe(0);

    writeYaml(bed.dir, 'zones.yaml', `version: 1\nzones:\n  - name: ${ZONE}\n    delete: true\n`);
    const plan = await via(['plan', file]);
    expect(plan.stdout).toContain(`- delete zone ${ZONE} (irreversible)`);
    const skipped = await via(['apply', file, '--auto-approve']);
    expect(skipped.code).toBe(1);
    expect(skipped.stdout).toContain('skipped (irreversible, needs --allow-irreversible)');
    expect(await zoneRecords(bed, ZONE)).toHaveLength(1);
    expect((await via(['apply', file, '--auto-approve', '--allow-irreversible'])).code).toBe(0);
    expect(await zoneRecords(bed, ZONE)).toHaveLength(0);
  });
});
