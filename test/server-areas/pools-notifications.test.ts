import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../server/helpers.js';
import { ACCOUNT, KEY_HEADERS, startAreaServer, testCall } from './setup.js';

let t: TestServer;
const pools = `/accounts/${ACCOUNT}/load_balancers/pools`;
const policies = `/accounts/${ACCOUNT}/alerting/v3/policies`;
beforeAll(async () => {
  t = await startAreaServer();
});
afterAll(() => t.close());

type Pool = { id: string; name: string; notification_email: string };
const allPools = async (): Promise<Pool[]> => (await t.api('GET', pools)).body.result;

describe('load balancer pools', () => {
  it('lists the 60 fixture pools in name order, comma lists kept', async () => {
    const list = await allPools();
    expect(list).toHaveLength(60);
    expect(list[0]).toMatchObject({
      name: 'pool-00',
      notification_email: 'ops0@example.com,noc@example.com',
    });
    expect(list.map((p) => p.name)).toEqual([...list.map((p) => p.name)].sort());
  });

  it('PATCH accepts only {notification_email: ""}', async () => {
    for (const body of [
      { notification_email: 'x@example.com' },
      { notification_email: '', name: 'x' },
      {},
      { notification_email: null },
    ]) {
      const r = await t.api('PATCH', pools, body);
      expect(r.status).toBe(400);
      expect(r.body.errors[0].message).toMatch(/^notification_email: only/);
    }
    expect((await t.api('PATCH', `${pools}?page=1&limit=5`, { notification_email: '' })).status).toBe(400);
  });

  it('changes the first 25 by ascending name by default, and returns them', async () => {
    const r = await t.api('PATCH', pools, { notification_email: '' });
    expect(r.status).toBe(200);
    expect(r.body.result.map((p: Pool) => p.name)).toEqual(
      Array.from({ length: 25 }, (_, i) => `pool-${String(i).padStart(2, '0')}`),
    );
    expect(r.body.result.every((p: Pool) => p.notification_email === '')).toBe(true);
    expect(r.body.result_info).toEqual({ page: 1, per_page: 25, count: 25, total_count: 60, total_pages: 3 });
    const after = await allPools();
    expect(after.filter((p) => p.notification_email !== '')).toHaveLength(35);
  });

  it('reaches all pools by looping pages, or with limit/offset', async () => {
    const touched: string[] = [];
    for (let page = 1; ; page++) {
      const r = await t.api('PATCH', `${pools}?page=${page}&per_page=20`, { notification_email: '' });
      touched.push(...r.body.result.map((p: Pool) => p.name));
      if (page >= r.body.result_info.total_pages) break;
    }
    expect(new Set(touched).size).toBe(60);
    expect((await allPools()).every((p) => p.notification_email === '')).toBe(true);
    const window = await t.api('PATCH', `${pools}?limit=10&offset=55`, { notification_email: '' });
    expect(window.body.result.map((p: Pool) => p.name)).toEqual([
      'pool-55',
      'pool-56',
      'pool-57',
      'pool-58',
      'pool-59',
    ]);
  });

  it('creates, reads, replaces and deletes one pool', async () => {
    const body = {
      name: 'extra',
      origins: [{ name: 'o1', address: '192.0.2.7' }],
      notification_email: 'a@example.com, b@example.com',
    };
    const created = await t.api('POST', pools, body);
    expect(created.status).toBe(200);
    const id = created.body.result.id;
    expect((await t.api('POST', pools, body)).status).toBe(400); // duplicate name
    expect(
      (await t.api('POST', pools, { ...body, name: 'x2', notification_email: 'nope' })).body.errors[0]
        .message,
    ).toMatch(/"nope" is not an e-mail address/);
    expect((await t.api('GET', `${pools}/${id}`)).body.result.notification_email).toBe(
      'a@example.com, b@example.com',
    );
    expect((await t.api('PUT', `${pools}/${id}`, { ...body, enabled: false })).body.result.enabled).toBe(
      false,
    );
    expect((await t.api('DELETE', `${pools}/${id}`)).body.result).toEqual({ id });
    expect((await t.api('GET', `${pools}/${id}`)).status).toBe(404);
  });

  it('accepts tokens only', async () => {
    expect((await t.api('GET', pools, undefined, KEY_HEADERS)).status).toBe(403);
    expect((await t.api('PATCH', pools, { notification_email: '' }, KEY_HEADERS)).status).toBe(403);
  });
});

describe('notification policies', () => {
  const policy = (poolIds: string[]) => ({
    name: 'pool health',
    alert_type: 'load_balancing_health_alert',
    enabled: true,
    mechanisms: { email: [{ id: 'ops@example.com' }] },
    filters: { pool_id: poolIds, new_health: ['Unhealthy', 'Healthy'], event_source: ['pool', 'origin'] },
  });

  it('creates, lists, reads, updates and deletes; POST/PUT answer {id}', async () => {
    const [p0] = await allPools();
    const created = await t.api('POST', policies, policy([p0.id]));
    expect(created.status).toBe(200);
    const id = created.body.result.id;
    expect(created.body.result).toEqual({ id });
    expect((await t.api('GET', policies)).body.result.map((p: { id: string }) => p.id)).toContain(id);
    const put = await t.api('PUT', `${policies}/${id}`, {
      enabled: false,
      filters: { new_health: ['Unhealthy'] },
    });
    expect(put.body.result).toEqual({ id });
    expect((await t.api('GET', `${policies}/${id}`)).body.result).toMatchObject({
      id,
      name: 'pool health',
      enabled: false,
      filters: { new_health: ['Unhealthy'] },
    });
    const del = await t.api('DELETE', `${policies}/${id}`);
    expect(del.body).toEqual({ result: null, success: true, errors: [], messages: [] });
    expect((await t.api('GET', `${policies}/${id}`)).status).toBe(404);
  });

  it('checks required fields and the health alert filters', async () => {
    const missing = await t.api('POST', policies, {});
    expect(missing.body.errors.map((e: { message: string }) => e.message)).toEqual([
      'name: is required',
      'alert_type: is required',
      'enabled: is required',
      'mechanisms: is required',
    ]);
    const [p0] = await allPools();
    const bad = await t.api('POST', policies, {
      ...policy([p0.id, 'ffffffffffffffffffffffffffffffff']),
      filters: {
        pool_id: [p0.id, 'ffffffffffffffffffffffffffffffff'],
        new_health: ['Down'],
        event_source: ['monitor'],
      },
    });
    expect(bad.body.errors.map((e) => e.source?.pointer)).toEqual([
      '/filters/new_health/0',
      '/filters/event_source/0',
      '/filters/pool_id/1',
    ]);
  });

  it('accepts an e-mail/key pair as well as a token', async () => {
    expect((await t.api('GET', policies, undefined, KEY_HEADERS)).status).toBe(200);
  });

  it('records an alert per matching policy and a legacy e-mail while a pool keeps its address', async () => {
    const created = await t.api('POST', pools, {
      name: 'legacy',
      origins: [{ name: 'o', address: '192.0.2.9' }],
      notification_email: 'a@example.com,b@example.com',
    });
    const pool = created.body.result as Pool;
    await t.api('POST', policies, policy([pool.id]));
    await t.api('POST', policies, {
      ...policy([pool.id]),
      name: 'healthy only',
      filters: { pool_id: [pool.id], new_health: ['Healthy'] },
    });
    const hook = `/accounts/${ACCOUNT}/load_balancers/pools/${pool.id}/health`;
    const r1 = await testCall(t, 'POST', hook, { new_health: 'Unhealthy', event_source: 'origin' });
    expect(r1.body.result.alerts.map((a: { policy_name: string }) => a.policy_name)).toEqual(['pool health']);
    expect(r1.body.result.legacy_emails).toEqual([
      expect.objectContaining({ pool_id: pool.id, to: ['a@example.com', 'b@example.com'] }),
    ]);
    // the migration clears the address: alerts continue, legacy e-mails stop
    await t.api('PATCH', `${pools}/${pool.id}`, { notification_email: '' });
    const r2 = await testCall(t, 'POST', hook, { new_health: 'Healthy' });
    expect(r2.body.result.alerts).toHaveLength(2);
    expect(r2.body.result.legacy_emails).toEqual([]);
    const log = await testCall(t, 'GET', `/accounts/${ACCOUNT}/alerts`);
    expect(log.body.result.alerts).toHaveLength(3);
    expect(log.body.result.legacy_emails).toHaveLength(1);
    expect((await testCall(t, 'POST', hook, { new_health: 'Sick' })).status).toBe(400);
  });
});
