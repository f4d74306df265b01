/**
 * Requests at fleet scale: the API's budget counts requests, so a plan of many zones looks them up
 * through the paged zone list (50 a page) when that costs fewer requests than a lookup by name each,
 * and prints the read requests it made beside the apply estimate. Counted on the wire (the contract
 * proxy between the CLI and the local API records every exchange).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT, cliAt, startBed, writeYaml, type Bed } from './helpers.js';

const OTHER_ACCOUNT = 'fedcba9876543210fedcba9876543210';
let bed: Bed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

const zoneName = (i: number) => `z${String(i).padStart(3, '0')}.fleet`;
const RECORDS = [
  { name: '@', type: 'A', content: '192.0.2.10' },
  { name: 'www', type: 'CNAME', content: 'origin.example.net' },
  { name: '@', type: 'TXT', content: 'v=spf1 -all' },
];

/** A bed whose token sees `count` zones of a few records each, in ACCOUNT. */
async function fleetBed(count: number, extra: Record<string, unknown>[] = []): Promise<Bed> {
  return startBed({
    fixtures: {
      accounts: [
        { id: ACCOUNT, name: 'Fleet' },
        { id: OTHER_ACCOUNT, name: 'Other' },
      ],
      zones: [
        ...Array.from({ length: count }, (_, i) => ({
          name: zoneName(i),
          account: ACCOUNT,
          records: RECORDS.map((r) => ({
            ...r,
            name: r.name === '@' ? zoneName(i) : `${r.name}.${zoneName(i)}`,
          })),
        })),
        ...extra,
      ],
    },
  });
}

/** A desired file of these zones, each with exactly its live records (a plan with no changes). */
function fleetFile(b: Bed, names: string[], account: string | null = ACCOUNT): string {
  const lines = ['version: 1', 'zones:'];
  for (const name of names) {
    lines.push(`  - name: ${name}`);
    if (account) lines.push(`    account: '${account}'`);
    lines.push('    dns:', '      records:');
    for (const r of RECORDS)
      lines.push(`        - { name: '${r.name}', type: ${r.type}, content: '${r.content}', ttl: 1 }`);
  }
  return writeYaml(b.dir, `fleet-${names.length}.yaml`, lines.join('\n') + '\n');
}

/** The requests the CLI made since `from`, as `METHOD path?query`. */
function requestsSince(b: Bed, from: number): string[] {
  return b.contract.exchanges.slice(from).map((x) => `${x.method} ${x.url}`);
}

const isZoneList = (r: string) => /^GET \/zones\?(?!name=)/.test(r);
const isLookup = (r: string) => /^GET \/zones\?name=/.test(r);
const isDnsList = (r: string) => /^GET \/zones\/\w+\/dns_records/.test(r);

describe('plan requests at fleet scale', () => {
  it('200 zones: the zone list in 4 pages and one DNS list per zone (204 requests, not 400)', async () => {
    bed = await fleetBed(200);
    const names = Array.from({ length: 200 }, (_, i) => zoneName(i));
    const file = fleetFile(bed, names);
    const from = bed.contract.exchanges.length;
    const r = await cliAt(bed, ['plan', file, '--detailed-exitcode']);
    expect(r.code, r.stderr).toBe(0);
    const sent = requestsSince(bed, from);
    expect(sent.filter(isZoneList)).toHaveLength(4);
    expect(sent.filter(isZoneList).every((q) => q.includes('per_page=50'))).toBe(true);
    // every zone names the same account: the list is filtered to it
    expect(sent.filter(isZoneList).every((q) => q.includes(`account.id=${ACCOUNT}`))).toBe(true);
    expect(sent.filter(isLookup)).toHaveLength(0);
    expect(sent.filter(isDnsList)).toHaveLength(200);
    expect(sent).toHaveLength(204);
    expect(r.stdout).toContain(
      'No changes. The live state matches the desired state. Read with 204 API requests.',
    );

    const json = await cliAt(bed, ['plan', file, '--format', 'json']);
    expect(JSON.parse(json.stdout).summary).toMatchObject({ api_calls: 0, api_reads: 204 });
    const md = await cliAt(bed, ['plan', file, '--format', 'markdown']);
    expect(md.stdout).toContain('Read with 204 API requests.');
  });

  it('one zone (--zone) is still looked up by name: 2 requests', async () => {
    bed = await fleetBed(200);
    const file = fleetFile(
      bed,
      Array.from({ length: 200 }, (_, i) => zoneName(i)),
    );
    const from = bed.contract.exchanges.length;
    const r = await cliAt(bed, ['plan', file, '--zone', zoneName(7)]);
    expect(r.code, r.stderr).toBe(0);
    const sent = requestsSince(bed, from);
    expect(sent.filter(isLookup)).toEqual([`GET /zones?name=${zoneName(7)}&page=1&per_page=50`]);
    expect(sent.filter(isZoneList)).toHaveLength(0);
    expect(sent).toHaveLength(2);
    expect(r.stdout).toContain('Read with 2 API requests.');
  });

  it('3 zones among many: one page of the list, then lookups by name (the list is not read whole)', async () => {
    bed = await fleetBed(200);
    // the last three zones by name: not on the first page
    const file = fleetFile(bed, [zoneName(197), zoneName(198), zoneName(199)]);
    const from = bed.contract.exchanges.length;
    const r = await cliAt(bed, ['plan', file]);
    expect(r.code, r.stderr).toBe(0);
    const sent = requestsSince(bed, from);
    expect(sent.filter(isZoneList)).toHaveLength(1);
    expect(sent.filter(isLookup)).toHaveLength(3);
    expect(sent.filter(isDnsList)).toHaveLength(3);
    expect(r.stdout).toContain('Read with 7 API requests.');
  });

  it('a zone the list does not show gives the same plan and error as a lookup by name', async () => {
    bed = await fleetBed(10, [
      // in another account than the file says: the filtered list misses it, the lookup finds it
      {
        name: 'elsewhere.fleet',
        account: OTHER_ACCOUNT,
        records: RECORDS.map((r) => ({
          ...r,
          name: r.name === '@' ? 'elsewhere.fleet' : `${r.name}.elsewhere.fleet`,
        })),
      },
    ]);
    const present = [zoneName(0), zoneName(1), zoneName(2), 'elsewhere.fleet'];

    // with `account:` a missing zone is planned for creation
    const withAccount = fleetFile(bed, [...present, 'missing.fleet']);
    const planned = await cliAt(bed, ['plan', withAccount]);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('+ create zone missing.fleet');
    expect(planned.stdout).not.toContain('elsewhere.fleet');

    // without it, the error names the entry, as with one zone looked up by name
    const without = fleetFile(bed, [...present, 'missing.fleet'], null);
    const many = await cliAt(bed, ['plan', without]);
    const one = await cliAt(bed, ['plan', without, '--zone', 'missing.fleet']);
    expect(many.code).toBe(1);
    expect(one.code).toBe(1);
    expect(many.stderr).toContain(
      'zones[4]: zone missing.fleet does not exist on the target; set `account:` so zoneplan can create it',
    );
    expect(many.stderr).toBe(one.stderr.replace(/selected .*\n/, ''));
  });

  it('pending zones are found in the list as by name: apply three, plan again, no changes', async () => {
    bed = await fleetBed(0);
    const names = ['p1.fleet', 'p2.fleet', 'p3.fleet'];
    const file = fleetFile(bed, names);
    const applied = await cliAt(bed, ['apply', file, '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    const from = bed.contract.exchanges.length;
    const again = await cliAt(bed, ['plan', file, '--detailed-exitcode']);
    expect(again.code, again.stderr + again.stdout).toBe(0);
    expect(requestsSince(bed, from).filter(isZoneList)).toHaveLength(1);
    expect(again.stdout).toContain('Read with 4 API requests.');
  });
});
