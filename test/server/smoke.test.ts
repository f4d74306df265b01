import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createZone, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('smoke', () => {
  it('creates a zone and its records; the record list holds no SOA, as the real one does not', async () => {
    const zoneId = await createZone(t);
    const list = await t.api('GET', `/zones/${zoneId}/dns_records`);
    expect(list.status).toBe(200);
    expect(list.body.result).toEqual([]);
    const post = await t.api('POST', `/zones/${zoneId}/dns_records`, {
      type: 'A',
      name: '@',
      content: '192.0.2.1',
    });
    expect(post.status).toBe(200);
    expect(post.body.result).toMatchObject({
      name: 'example.com',
      ttl: 1,
      proxiable: true,
      zone_name: 'example.com',
    });
  });
});
