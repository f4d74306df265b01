/**
 * The request floor of plan, drift and apply over a small fleet, exact, counted on the wire (the
 * contract proxy between the CLI and the local API records every exchange): the zone list once, one
 * read per part of a kind the file manages (no Page Shield policy list when the file names no
 * `policies`), one DNS batch per zone to apply, and no second read of a zone the batch's answer
 * already tells (docs/plan-and-apply.md, "The read-back").
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT, cliAt, startBed, writeYaml, zoneRecords, type Bed } from './helpers.js';

let bed: Bed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

const ZONES = Array.from({ length: 5 }, (_, i) => `z${i}.floor`);
const RECORDS = [
  { name: '@', type: 'A', content: '192.0.2.10' },
  { name: 'www', type: 'CNAME', content: 'origin.example.net' },
];

async function fleetBed(): Promise<Bed> {
  return startBed({
    fixtures: {
      accounts: [{ id: ACCOUNT, name: 'Fleet' }],
      zones: ZONES.map((zone) => ({
        name: zone,
        account: ACCOUNT,
        records: RECORDS.map((r) => ({ ...r, name: r.name === '@' ? zone : `${r.name}.${zone}` })),
      })),
    },
  });
}

interface Parts {
  /** the content of the A record (changing it changes one record per zone) */
  address?: string;
  pageShield?: string;
  logpush?: boolean;
}

/** Every zone with its live records (A content `address`), and the other kinds as asked. */
function fleetFile(b: Bed, name: string, parts: Parts = {}): string {
  const lines = ['version: 1', 'zones:'];
  for (const zone of ZONES) {
    lines.push(`  - name: ${zone}`, `    account: '${ACCOUNT}'`, '    dns:', '      records:');
    for (const r of RECORDS) {
      const content = r.type === 'A' ? (parts.address ?? r.content) : r.content;
      lines.push(`        - { name: '${r.name}', type: ${r.type}, content: '${content}', ttl: 1 }`);
    }
    if (parts.pageShield) lines.push(`    page_shield: ${parts.pageShield}`);
    if (parts.logpush)
      lines.push(
        '    logpush:',
        '      jobs:',
        '        - name: to-collector',
        '          dataset: http_requests',
        "          destination_conf: 'https://collector.logs.example/ingest'",
      );
  }
  return writeYaml(b.dir, name, lines.join('\n') + '\n');
}

/** What the CLI sent while `run` ran, as `METHOD /path` (query cut off). */
async function sent(b: Bed, run: () => Promise<{ code: number; stderr: string }>, code = 0) {
  const from = b.contract.exchanges.length;
  const r = await run();
  expect(r.code, r.stderr).toBe(code);
  return b.contract.exchanges.slice(from).map((x) => `${x.method} ${x.url.replace(/\?.*$/, '')}`);
}

/** Counts of requests by shape, zone ids replaced by `Z`. */
function shapes(requests: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of requests) {
    const shape = r.replace(/\/zones\/[0-9a-f]{32}/, '/zones/Z');
    out[shape] = (out[shape] ?? 0) + 1;
  }
  return out;
}

describe('the request floor of a fleet of 5 zones', () => {
  it('DNS only: plan 6, drift 6, apply with one change per zone 11 (no read-back read)', async () => {
    bed = await fleetBed();
    const b = bed;
    const same = fleetFile(b, 'same.yaml');
    const plan = await sent(b, () => cliAt(b, ['plan', same]));
    expect(shapes(plan)).toEqual({ 'GET /zones': 1, 'GET /zones/Z/dns_records': 5 });
    const drift = await sent(b, () => cliAt(b, ['drift', same]));
    expect(drift).toHaveLength(6);

    const changed = fleetFile(b, 'changed.yaml', { address: '192.0.2.99' });
    let out = '';
    const apply = await sent(b, async () => {
      const r = await cliAt(b, ['apply', changed, '--auto-approve']);
      out = r.stdout;
      return r;
    });
    expect(shapes(apply)).toEqual({
      'GET /zones': 1,
      'GET /zones/Z/dns_records': 5,
      'POST /zones/Z/dns_records/batch': 5,
    });
    expect(out).toContain('Applied 5 of 5 steps.');
    expect(out).toContain('API requests: 11 (6 to read, 5 to apply and read back).');
    // what the batches' answers settled is what the API stored
    for (const zone of ZONES)
      expect((await zoneRecords(b, zone)).find((r) => r.type === 'A')?.content).toBe('192.0.2.99');
    const again = await cliAt(b, ['plan', changed, '--detailed-exitcode']);
    expect(again.code, again.stdout).toBe(0);
  });

  it('DNS + Page Shield + Logpush: plan 16 (no policy list), 21 with `policies`, apply 21', async () => {
    bed = await fleetBed();
    const b = bed;
    const all = fleetFile(b, 'all.yaml', { pageShield: '{ enabled: false }', logpush: true });
    // the jobs are created first: from then on the plan has nothing to change
    const first = await cliAt(b, ['apply', all, '--auto-approve']);
    expect(first.code, first.stderr).toBe(0);

    const plan = await sent(b, () => cliAt(b, ['plan', all, '--detailed-exitcode']));
    expect(shapes(plan)).toEqual({
      'GET /zones': 1,
      'GET /zones/Z/dns_records': 5,
      'GET /zones/Z/page_shield': 5,
      'GET /zones/Z/logpush/jobs': 5,
    });
    expect(await sent(b, () => cliAt(b, ['drift', all]))).toHaveLength(16);

    // the policies are read only when the file manages them
    const withPolicies = fleetFile(b, 'policies.yaml', {
      pageShield: '{ enabled: false, policies: [] }',
      logpush: true,
    });
    const planned = await sent(b, () => cliAt(b, ['plan', withPolicies, '--detailed-exitcode']));
    expect(shapes(planned)['GET /zones/Z/page_shield/policies']).toBe(5);
    expect(planned).toHaveLength(21);

    const changed = fleetFile(b, 'changed.yaml', {
      address: '192.0.2.99',
      pageShield: '{ enabled: false }',
      logpush: true,
    });
    const apply = await sent(b, () => cliAt(b, ['apply', changed, '--auto-approve']));
    expect(shapes(apply)).toEqual({
      'GET /zones': 1,
      'GET /zones/Z/dns_records': 5,
      'GET /zones/Z/page_shield': 5,
      'GET /zones/Z/logpush/jobs': 5,
      'POST /zones/Z/dns_records/batch': 5,
    });
  });

  it('a write whose answer does not settle the zone is read back (Page Shield: one read per zone)', async () => {
    bed = await fleetBed();
    const b = bed;
    const on = fleetFile(b, 'on.yaml', { pageShield: '{ enabled: true }' });
    const apply = await sent(b, () => cliAt(b, ['apply', on, '--auto-approve']));
    expect(shapes(apply)).toEqual({
      'GET /zones': 1,
      'GET /zones/Z/dns_records': 5,
      'GET /zones/Z/page_shield': 10,
      'PUT /zones/Z/page_shield': 5,
    });
  });
});

describe('a budget a fleet can share', () => {
  it('a run over the budget says so first; ZONEPLAN_RATE_LIMIT sets it; --rate-limit wins', async () => {
    bed = await fleetBed();
    const b = bed;
    const same = fleetFile(b, 'same.yaml');
    // 6 requests against a budget of 2 at once: the run says it before reading, then waits its turn
    const slow = await cliAt(b, ['plan', same], { ZONEPLAN_RATE_LIMIT: '2/0.1' });
    expect(slow.code, slow.stderr).toBe(0);
    expect(slow.stderr.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(/^target: /),
      'about 6 requests: about 1 second at a budget of 2 requests per 0.1 s',
    ]);
    // a share of the API's budget (600 of 1,200 per 300 s) holds the 6 at once: no notice
    const shared = await cliAt(b, ['plan', same, '--rate-limit', '50%'], { ZONEPLAN_RATE_LIMIT: '2/0.1' });
    expect(shared.code, shared.stderr).toBe(0);
    expect(shared.stderr).not.toContain('about 6 requests');

    const bad = await cliAt(b, ['plan', same], { ZONEPLAN_RATE_LIMIT: '150%' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(
      'error: ZONEPLAN_RATE_LIMIT "150%": a share of the API\'s budget must be above 0% and at most 100%',
    );
    expect(bad.stdout).toBe('');
  });
});
