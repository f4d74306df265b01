/**
 * Zones created through POST /zones are `pending`, as on the real API, until their name servers
 * change; the reconciler plans, applies and exports against them all the same. Locally, a zone is
 * made active by the fixtures' `status` or by the local-only POST /__zoneplan/zones/:zone_id/activate.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT, api, cliAt, startBed, writeYaml, zoneFile, zoneRecords, type Bed } from './helpers.js';
import { fetchTestRoute } from '../support/test-routes.js';

const ZONE = 'pending.example';
let bed: Bed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

interface Zone {
  id: string;
  status: string;
}
const local = (b: Bed, path: string, method = 'POST') => fetchTestRoute(b.server, path, { method });

describe('pending zones', () => {
  it('a zone the reconciler creates is pending, and plan, apply and export work against it', async () => {
    bed = await startBed();
    const records = [
      "{ name: '@', type: A, content: 192.0.2.10 }",
      "{ name: '@', type: TXT, content: 'v=spf1 -all' }",
    ];
    const file = writeYaml(bed.dir, 'zones.yaml', zoneFile(ZONE, records));
    const applied = await cliAt(bed, ['apply', file, '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    const [zone] = await api<Zone[]>(bed, 'GET', `/zones?name=${ZONE}`);
    expect(zone.status).toBe('pending');
    expect((await api<Zone[]>(bed, 'GET', `/zones?status=active&name=${ZONE}`)).length).toBe(0);
    expect((await zoneRecords(bed, ZONE)).map((r) => r.type).sort()).toEqual(['A', 'TXT']);

    const again = await cliAt(bed, ['plan', file, '--detailed-exitcode']);
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);

    const out = join(bed.dir, 'exported.yaml');
    const exported = await cliAt(bed, ['export', '--zone', ZONE, '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('v=spf1 -all');
  });

  it('the local-only activate route makes a pending zone active (and leaves an active one so)', async () => {
    bed = await startBed();
    const zone = await api<Zone>(bed, 'POST', '/zones', { name: ZONE, account: { id: ACCOUNT } });
    expect(zone.status).toBe('pending');
    const activated = await local(bed, `/zones/${zone.id}/activate`);
    expect(activated.status).toBe(200);
    expect(((await activated.json()) as { result: Zone }).result.status).toBe('active');
    expect((await api<Zone>(bed, 'GET', `/zones/${zone.id}`)).status).toBe('active');
    expect((await local(bed, `/zones/${zone.id}/activate`)).status).toBe(200);
    expect((await local(bed, `/zones/${'f'.repeat(32)}/activate`)).status).toBe(404);
    expect((await local(bed, '/zones/not-an-id/activate')).status).toBe(400);
    // the real API has no way to set a status: PATCH refuses it like any other non-editable key
    const patch = await fetch(`${bed.server.url}/zones/${zone.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${bed.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'pending' }),
    });
    expect(patch.status).toBe(400);
  });

  it('fixture zones keep the status they declare, active when they declare none', async () => {
    bed = await startBed({
      fixtures: {
        accounts: [{ id: ACCOUNT, name: 'Example' }],
        zones: [
          { name: 'declared-pending.example', account: ACCOUNT, status: 'pending' },
          { name: 'undeclared.example', account: ACCOUNT },
        ],
      },
    });
    const zones = await api<{ name: string; status: string }[]>(bed, 'GET', '/zones');
    expect(Object.fromEntries(zones.map((z) => [z.name, z.status]))).toEqual({
      'declared-pending.example': 'pending',
      'undeclared.example': 'active',
    });
  });
});
