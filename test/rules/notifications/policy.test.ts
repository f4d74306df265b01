import { describe, expect, it } from 'vitest';
import {
  checkNotificationEmail,
  isValidEmail,
  policyMatchesHealthEvent,
  splitNotificationEmail,
  validateNotificationPolicy,
} from '../../../src/rules/notifications/index.js';

const policy = {
  name: 'pool health',
  alert_type: 'load_balancing_health_alert',
  enabled: true,
  mechanisms: { email: [{ id: 'ops@example.com' }] },
  filters: { pool_id: ['p1'], new_health: ['Unhealthy', 'Healthy'], event_source: ['pool', 'origin'] },
};
const paths = (body: unknown, partial = false) =>
  validateNotificationPolicy(body, { partial, knownPoolIds: new Set(['p1', 'p2']) }).map((v) => v.path);

describe('notification policies', () => {
  it('accepts a load balancing health policy', () => {
    expect(paths(policy)).toEqual([]);
  });

  it('requires name, alert_type, enabled and mechanisms on create only', () => {
    expect(paths({})).toEqual(['name', 'alert_type', 'enabled', 'mechanisms']);
    expect(paths({ enabled: false }, true)).toEqual([]);
  });

  it('checks the health alert filters and the pools', () => {
    const f = (filters: object) => paths({ ...policy, filters });
    expect(f({ new_health: ['Down'] })).toEqual(['filters.new_health[0]']);
    expect(f({ event_source: ['pool', 'monitor'] })).toEqual(['filters.event_source[1]']);
    expect(f({ pool_id: ['p3'] })).toEqual(['filters.pool_id[0]']);
    expect(f({ pool_id: 'p1' })).toEqual(['filters.pool_id']);
  });

  it('does not apply health enums to other alert types', () => {
    expect(
      paths({ ...policy, alert_type: 'universal_ssl_event_type', filters: { new_health: ['x'] } }),
    ).toEqual([]);
  });

  it('checks alert type, enabled and mechanisms', () => {
    expect(paths({ ...policy, alert_type: 'nope' })).toEqual(['alert_type']);
    expect(paths({ ...policy, enabled: 'true' })).toEqual(['enabled']);
    expect(paths({ ...policy, mechanisms: { email: [{ id: 'not-an-address' }] } })).toEqual([
      'mechanisms.email[0].id',
    ]);
    expect(paths({ ...policy, mechanisms: { sms: [] } })).toEqual(['mechanisms.sms']);
    expect(paths({ ...policy, mechanisms: { webhooks: [{}] } })).toEqual(['mechanisms.webhooks[0].id']);
  });

  it('matches pool health events against filters; absent filters match all; disabled never fires', () => {
    const ev = { pool_id: 'p1', new_health: 'Unhealthy', event_source: 'pool' } as const;
    expect(policyMatchesHealthEvent(policy, ev)).toBe(true);
    expect(policyMatchesHealthEvent({ ...policy, filters: { pool_id: ['p2'] } }, ev)).toBe(false);
    expect(policyMatchesHealthEvent({ ...policy, filters: { new_health: ['Healthy'] } }, ev)).toBe(false);
    expect(policyMatchesHealthEvent({ ...policy, filters: {} }, ev)).toBe(true);
    expect(policyMatchesHealthEvent({ ...policy, enabled: false }, ev)).toBe(false);
    expect(policyMatchesHealthEvent({ ...policy, alert_type: 'dos_attack_l7' }, ev)).toBe(false);
  });
});

describe('e-mail addresses', () => {
  it('checks syntax', () => {
    for (const a of ['ops@example.com', 'first.last+tag@sub.example.co.uk'])
      expect(isValidEmail(a), a).toBe(true);
    for (const a of [
      '',
      'ops',
      '@example.com',
      'ops@',
      'ops@example',
      'a b@example.com',
      'ops@-x.com',
      'ops@x..com',
    ]) {
      expect(isValidEmail(a), a).toBe(false);
    }
  });

  it('splits a pool notification_email list', () => {
    expect(splitNotificationEmail('a@example.com, b@example.com,,')).toEqual([
      'a@example.com',
      'b@example.com',
    ]);
    expect(splitNotificationEmail('')).toEqual([]);
    expect(checkNotificationEmail('a@example.com,nope')).toEqual([
      { path: 'notification_email', message: '"nope" is not an e-mail address' },
    ]);
  });
});
