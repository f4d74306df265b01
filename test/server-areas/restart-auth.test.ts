import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../server/helpers.js';
import { ACCOUNT, KEY_HEADERS, ZONES, startAreaServer, testCall } from './setup.js';

let t: TestServer;
beforeAll(async () => {
  t = await startAreaServer();
});
afterAll(() => t.close());

describe('auth per area', () => {
  it('Page Shield refuses e-mail/key and answers tokens', async () => {
    expect((await t.api('GET', `/zones/${ZONES.pro}/page_shield`, undefined, KEY_HEADERS)).status).toBe(403);
    expect(
      (await t.api('GET', `/zones/${ZONES.pro}/page_shield/scripts`, undefined, KEY_HEADERS)).status,
    ).toBe(403);
    expect((await t.api('GET', `/zones/${ZONES.pro}/page_shield`)).status).toBe(200);
  });

  it('refuses missing and unknown credentials on every area', async () => {
    for (const path of [
      `/zones/${ZONES.pro}/page_shield`,
      `/zones/${ZONES.pro}/logpush/jobs`,
      `/accounts/${ACCOUNT}/alerting/v3/policies`,
    ]) {
      expect((await t.api('GET', path, undefined, {})).status).toBe(400);
      expect((await t.api('GET', path, undefined, { authorization: 'Bearer nope-nope-nope' })).status).toBe(
        401,
      );
    }
  });
});

describe('restarts keep state', () => {
  it('keeps settings, policies, jobs, migration state, pools and alerts across a restart with the same fixtures', async () => {
    const ps = `/zones/${ZONES.pro}/page_shield`;
    const settings = (await t.api('PUT', ps, { enabled: true })).body.result;
    const policy = (
      await t.api('POST', `${ps}/policies`, {
        description: 'd',
        action: 'log',
        expression: 'http.host eq "pro.example"',
        enabled: true,
        value: "script-src 'self'",
      })
    ).body.result;
    const job = (
      await t.api('POST', `/zones/${ZONES.pro}/logpush/jobs`, {
        dataset: 'dns_logs',
        destination_conf: 'https://logs.example.com/x',
        name: 'keep-me',
      })
    ).body.result;
    await t.api('GET', `/zones/${ZONES.enterprise}/waf_migration/check?phase_two=1`);
    const cfg = (await t.api('GET', `/zones/${ZONES.enterprise}/waf_migration/config?phase_two=1`)).body
      .result;
    expect(
      (
        await t.api(
          'PUT',
          `/zones/${ZONES.enterprise}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=validation&phase_two=1`,
          cfg,
        )
      ).status,
    ).toBe(200);
    await t.api('PATCH', `/accounts/${ACCOUNT}/load_balancers/pools`, { notification_email: '' });
    const notif = (
      await t.api('POST', `/accounts/${ACCOUNT}/alerting/v3/policies`, {
        name: 'n',
        alert_type: 'load_balancing_health_alert',
        enabled: true,
        mechanisms: { email: [{ id: 'ops@example.com' }] },
      })
    ).body.result;
    const pool = (await t.api('GET', `/accounts/${ACCOUNT}/load_balancers/pools`)).body.result[0];
    await testCall(t, 'POST', `/accounts/${ACCOUNT}/load_balancers/pools/${pool.id}/health`, {
      new_health: 'Unhealthy',
    });

    await t.restart();

    expect((await t.api('GET', ps)).body.result).toEqual(settings);
    expect((await t.api('GET', `${ps}/policies/${policy.id}`)).body.result).toEqual(policy);
    expect((await t.api('GET', `/zones/${ZONES.pro}/logpush/jobs/${job.id}`)).body.result).toEqual(job);
    // reloading the fixtures does not reset what the API changed
    expect(
      (await t.api('GET', `/zones/${ZONES.enterprise}/waf_migration/status`)).body.result.migration_state,
    ).toBe('validation');
    const pools = (await t.api('GET', `/accounts/${ACCOUNT}/load_balancers/pools`)).body.result;
    expect(pools.slice(0, 25).every((p: { notification_email: string }) => p.notification_email === '')).toBe(
      true,
    );
    expect((await t.api('GET', `/accounts/${ACCOUNT}/alerting/v3/policies/${notif.id}`)).status).toBe(200);
    expect((await testCall(t, 'GET', `/accounts/${ACCOUNT}/alerts`)).body.result.alerts).toHaveLength(1);
  });
});
