/**
 * The kinds' `export.unmanaged` on tables of (files' value, live) pairs, no I/O: a live object is
 * managed exactly when the kind's planner pairs it (renames included), duplicates of a managed
 * identity stay with the files, and a setting is managed when the files set it.
 */
import { describe, expect, it } from 'vitest';
import { normLive } from '../../src/kinds/dns/normalize.js';
import { unmanagedDns } from '../../src/kinds/dns/unmanaged.js';
import type { LiveJob } from '../../src/kinds/logpush/jobs.js';
import { unmanagedLogpush } from '../../src/kinds/logpush/unmanaged.js';
import type { LivePolicy as LbPolicy } from '../../src/kinds/load-balancing/model.js';
import { unmanagedLoadBalancing } from '../../src/kinds/load-balancing/unmanaged.js';
import type { LivePolicy } from '../../src/kinds/page-shield/policies.js';
import { unmanagedPageShield } from '../../src/kinds/page-shield/unmanaged.js';

const ZONE = 'example.com';
const owner = { scope: 'zone' as const, name: ZONE, id: 'z1' };
let n = 0;
const record = (raw: Record<string, unknown>) =>
  normLive({ id: `id${++n}`, ttl: 1, proxied: false, comment: null, tags: [], meta: {}, ...raw }, ZONE);
const names = (part: { live?: unknown }) =>
  ((part.live as { records: { name: string; value: string }[] } | undefined)?.records ?? []).map(
    (r) => `${r.name} ${r.value}`,
  );

describe('dns', () => {
  const live = {
    records: [
      record({ name: 'www.example.com', type: 'A', content: '192.0.2.1' }),
      record({ name: 'www.example.com', type: 'A', content: '192.0.2.2' }),
      record({ name: 'old.example.com', type: 'CNAME', content: 'example.net' }),
      record({ name: 'keep.example.com', type: 'TXT', content: 'hello' }),
    ],
    serviceManaged: [],
  };

  it('leaves out what the planner pairs: by value first, then in value order; renames too', () => {
    const desired = {
      records: [
        { name: 'www', type: 'A', content: '192.0.2.9', path: 'r0' },
        { name: 'new', type: 'CNAME', content: 'example.net', renamed_from: 'old', path: 'r1' },
      ],
    };
    const part = unmanagedDns(live, desired, owner);
    // `www A 192.0.2.9` pairs with the first live A in value order (an update): the second is left
    expect(names(part)).toEqual(['www.example.com 192.0.2.2', 'keep.example.com hello']);
    expect(part.managed).toBe(2);
  });

  it('writes a record the files only ignore, and nothing when every record is paired', () => {
    const ignoring = { records: [], ignore: [{ name: 'keep', type: 'TXT' }] };
    expect(names(unmanagedDns(live, ignoring, owner))).toContain('keep.example.com hello');
    const all = {
      records: live.records.map((r, i) => ({ name: r.name, type: r.type, content: r.value, path: `r${i}` })),
    };
    expect(unmanagedDns(live, all, owner)).toEqual({ live: undefined, managed: 4 });
  });
});

describe('page_shield', () => {
  const policy = (id: string, description: string): LivePolicy => ({
    id,
    description,
    action: 'log',
    expression: 'true',
    value: "script-src 'self'",
    enabled: true,
  });
  const live = { enabled: true, policies: [policy('a', 'one'), policy('b', 'one'), policy('c', 'two')] };
  const want = (description: string, extra = {}) => ({
    description,
    action: 'log' as const,
    expression: 'true',
    value: "script-src 'self'",
    path: 'p',
    ...extra,
  });

  it('leaves out a paired policy and its duplicates; the switch when the files set it', () => {
    const part = unmanagedPageShield(live, { enabled: false, policies: [want('one')] });
    expect(part.live).toMatchObject({ enabled: undefined, policies: [{ id: 'c' }] });
    expect(part.managed).toBe(2);
  });

  it('follows renames, and writes every policy when the files name none', () => {
    const renamed = unmanagedPageShield(live, { policies: [want('deux', { renamed_from: 'two' })] });
    expect(renamed.live).toMatchObject({ enabled: true, policies: [{ id: 'a' }, { id: 'b' }] });
    const switchOnly = unmanagedPageShield(live, { enabled: true });
    expect(switchOnly.live).toMatchObject({ enabled: undefined, policies: live.policies });
  });
});

describe('logpush', () => {
  const job = (id: number, name: string): LiveJob =>
    ({ id, name, named: name !== '', dataset: 'http_requests', destination_conf: 'r2://b' }) as LiveJob;
  const live = [job(1, 'a'), job(2, 'a'), job(3, ''), job(4, 'old'), job(5, 'c')];
  const want = (name: string, extra = {}) => ({
    name,
    dataset: 'http_requests',
    destination_conf: 'r2://b',
    path: 'j',
    ...extra,
  });

  it('leaves out jobs of a paired name (renames included); a job without a name is never paired', () => {
    const part = unmanagedLogpush(live, { jobs: [want('a'), want('new', { renamed_from: 'old' })] });
    expect((part.live as LiveJob[]).map((j) => j.id)).toEqual([3, 5]);
    expect(part.managed).toBe(3);
  });
});

describe('load_balancing', () => {
  const policy = (id: string, name: string, alert_type = 'load_balancing_health_alert'): LbPolicy =>
    ({ id, name, alert_type, enabled: true, filters: {}, mechanisms: {} }) as LbPolicy;
  const live = {
    accountId: 'acc',
    pools: [],
    policies: [policy('1', 'Pool Health'), policy('2', 'other', 'billing_usage_alert')],
  };

  it('pairs names without regard to case, and leaves nothing when only other alert types remain', () => {
    const part = unmanagedLoadBalancing(live, {
      notifications: [{ name: 'pool health', alert_type: 'load_balancing_health_alert' }],
    });
    expect(part).toEqual({ live: undefined, managed: 1 });
    const none = unmanagedLoadBalancing(live, { notifications: [] });
    expect((none.live as { policies: LbPolicy[] }).policies.map((p) => p.id)).toEqual(['1', '2']);
  });
});
