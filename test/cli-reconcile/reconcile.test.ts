/**
 * The built CLI against the real local API on 127.0.0.1:0 (DNSControl-style: a sequence of
 * desired states; after each apply, a second plan must be empty).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { api, cliAt, startBed, writeYaml, zoneFile, zoneRecords, type Bed } from './helpers.js';

const ZONE = 'sequence.example';
let bed: Bed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

const base = [
  "{ name: '@', type: A, content: 192.0.2.10, proxied: true }",
  '{ name: www, type: CNAME, content: sequence.example, proxied: true }',
  '{ name: mail, type: A, content: 198.51.100.25, ttl: 3600 }',
  "{ name: '@', type: MX, content: mail.sequence.example, priority: 10 }",
  "{ name: '@', type: TXT, content: 'v=spf1 mx -all' }",
  '{ name: _sip._tcp, type: SRV, data: { priority: 10, weight: 5, port: 5060, target: sip.sequence.example } }',
];

describe('plan / apply / drift against the local API', () => {
  it('apply then plan is empty, and the server holds exactly the records of the file', async () => {
    bed = await startBed();
    const file = writeYaml(bed.dir, 'zones.yaml', zoneFile(ZONE, base));
    const applied = await cliAt(bed, ['apply', file, '--auto-approve']);
    expect(applied.stderr).toContain('target: http://127.0.0.1');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Applied 7 of 7 steps.');
    const records = await zoneRecords(bed, ZONE);
    expect(records.map((r) => `${r.name} ${r.type}`).sort()).toEqual([
      '_sip._tcp.sequence.example SRV',
      'mail.sequence.example A',
      'sequence.example A',
      'sequence.example MX',
      'sequence.example TXT',
      'www.sequence.example CNAME',
    ]);
    const again = await cliAt(bed, ['plan', file, '--detailed-exitcode']);
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
  });

  it('a changed value is one in-place update; an out-of-band change is drift with exit 2', async () => {
    bed = await startBed();
    const file = writeYaml(bed.dir, 'zones.yaml', zoneFile(ZONE, base));
    expect((await cliAt(bed, ['apply', file, '--auto-approve'])).code).toBe(0);
    const mail = (await zoneRecords(bed, ZONE)).find((r) => r.name === 'mail.sequence.example')!;
    const zoneId = (await api<{ id: string }[]>(bed, 'GET', `/zones?name=${ZONE}`))[0].id;
    await api(bed, 'PATCH', `/zones/${zoneId}/dns_records/${mail.id}`, { ttl: 120 });

    const drift = await cliAt(bed, ['drift', file]);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('~ update mail A 198.51.100.25');
    expect(drift.stdout).toContain('ttl: 120 -> 3600');

    const json = JSON.parse((await cliAt(bed, ['drift', file, '--format', 'json'])).stdout);
    expect(json.steps.map((s: { action: string; live_id: string }) => [s.action, s.live_id])).toEqual([
      ['update', mail.id],
    ]);
    expect((await cliAt(bed, ['apply', file, '--auto-approve'])).code).toBe(0);
    const after = (await zoneRecords(bed, ZONE)).find((r) => r.name === 'mail.sequence.example')!;
    expect([after.id, after.ttl]).toEqual([mail.id, 3600]);
  });

  it('a stale saved plan is refused, naming the object or the changed file', async () => {
    bed = await startBed();
    const file = writeYaml(bed.dir, 'zones.yaml', zoneFile(ZONE, base));
    expect((await cliAt(bed, ['apply', file, '--auto-approve'])).code).toBe(0);
    writeYaml(
      bed.dir,
      'zones.yaml',
      zoneFile(
        ZONE,
        base.map((r) => r.replace('ttl: 3600', 'ttl: 600')),
      ),
    );
    expect((await cliAt(bed, ['plan', file, '--out', 'plan.json'])).code).toBe(0);
    const mail = (await zoneRecords(bed, ZONE)).find((r) => r.name === 'mail.sequence.example')!;
    const zoneId = (await api<{ id: string }[]>(bed, 'GET', `/zones?name=${ZONE}`))[0].id;
    await api(bed, 'PATCH', `/zones/${zoneId}/dns_records/${mail.id}`, { content: '198.51.100.26' });

    const refused = await cliAt(bed, ['apply', join(bed.dir, 'plan.json'), '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is stale');
    expect(refused.stderr).toContain('mail A 198.51.100.25: the live object changed since the plan was made');

    expect((await cliAt(bed, ['plan', file, '--out', 'plan.json', '--force'])).code).toBe(0);
    writeYaml(bed.dir, 'zones.yaml', zoneFile(ZONE, base) + '\n');
    const fileChanged = await cliAt(bed, ['apply', 'plan.json', '--auto-approve']);
    expect(fileChanged.stderr).toContain('zones.yaml changed since it was made');

    // (a fresh saved plan applying cleanly is covered by the secrets test)
  });

  it('the safety threshold needs --force; apply without a TTY needs --auto-approve', async () => {
    bed = await startBed();
    const many = Array.from({ length: 12 }, (_, i) => `{ name: h${i}, type: A, content: 192.0.2.${i + 1} }`);
    const file = writeYaml(bed.dir, 'zones.yaml', zoneFile(ZONE, many));
    expect((await cliAt(bed, ['apply', file, '--auto-approve'])).code).toBe(0);
    writeYaml(bed.dir, 'zones.yaml', zoneFile(ZONE, many.slice(0, 7)));

    const noApprove = await cliAt(bed, ['apply', file]);
    expect(noApprove.code).toBe(1);

    const refused = await cliAt(bed, ['apply', file, '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refusing to apply without --force');
    expect(refused.stderr).toContain('5 of 12 records would be updated or deleted');
    expect(await zoneRecords(bed, ZONE)).toHaveLength(12);

    const forced = await cliAt(bed, ['apply', file, '--auto-approve', '--force']);
    expect(forced.code).toBe(0);
    expect(await zoneRecords(bed, ZONE)).toHaveLength(7);
  });

  it('a failure in the middle leaves a journal, creates nothing twice, and a rerun converges', async () => {
    bed = await startBed();
    const file = writeYaml(bed.dir, 'zones.yaml', zoneFile(ZONE, base));
    expect((await cliAt(bed, ['apply', file, '--auto-approve'])).code).toBe(0);
    await bed.close();
    // the same store behind a server that answers most requests with 503
    const dir = bed.dir;
    bed = await startBed({ dir, faults: 'error5xx=0.6,seed=7' });
    const more = [
      ...base,
      ...Array.from({ length: 5 }, (_, i) => `{ name: n${i}, type: A, content: 192.0.2.${i + 50} }`),
    ];
    writeYaml(dir, 'zones.yaml', zoneFile(ZONE, more));
    const faulty = await cliAt(bed, ['apply', file, '--auto-approve', '--rate-limit', '1000/1']);
    const journals = readdirSync(join(dir, '.zoneplan', 'journal'));
    expect(journals.length).toBeGreaterThanOrEqual(2);
    const last = readFileSync(join(dir, '.zoneplan', 'journal', journals.sort().at(-1)!), 'utf8');
    expect(last).toContain('"event":"run-started"');
    await bed.close();

    bed = await startBed({ dir });
    const rerun = await cliAt(bed, ['apply', file, '--auto-approve']);
    expect(rerun.code, faulty.stderr + rerun.stderr).toBe(0);
    const records = await zoneRecords(bed, ZONE);
    expect(records).toHaveLength(more.length);
    expect((await cliAt(bed, ['plan', file, '--detailed-exitcode'])).code).toBe(0);
  });
});
