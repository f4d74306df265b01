/**
 * planDns on tables of (desired, live) pairs: every normalisation, the pairing rules, purge and
 * ignore, server-managed records, and the ordering dependencies. No I/O.
 */
import { describe, expect, it } from 'vitest';
import type { DesiredRecord } from '../../../src/kinds/dns/desired.js';
import { canonicalIpv6, fqdn, isServiceManaged, normLive } from '../../../src/kinds/dns/normalize.js';
import { planDns } from '../../../src/kinds/dns/plan.js';
import { lastAddressGuard } from '../../../src/kinds/dns/runtime.js';
import { checkRecord } from '../../../src/rules/dns/index.js';

const ZONE = 'example.com';
let n = 0;
const rec = (r: Partial<DesiredRecord> & { name: string; type: string }): DesiredRecord => ({
  path: 'x',
  ...r,
});
const live = (raw: Record<string, unknown>) =>
  normLive({ id: `id${++n}`, ttl: 1, proxied: false, comment: null, tags: [], meta: {}, ...raw }, ZONE);
const plan = (records: DesiredRecord[], liveRecs: ReturnType<typeof live>[], extra = {}) =>
  planDns({ zone: ZONE, desired: { records, ...extra }, live: liveRecs });

describe('normalisation: equivalent spellings plan to nothing', () => {
  const cases: [string, DesiredRecord, Record<string, unknown>][] = [
    [
      '@ vs apex',
      rec({ name: '@', type: 'A', content: '192.0.2.1' }),
      { name: 'example.com', type: 'A', content: '192.0.2.1' },
    ],
    [
      'FQDN with trailing dot',
      rec({ name: 'www.example.com.', type: 'A', content: '192.0.2.1' }),
      { name: 'www.example.com', type: 'A', content: '192.0.2.1' },
    ],
    [
      'name case',
      rec({ name: 'WWW', type: 'A', content: '192.0.2.1' }),
      { name: 'www.Example.com', type: 'A', content: '192.0.2.1' },
    ],
    [
      'IPv6 forms',
      rec({ name: 'v6', type: 'AAAA', content: '2001:0DB8:0000:0000:0000:0000:0000:0001' }),
      { name: 'v6.example.com', type: 'AAAA', content: '2001:db8::1' },
    ],
    [
      'CNAME target dot and case',
      rec({ name: 'www', type: 'CNAME', content: 'Example.COM.' }),
      { name: 'www.example.com', type: 'CNAME', content: 'example.com' },
    ],
    [
      'proxied TTL auto 1 vs 300',
      rec({ name: 'p', type: 'A', content: '192.0.2.1', proxied: true }),
      { name: 'p.example.com', type: 'A', content: '192.0.2.1', proxied: true, ttl: 300 },
    ],
    [
      'comment null vs absent',
      rec({ name: 'c', type: 'A', content: '192.0.2.1', comment: null }),
      { name: 'c.example.com', type: 'A', content: '192.0.2.1', comment: undefined },
    ],
    [
      'tag order',
      rec({ name: 't', type: 'A', content: '192.0.2.1', tags: ['b:2', 'a:1'] }),
      { name: 't.example.com', type: 'A', content: '192.0.2.1', tags: ['a:1', 'b:2'] },
    ],
    [
      'comment unmanaged when the file omits it',
      rec({ name: 'u', type: 'A', content: '192.0.2.1' }),
      { name: 'u.example.com', type: 'A', content: '192.0.2.1', comment: 'set by hand', tags: ['x:1'] },
    ],
    [
      'server-set fields',
      rec({ name: 's', type: 'A', content: '192.0.2.1' }),
      {
        name: 's.example.com',
        type: 'A',
        content: '192.0.2.1',
        proxiable: true,
        created_on: '2024-01-01T00:00:00Z',
        modified_on: '2024-02-01T00:00:00Z',
        zone_id: 'z',
        zone_name: ZONE,
      },
    ],
    [
      'SRV data target dot',
      rec({
        name: '_sip._tcp',
        type: 'SRV',
        data: { priority: 10, weight: 5, port: 5060, target: 'SIP.example.com.' },
      }),
      {
        name: '_sip._tcp.example.com',
        type: 'SRV',
        content: '5 5060 sip.example.com',
        priority: 10,
        data: { port: 5060, priority: 10, target: 'sip.example.com', weight: 5 },
      },
    ],
    [
      'TXT quoted',
      rec({ name: '@', type: 'TXT', content: 'v=spf1 -all' }),
      { name: 'example.com', type: 'TXT', content: '"v=spf1 -all"' },
    ],
  ];
  it.each(cases)('%s', (_label, desired, raw) => {
    expect(plan([desired], [live(raw)])).toEqual([]);
  });

  it('canonicalIpv6 follows RFC 5952', () => {
    expect(canonicalIpv6('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(canonicalIpv6('::ffff:192.0.2.1')).toBe('::ffff:c000:201');
    expect(canonicalIpv6('2001:DB8::')).toBe('2001:db8::');
    expect(canonicalIpv6('not-an-ip')).toBe('not-an-ip');
  });

  it('fqdn maps every spelling of a name to one', () => {
    expect(['@', 'example.com', 'EXAMPLE.com.', ''].map((x) => fqdn(x, ZONE))).toEqual(Array(4).fill(ZONE));
    expect(fqdn('*.dev', ZONE)).toBe('*.dev.example.com');
  });
});

describe('pairing', () => {
  it('a changed value is one in-place update, not delete + create', () => {
    const steps = plan(
      [rec({ name: 'www', type: 'A', content: '192.0.2.2' })],
      [live({ name: 'www.example.com', type: 'A', content: '192.0.2.1' })],
    );
    expect(steps.map((s) => [s.action, s.data])).toEqual([
      ['update', { op: 'patch', id: `id${n}`, fields: { content: '192.0.2.2', type: 'A' } }],
    ]);
  });

  it('exact matches pair first; the rest pair in order; only the surplus is created or deleted', () => {
    const l = [
      live({ name: 'mx.example.com', type: 'A', content: '192.0.2.1' }),
      live({ name: 'mx.example.com', type: 'A', content: '192.0.2.9' }),
      live({ name: 'mx.example.com', type: 'A', content: '192.0.2.8' }),
    ];
    const steps = plan(
      [
        rec({ name: 'mx', type: 'A', content: '192.0.2.1' }),
        rec({ name: 'mx', type: 'A', content: '192.0.2.3' }),
      ],
      l,
    );
    expect(
      steps.map(
        (s) =>
          `${s.action} ${s.liveId ?? ''} ${JSON.stringify((s.after as { content?: string })?.content ?? null)}`,
      ),
    ).toEqual([`update ${l[2].id} "192.0.2.3"`, `delete ${l[1].id} null`]);
  });

  it('two SRVs that differ only in priority are two records', () => {
    const d = (priority: number) =>
      rec({ name: '_s._tcp', type: 'SRV', data: { priority, weight: 1, port: 1, target: 'a.example.com' } });
    const steps = plan(
      [d(10), d(20)],
      [
        live({
          name: '_s._tcp.example.com',
          type: 'SRV',
          data: { priority: 10, weight: 1, port: 1, target: 'a.example.com' },
        }),
      ],
    );
    expect(steps.map((s) => s.action)).toEqual(['create']);
  });

  it('ttl, proxied, comment and tags changes show as field changes', () => {
    const steps = plan(
      [rec({ name: 'a', type: 'A', content: '192.0.2.1', ttl: 600, comment: 'new', tags: ['k:v'] })],
      [live({ name: 'a.example.com', type: 'A', content: '192.0.2.1', ttl: 300, comment: 'old' })],
    );
    expect(steps).toHaveLength(1);
    expect((steps[0].data as { fields: unknown }).fields).toEqual({
      ttl: 600,
      comment: 'new',
      tags: ['k:v'],
    });
  });

  it('keys are stable across re-plans of the same state', () => {
    const l = [live({ name: 'x.example.com', type: 'A', content: '192.0.2.1' })];
    const d = [
      rec({ name: 'y', type: 'A', content: '192.0.2.2' }),
      rec({ name: 'x', type: 'A', content: '192.0.2.5' }),
    ];
    expect(plan(d, l).map((s) => s.key)).toEqual(plan(d, l).map((s) => s.key));
  });
});

describe('purge, ignore and service-managed records', () => {
  const extra = live({ name: 'old.example.com', type: 'A', content: '192.0.2.7' });
  const keep = rec({ name: 'www', type: 'A', content: '192.0.2.1' });
  const kept = () => live({ name: 'www.example.com', type: 'A', content: '192.0.2.1' });

  it('purge (default) deletes records the file does not name', () => {
    expect(plan([keep], [kept(), extra]).map((s) => s.action)).toEqual(['delete']);
  });
  it('purge: false leaves them', () => {
    expect(plan([keep], [kept(), extra], { purge: false })).toEqual([]);
  });
  it('ignore patterns leave matching records alone', () => {
    const acme = live({ name: '_acme-challenge.example.com', type: 'TXT', content: 'token' });
    expect(plan([keep], [kept(), acme], { ignore: [{ name: '_acme-challenge*', type: 'TXT' }] })).toEqual([]);
    expect(plan([keep], [kept(), acme], { ignore: [{ name: '_acme-challenge*', type: 'A' }] })).toHaveLength(
      1,
    );
  });
  it.each([
    ['auto_added', { meta: { auto_added: true } }],
    ['managed_by_apps', { meta: { managed_by_apps: true } }],
    ['managed_by_argo_tunnel', { meta: { managed_by_argo_tunnel: true } }],
    ['locked', { locked: true }],
  ])('%s records are service-managed', (_l, extra2) => {
    expect(isServiceManaged({ name: 'a.example.com', type: 'A', ...extra2 }, ZONE)).toBe(true);
  });
  it('apex NS is service-managed; delegated NS is not (the record list holds no SOA)', () => {
    expect(isServiceManaged({ name: ZONE, type: 'NS' }, ZONE)).toBe(true);
    expect(isServiceManaged({ name: 'sub.example.com', type: 'NS' }, ZONE)).toBe(false);
  });
});

describe('ordering dependencies', () => {
  it('a CNAME is created after its target', () => {
    const steps = plan(
      [
        rec({ name: 'app', type: 'A', content: '192.0.2.1' }),
        rec({ name: 'www', type: 'CNAME', content: 'app.example.com' }),
      ],
      [],
    );
    const cname = steps.find((s) => s.address.startsWith('www'))!;
    const target = steps.find((s) => s.address.startsWith('app'))!;
    expect(cname.dependsOn).toEqual([target.key]);
  });
  it('a CNAME is deleted before its target', () => {
    const steps = plan(
      [rec({ name: '@', type: 'A', content: '192.0.2.1' })],
      [
        live({ name: 'example.com', type: 'A', content: '192.0.2.1' }),
        live({ name: 'app.example.com', type: 'A', content: '192.0.2.2' }),
        live({ name: 'www.example.com', type: 'CNAME', content: 'app.example.com' }),
      ],
    );
    const target = steps.find((s) => s.address.startsWith('app'))!;
    const cname = steps.find((s) => s.address.startsWith('www'))!;
    expect(target.dependsOn).toEqual([cname.key]);
  });
  it('a CNAME replacing an A at the same name deletes the A first', () => {
    const steps = plan(
      [
        rec({ name: '@', type: 'A', content: '192.0.2.1' }),
        rec({ name: 'www', type: 'CNAME', content: 'example.com' }),
      ],
      [
        live({ name: 'example.com', type: 'A', content: '192.0.2.1' }),
        live({ name: 'www.example.com', type: 'A', content: '192.0.2.5' }),
      ],
    );
    const del = steps.find((s) => s.action === 'delete')!;
    expect(steps.find((s) => s.action === 'create')!.dependsOn).toContain(del.key);
  });
  it('address creates come before address deletes when nothing else keeps the zone resolvable', () => {
    const steps = plan(
      [rec({ name: '@', type: 'AAAA', content: '2001:db8::1' })],
      [live({ name: 'example.com', type: 'A', content: '192.0.2.1' })],
    );
    const create = steps.find((s) => s.action === 'create')!;
    expect(steps.find((s) => s.action === 'delete')!.dependsOn).toEqual([create.key]);
  });
  it('leaving a zone with no address record needs --force', () => {
    const l = {
      records: [live({ name: 'example.com', type: 'A', content: '192.0.2.1' })],
      serviceManaged: [],
    };
    const steps = plan([rec({ name: '@', type: 'TXT', content: 'x' })], l.records);
    expect(lastAddressGuard(l, steps)).toHaveLength(1);
  });
});

describe('priority beside data (URI) and beside content (MX)', () => {
  /** What the API stores for a POST body (the local API runs the same record rules), as read back. */
  const stored = (body: Record<string, unknown>) => {
    const r = checkRecord(body, { name: ZONE, plan: 'free' });
    if (!('record' in r)) throw new Error(JSON.stringify(r.violations));
    return live({ ...r.record, meta: {} });
  };
  const applied = (records: DesiredRecord[]) =>
    plan(records, []).map((s) => stored((s.data as { op: 'post'; record: Record<string, unknown> }).record));

  it('a URI record with priority, applied then re-planned, plans nothing', () => {
    const uri = rec({
      name: '_ftp._tcp',
      type: 'URI',
      data: { weight: 1, target: 'ftp://ftp.example.com/public' },
      priority: 10,
    });
    const first = plan([uri], []);
    expect(first.map((s) => s.action)).toEqual(['create']);
    expect((first[0].data as { record: { priority?: number } }).record.priority).toBe(10);
    const l = applied([uri]);
    expect(l[0].priority).toBe(10);
    expect(plan([uri], l)).toEqual([]);
  });

  it('a changed URI priority is an in-place update of the priority', () => {
    const uri = (priority: number) =>
      rec({ name: '_u', type: 'URI', data: { weight: 5, target: 'https://example.com/' }, priority });
    const steps = plan([uri(20)], applied([uri(10)]));
    expect(steps.map((s) => s.action)).toEqual(['update']);
    expect((steps[0].data as { fields: unknown }).fields).toEqual({ priority: 20 });
  });

  it('MX keeps its priority; SRV compares the one inside data', () => {
    const mx = rec({ name: '@', type: 'MX', content: 'mail.example.com', priority: 10 });
    const srv = rec({
      name: '_s._tcp',
      type: 'SRV',
      data: { priority: 10, weight: 1, port: 1, target: 'a.example.com' },
    });
    const l = applied([mx, srv]);
    expect(l.find((r) => r.type === 'MX')?.priority).toBe(10);
    expect(l.find((r) => r.type === 'SRV')?.priority).toBeUndefined();
    expect(plan([mx, srv], l)).toEqual([]);
  });
});
