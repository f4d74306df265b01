/**
 * dns-lexicon's Cloudflare provider against `zoneplan serve`, unchanged: a client from another code
 * base than certbot's (plain `requests`, its own result_info paging loop, `status=active` in its zone
 * lookup, `"data": null` in its record bodies). It finds the zone, creates a TXT record, lists it,
 * lists everything, deletes it by type, name and content; the test checks the stored records.
 */
import { describe, expect, it } from 'vitest';
import { pythonClient, runDriver } from './python-clients.js';

const client = pythonClient({
  name: 'lexicon',
  modules: ['lexicon.providers.cloudflare'],
  debianPackages: ['lexicon'],
  records: '[{ name: www, type: A, content: 192.0.2.1 }, { name: mail, type: A, content: 192.0.2.2 }]',
});
const check = client.check;

interface Step {
  step: string;
  value: any;
}

describe.skipIf(!check.python)(
  `lexicon cloudflare${check.missing ? ` (skipped: ${check.missing})` : ''}`,
  () => {
    const bed = client.useServed();
    const api = bed.api;

    it.each(client.cases)(
      'lists, creates and deletes a record with %s',
      async (_how, creds) => {
        const stored = await api<unknown[]>(`/zones/${bed.zoneId}/dns_records?per_page=5000`);
        const r = await runDriver(
          check.python!,
          'drive_lexicon.py',
          [bed.served.url, 'example.com', 'lexicon-test', 'hello from lexicon'],
          bed.served.url,
          creds,
          bed.served.dir,
        );
        expect(r.status, r.stderr).toBe(0);
        const steps = Object.fromEntries(
          r.stdout
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as Step)
            .map((x) => [x.step, x.value]),
        );
        expect(steps.zone).toBe(bed.zoneId);
        expect(steps.created).toBe(true);
        expect(steps.listed).toEqual([
          expect.objectContaining({
            type: 'TXT',
            name: 'lexicon-test.example.com',
            content: 'hello from lexicon',
          }),
        ]);
        // everything the zone held, plus the new record: lexicon's paging loop ended where it should
        expect(steps.all).toBe(stored.length + 1);
        expect(steps.deleted).toBe(true);
        expect(steps.after).toEqual([]);
        expect(await api<unknown[]>(`/zones/${bed.zoneId}/dns_records?per_page=5000`)).toEqual(stored);
      },
      60_000,
    );
  },
);
