/**
 * dns-lexicon's Cloudflare provider against `zoneplan serve`, unchanged: a client from another code
 * base than certbot's (plain `requests`, its own result_info paging loop, `status=active` in its zone
 * lookup, `"data": null` in its record bodies). It finds the zone, creates a TXT record, lists it,
 * lists everything, deletes it by type, name and content; the test checks the stored records.
 */
import { describe, expect, it } from 'vitest';
import {
  clientFixtures,
  credentialCases,
  findPython,
  requireInCi,
  runDriver,
  useServed,
} from './python-clients.js';

const check = findPython(['lexicon.providers.cloudflare'], ['lexicon']);
requireInCi(check);

const CREDENTIALS = {
  token: 'lexicon-token-00000000001',
  email: 'lexicon@example.com',
  key: 'lexicon-global-key-00001',
};
const FIXTURES = clientFixtures({
  client: 'lexicon',
  ...CREDENTIALS,
  records: '[{ name: www, type: A, content: 192.0.2.1 }, { name: mail, type: A, content: 192.0.2.2 }]',
});

interface Step {
  step: string;
  value: any;
}

describe.skipIf(!check.python)(
  `lexicon cloudflare${check.missing ? ` (skipped: ${check.missing})` : ''}`,
  () => {
    const bed = useServed(FIXTURES, CREDENTIALS.token);
    const api = bed.api;

    it.each(credentialCases(CREDENTIALS))(
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
