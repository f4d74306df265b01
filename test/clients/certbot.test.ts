/**
 * certbot's Cloudflare DNS plugin against `zoneplan serve`, unchanged: its client class
 * (`_CloudflareClient`, what the dns-01 authenticator calls) looks the zone up by guessing names with
 * `GET /zones?name=<guess>&per_page=1`, adds the `_acme-challenge` TXT record, finds it again by
 * type, name and content, and removes it. Once with an API token, once with an e-mail and global key.
 * The assertions read the server's stored records, not what the client says.
 */
import { describe, expect, it } from 'vitest';
import { pythonClient, runDriver, type Credentials } from './python-clients.js';

const client = pythonClient({
  name: 'certbot',
  modules: ['certbot_dns_cloudflare', 'CloudFlare'],
  debianPackages: ['python3-certbot-dns-cloudflare'],
  records: '[{ name: www, type: A, content: 192.0.2.1 }]',
  moreZones: ['{ name: other.test, account: Clients, status: active }'],
  moreTokens: [
    '{ name: elsewhere, value: other-zone-token-000001, zones: [other.test], accounts: [], permissions: edit }',
  ],
});
const check = client.check;

interface StoredRecord {
  id: string;
  name: string;
  type: string;
  content: string;
  ttl: number;
}

describe.skipIf(!check.python)(
  `certbot dns-cloudflare${check.missing ? ` (skipped: ${check.missing})` : ''}`,
  () => {
    const bed = client.useServed();
    const api = bed.api;

    const challenges = () =>
      api<StoredRecord[]>(`/zones/${bed.zoneId}/dns_records?type=TXT&name.startswith=_acme-challenge`);
    const certbot = (creds: Credentials, action: 'add' | 'del', content: string) =>
      runDriver(
        check.python!,
        'drive_certbot.py',
        [action, 'www.example.com', '_acme-challenge.www.example.com', content],
        bed.served.url,
        creds,
        bed.served.dir,
      );

    it.each(client.cases)(
      'finds the zone, adds and removes its TXT record with %s',
      async (_how, creds) => {
        const content = `validation-${Object.keys(creds).join('-')}-${Date.now()}`;
        const added = await certbot(creds, 'add', content);
        expect(added.status, added.stderr).toBe(0);
        // the zone was found by its second guess (www.example.com is not a zone)
        expect(added.stderr).toMatch(
          /Found zone_id of [0-9a-f]{32} for www.example.com using name example.com/,
        );
        expect(added.stderr).toMatch(/GET \/client\/v4\/zones\?name=example.com&per_page=1 HTTP\/1.1" 200/);
        expect(await challenges()).toEqual([
          expect.objectContaining({
            name: '_acme-challenge.www.example.com',
            type: 'TXT',
            content,
            ttl: 120,
          }),
        ]);

        const removed = await certbot(creds, 'del', content);
        expect(removed.status, removed.stderr).toBe(0);
        expect(removed.stderr).toMatch(/Successfully deleted TXT record/);
        expect(await challenges()).toEqual([]);
        // the zone's other records are untouched
        expect(
          (await api<StoredRecord[]>(`/zones/${bed.zoneId}/dns_records?type=A`)).map((r) => r.name),
        ).toEqual(['www.example.com']);
      },
      60_000,
    );

    it('removes only the record it added when two challenges for the name are pending', async () => {
      const creds = { token: client.credentials.token };
      expect((await certbot(creds, 'add', 'first')).status).toBe(0);
      expect((await certbot(creds, 'add', 'second')).status).toBe(0);
      expect((await certbot(creds, 'del', 'first')).status).toBe(0);
      expect((await challenges()).map((r) => r.content)).toEqual(['second']);
      expect((await certbot(creds, 'del', 'second')).status).toBe(0);
      expect(await challenges()).toEqual([]);
    }, 90_000);

    it('fails with a clear error when the credential does not reach the zone', async () => {
      const r = await certbot({ token: 'other-zone-token-000001' }, 'add', 'nope');
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/Unable to determine zone_id for www.example.com/);
      expect(await challenges()).toEqual([]);
    }, 60_000);
  },
);
