/**
 * Issue 23's reproduction of the scope hole, with real objects and real bodies: credentials whose
 * fixtures name only accounts, or only zones, reach exactly what docs/local-api.md's table says
 * ("Credentials and what they reach"), and each refused write leaves the object as it was while
 * the same write on the credential's own side succeeds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server/helpers.js';
import { dumpStore } from './store-dump.js';

const ACC_A = 'a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0';
const ACC_B = 'b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0';
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
const FULL = bearer('cross-full-token-0001');
const ACCOUNT_A = bearer('cross-account-a-token1');
const ZONE_A1 = bearer('cross-zone-a1-token-01');
const KEY_A = { 'x-auth-email': 'ops@cross.test', 'x-auth-key': 'cross-global-key-0001' };

let t: TestServer;
const zone: Record<string, string> = {};
const record: Record<string, string> = {};
let poolB: string;

beforeAll(async () => {
  t = await startTestServer({
    fixtures: {
      accounts: [
        { id: ACC_A, name: 'A', pools: [{ name: 'a-pool', notification_email: 'a@cross.test' }] },
        { id: ACC_B, name: 'B', pools: [{ name: 'b-pool', notification_email: 'b@cross.test' }] },
      ],
      zones: [
        {
          name: 'a1.test',
          account: ACC_A,
          records: [
            { name: 'www', type: 'TXT', content: 'deletable' },
            { name: '@', type: 'A', content: '192.0.2.1' },
          ],
        },
        {
          name: 'b1.test',
          account: ACC_B,
          records: [
            { name: 'www', type: 'TXT', content: 'deletable' },
            { name: '@', type: 'A', content: '192.0.2.2' },
          ],
        },
      ],
      tokens: [
        { name: 'full', value: 'cross-full-token-0001' },
        { name: 'account-a', value: 'cross-account-a-token1', accounts: [ACC_A] },
        { name: 'zone-a1', value: 'cross-zone-a1-token-01', zones: ['a1.test'] },
      ],
      keys: [{ email: 'ops@cross.test', key: 'cross-global-key-0001', accounts: [ACC_A] }],
    },
  });
  for (const name of ['a1.test', 'b1.test']) {
    zone[name] = (await t.api('GET', `/zones?name=${name}`, undefined, FULL)).body.result[0].id;
    record[name] = (
      await t.api('GET', `/zones/${zone[name]}/dns_records?type=TXT`, undefined, FULL)
    ).body.result[0].id;
  }
  poolB = (await t.api('GET', `/accounts/${ACC_B}/load_balancers/pools`, undefined, FULL)).body.result[0].id;
});
afterAll(() => t?.close());

/** The refusal is 403 10000, and the whole store is as it was. */
async function refused(method: string, path: string, body: unknown, auth: Record<string, string>) {
  const before = dumpStore(t.server.db);
  const res = await t.api(method, path, body, auth);
  expect(res.status, `${method} ${path}: ${res.text}`).toBe(403);
  expect(res.body.errors[0].code).toBe(10000);
  expect(dumpStore(t.server.db)).toEqual(before);
}

describe('an account-scoped token (fixtures name accounts: [A], no zones)', () => {
  it("reaches A's zones and no zone of B", async () => {
    const zones = await t.api('GET', '/zones', undefined, ACCOUNT_A);
    expect(zones.body.result.map((z: { name: string }) => z.name)).toEqual(['a1.test']);
    expect((await t.api('GET', '/zones?name=b1.test', undefined, ACCOUNT_A)).body.result).toEqual([]);
    await refused('GET', `/accounts/${ACC_B}`, undefined, ACCOUNT_A);
    await refused(
      'DELETE',
      `/zones/${zone['b1.test']}/dns_records/${record['b1.test']}`,
      undefined,
      ACCOUNT_A,
    );
    await refused('GET', `/zones/${zone['b1.test']}/dns_records`, undefined, ACCOUNT_A);
    const own = await t.api(
      'DELETE',
      `/zones/${zone['a1.test']}/dns_records/${record['a1.test']}`,
      undefined,
      ACCOUNT_A,
    );
    expect(own.status, own.text).toBe(200);
  });
});

describe('an account-scoped e-mail/key pair', () => {
  it("cannot pause B's zone; pausing A's works", async () => {
    await refused('PATCH', `/zones/${zone['b1.test']}`, { paused: true }, KEY_A);
    const own = await t.api('PATCH', `/zones/${zone['a1.test']}`, { paused: true }, KEY_A);
    expect(own.status, own.text).toBe(200);
    expect(own.body.result.paused).toBe(true);
  });
});

describe('a zone-scoped token (fixtures name zones: [a1.test], no accounts)', () => {
  it('reaches its zone and no account-level object of any account', async () => {
    expect((await t.api('GET', `/zones/${zone['a1.test']}/dns_records`, undefined, ZONE_A1)).status).toBe(
      200,
    );
    expect((await t.api('GET', '/accounts', undefined, ZONE_A1)).body.result).toEqual([]);
    for (const account of [ACC_A, ACC_B]) {
      await refused('GET', `/accounts/${account}`, undefined, ZONE_A1);
      await refused('GET', `/accounts/${account}/load_balancers/pools`, undefined, ZONE_A1);
      await refused(
        'POST',
        '/zones',
        { name: `new-${account.slice(0, 2)}.test`, account: { id: account } },
        ZONE_A1,
      );
    }
    await refused(
      'PATCH',
      `/accounts/${ACC_B}/load_balancers/pools/${poolB}`,
      { notification_email: '' },
      ZONE_A1,
    );
    await refused('PATCH', `/zones/${zone['b1.test']}`, { paused: true }, ZONE_A1);
  });
});

describe('zone creation', () => {
  it('needs the target account: an account-A token creates in A, not in B', async () => {
    await refused('POST', '/zones', { name: 'new-b.test', account: { id: ACC_B } }, ACCOUNT_A);
    const own = await t.api('POST', '/zones', { name: 'new-a.test', account: { id: ACC_A } }, ACCOUNT_A);
    expect(own.status, own.text).toBe(200);
    expect(own.body.result.account.id).toBe(ACC_A);
  });
});
