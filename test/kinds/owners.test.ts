/**
 * Owner markers (docs/sharing-a-zone.md) on tables, no I/O: the codec of each kind (comment or
 * tag of a DNS record, a Page Shield or notification description, a Logpush job name) and the
 * owner rule of each kind's plan: only own objects are planned and purged, another owner's object
 * is a collision naming that owner, an unmarked one needs `adopt: true`, and without `owner` a
 * marker is invisible and kept.
 */
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { lint, pos } from '../config/helpers.js';
import type { DesiredRecord } from '../../src/kinds/dns/desired.js';
import { normLive } from '../../src/kinds/dns/normalize.js';
import { decodeRecord, planOwnedDns, withoutRecordMarkers } from '../../src/kinds/dns/owners.js';
import type { DnsStepData } from '../../src/kinds/dns/plan.js';
import { planOwnedLoadBalancing } from '../../src/kinds/load-balancing/owners.js';
import { planLoadBalancing, type LbStepData } from '../../src/kinds/load-balancing/plan.js';
import { liveJobFromApi } from '../../src/kinds/logpush/jobs.js';
import {
  decodeJobName,
  encodeJobName,
  jobNameProblem,
  planOwnedLogpush,
} from '../../src/kinds/logpush/owners.js';
import { planLogpush } from '../../src/kinds/logpush/plan.js';
import type { DesiredCspPolicy } from '../../src/kinds/page-shield/desired.js';
import { planOwnedPageShield } from '../../src/kinds/page-shield/owners.js';
import { planPageShield, type PageShieldApplyData } from '../../src/kinds/page-shield/plan.js';
import { livePolicyFromApi } from '../../src/kinds/page-shield/policies.js';
import { decodeText, encodeText, ownerSettingsOf } from '../../src/kinds/shared/owners.js';

const ZONE = 'example.com';
const FREE = { plan: { legacy_id: 'free' } };
const PRO = { plan: { legacy_id: 'pro' } };

describe('the text marker (DNS comments, Page Shield and notification descriptions)', () => {
  it('ends the text after one space, stands alone on empty text, and reads back', () => {
    expect(encodeText('apex', 'platform')).toBe('apex [zoneplan-owner:platform]');
    expect(encodeText('', 'blog_2')).toBe('[zoneplan-owner:blog_2]');
    expect(encodeText('apex', undefined)).toBe('apex');
    expect(decodeText('apex [zoneplan-owner:platform]')).toEqual({ text: 'apex', owner: 'platform' });
    expect(decodeText('[zoneplan-owner:blog_2]')).toEqual({ text: '', owner: 'blog_2' });
  });

  it('counts only at the end: user text that merely mentions one is text', () => {
    expect(decodeText('[zoneplan-owner:a] apex')).toEqual({ text: '[zoneplan-owner:a] apex' });
    expect(decodeText('apex[zoneplan-owner:a]')).toEqual({ text: 'apex[zoneplan-owner:a]' });
  });

  it('entry settings: owner and adopt, nothing without owner', () => {
    expect(ownerSettingsOf({ owner: 'blog', adopt: true })).toEqual({ name: 'blog', adopt: true });
    expect(ownerSettingsOf({ adopt: true })).toBeUndefined();
  });
});

describe('the Logpush name marker', () => {
  it("ends the name; an owner's _ is written as . (names take no _) and reads back", () => {
    expect(encodeJobName('http-logs', 'platform_team')).toBe('http-logs.zoneplan-owner.platform.team');
    expect(decodeJobName('http-logs.zoneplan-owner.platform.team')).toEqual({
      text: 'http-logs',
      owner: 'platform_team',
    });
    expect(decodeJobName('zoneplan-owner.blog')).toEqual({ text: '', owner: 'blog' });
    expect(decodeJobName('http.logs')).toEqual({ text: 'http.logs' });
  });

  it('the 512-character limit counts the marker; a name holding the marker word is refused', () => {
    expect(jobNameProblem('a'.repeat(488), 'platform')).toBeUndefined();
    expect(jobNameProblem('a'.repeat(500), 'platform')).toMatch(
      /^is 500 characters, and with the marker of owner platform \(24 more\) 524; the API takes at most 512/,
    );
    expect(jobNameProblem('x.zoneplan-owner.y', undefined)).toMatch(/owner marker/);
  });
});

let n = 0;
const rec = (r: Partial<DesiredRecord> & { name: string; type: string }): DesiredRecord => ({
  path: `zones[0].dns.records[${n++}]`,
  ...r,
});
const live = (id: string, name: string, content: string, over: Record<string, unknown> = {}) =>
  normLive(
    {
      id,
      name: name === '@' ? ZONE : `${name}.${ZONE}`,
      type: 'A',
      content,
      ttl: 1,
      proxied: false,
      comment: null,
      tags: [],
      ...over,
    },
    ZONE,
  );

function dns(
  records: DesiredRecord[],
  liveRecords: ReturnType<typeof live>[],
  owner?: { name: string; adopt?: boolean },
  zoneInfo: Record<string, unknown> = FREE,
) {
  return planOwnedDns({
    zone: ZONE,
    desired: { purge: true, records },
    live: liveRecords,
    zoneInfo,
    owner: owner && { name: owner.name, adopt: owner.adopt === true },
  }).map((d) => [d.action, d.liveId ?? '', d.data as DnsStepData] as const);
}

describe('DNS records', () => {
  it('reads the marker from a tag first, else from the end of the comment', () => {
    const tagged = live('r1', 'www', '192.0.2.1', { tags: ['zoneplan-owner:blog', 'team:web'] });
    expect(decodeRecord(tagged)).toMatchObject({
      owner: 'blog',
      place: 'tags',
      user: { tags: ['team:web'] },
    });
    const commented = live('r2', 'www', '192.0.2.1', { comment: 'web [zoneplan-owner:blog]' });
    expect(decodeRecord(commented)).toMatchObject({
      owner: 'blog',
      place: 'comment',
      user: { comment: 'web' },
    });
  });

  it('creates carry a comment marker on Free and a tag on a paid plan', () => {
    const www = rec({ name: 'www', type: 'A', content: '192.0.2.1', comment: 'web' });
    const [free] = dns([www], [], { name: 'platform' });
    expect(free![2]).toMatchObject({ op: 'post', record: { comment: 'web [zoneplan-owner:platform]' } });
    const [pro] = dns([www], [], { name: 'platform' }, PRO);
    expect(pro![2]).toMatchObject({
      op: 'post',
      record: { comment: 'web', tags: ['zoneplan-owner:platform'] },
    });
  });

  it("purges only own records; another owner's and unmarked ones the file does not name stay", () => {
    const steps = dns(
      [rec({ name: '@', type: 'A', content: '192.0.2.1' })],
      [
        live('own', '@', '192.0.2.1', { comment: '[zoneplan-owner:platform]' }),
        live('gone', 'old', '192.0.2.5', { comment: '[zoneplan-owner:platform]' }),
        live('theirs', 'blog', '192.0.2.2', { comment: '[zoneplan-owner:blog]' }),
        live('certbot', '_acme-challenge', 'token', { type: 'TXT' }),
      ],
      { name: 'platform' },
    );
    expect(steps.map(([action, id]) => `${action} ${id}`)).toEqual(['delete gone']);
  });

  it("a record with another owner's identity, or a CNAME beside its record, names that owner", () => {
    const attempt = () =>
      dns(
        [
          rec({ name: 'blog', type: 'A', content: '192.0.2.2' }),
          rec({ name: 'shop', type: 'CNAME', content: 'example.com' }),
        ],
        [
          live('b1', 'blog', '192.0.2.2', { tags: ['zoneplan-owner:blog'] }),
          live('b2', 'shop', '192.0.2.3', { tags: ['zoneplan-owner:blog'] }),
        ],
        { name: 'platform' },
        PRO,
      );
    expect(attempt).toThrow(UserError);
    expect(attempt).toThrow(
      /blog A 192\.0\.2\.2 collides with the record blog A 192\.0\.2\.2 \(id b1\), which belongs to owner blog/,
    );
    expect(attempt).toThrow(/shop CNAME collides with owner blog's record shop A 192\.0\.2\.3 \(id b2\)/);
  });

  it('an unmarked record the file names needs adopt: true, which marks it beside the live comment', () => {
    const desired = [rec({ name: '@', type: 'A', content: '192.0.2.1' })];
    const found = [live('u1', '@', '192.0.2.1', { comment: 'by hand' })];
    expect(() => dns(desired, found, { name: 'platform' })).toThrow(/set adopt: true/);
    expect(dns(desired, found, { name: 'platform', adopt: true })).toEqual([
      ['update', 'u1', { op: 'patch', id: 'u1', fields: { comment: 'by hand [zoneplan-owner:platform]' } }],
    ]);
  });

  it('an own record keeps its marker when its comment changes, and is renamed with it', () => {
    const own = live('r1', 'old', '192.0.2.1', { comment: 'x [zoneplan-owner:platform]' });
    const steps = dns(
      [rec({ name: 'new', type: 'A', content: '192.0.2.1', comment: 'y', renamed_from: 'old' })],
      [own],
      { name: 'platform' },
    );
    expect(steps).toEqual([
      [
        'update',
        'r1',
        {
          op: 'patch',
          id: 'r1',
          fields: { comment: 'y [zoneplan-owner:platform]', name: 'new.example.com' },
        },
      ],
    ]);
  });

  it('a comment that fits alone but not with the marker is refused on the Free plan', () => {
    const long = rec({ name: 'www', type: 'A', content: '192.0.2.1', comment: 'c'.repeat(90) });
    expect(() => dns([long], [], { name: 'platform' })).toThrow(
      /the comment is 90 characters, and with the owner marker \(26 more\) 116; the zone's plan allows 100/,
    );
    expect(dns([long], [], { name: 'platform' }, PRO)).toHaveLength(1);
  });

  it('without owner a marker is invisible: no drift for it, and a write keeps it', () => {
    const marked = live('r1', 'www', '192.0.2.1', { comment: 'web [zoneplan-owner:blog]' });
    expect(dns([rec({ name: 'www', type: 'A', content: '192.0.2.1', comment: 'web' })], [marked])).toEqual(
      [],
    );
    const [step] = dns([rec({ name: 'www', type: 'A', content: '192.0.2.1', comment: 'site' })], [marked]);
    expect(step![2]).toEqual({ op: 'patch', id: 'r1', fields: { comment: 'site [zoneplan-owner:blog]' } });
    expect(withoutRecordMarkers({ records: [marked] })).toMatchObject({ records: [{ comment: 'web' }] });
  });
});

describe('Page Shield policies', () => {
  const policy = (description: string): DesiredCspPolicy => ({
    description,
    action: 'log',
    expression: 'http.host eq "example.com"',
    value: "script-src 'self'",
    path: 'zones[0].page_shield.policies[0]',
  });
  const livePolicy = (id: string, description: string) =>
    livePolicyFromApi({ id, ...policy(description), enabled: true })!;
  const plan = (
    desired: ReturnType<typeof policy>[],
    policies: ReturnType<typeof livePolicy>[],
    adopt = false,
  ) => {
    const value = { policies: desired };
    return planOwnedPageShield({
      desired: value,
      live: { enabled: true, policies },
      owner: { name: 'platform', adopt },
      zone: ZONE,
      locate: () => undefined,
      plan: (seen) => planPageShield(ZONE, value, seen),
    }).map((d) => [d.action, d.liveId ?? '', d.data as PageShieldApplyData] as const);
  };

  it('matches on the description without the marker; creates and purges only its own', () => {
    const steps = plan(
      [policy('csp'), policy('new')],
      [
        livePolicy('p1', 'csp [zoneplan-owner:platform]'),
        livePolicy('p2', 'old [zoneplan-owner:platform]'),
        livePolicy('p3', 'blog csp [zoneplan-owner:blog]'),
        livePolicy('p4', 'by hand'),
      ],
    );
    expect(steps.map(([a, id, d]) => `${a} ${id} ${'body' in d ? String(d.body.description) : ''}`)).toEqual([
      'create  new [zoneplan-owner:platform]',
      'delete p2 ',
    ]);
  });

  it("another owner's description is a collision; an unmarked one is adopted only with adopt: true", () => {
    expect(() => plan([policy('blog csp')], [livePolicy('p3', 'blog csp [zoneplan-owner:blog]')])).toThrow(
      /policy "blog csp" collides with policy "blog csp" \(id p3\), which belongs to owner blog/,
    );
    expect(() => plan([policy('by hand')], [livePolicy('p4', 'by hand')])).toThrow(/set adopt: true/);
    const [step] = plan([policy('by hand')], [livePolicy('p4', 'by hand')], true);
    expect(step![2]).toMatchObject({
      op: 'update',
      id: 'p4',
      body: { description: 'by hand [zoneplan-owner:platform]' },
    });
  });
});

describe('renamed_from keeps the marker', () => {
  it('a Page Shield policy and a Logpush job of the owner are renamed in place, marked', () => {
    const value = {
      policies: [
        {
          description: 'new csp',
          renamed_from: 'old csp',
          action: 'log' as const,
          expression: 'http.host eq "example.com"',
          value: "script-src 'self'",
          path: 'zones[0].page_shield.policies[0]',
        },
      ],
    };
    const own = livePolicyFromApi({
      id: 'p1',
      ...value.policies[0],
      description: 'old csp [zoneplan-owner:platform]',
      enabled: true,
    })!;
    const [policyStep] = planOwnedPageShield({
      desired: value,
      live: { enabled: true, policies: [own] },
      owner: { name: 'platform', adopt: false },
      zone: ZONE,
      locate: () => undefined,
      plan: (seen) => planPageShield(ZONE, value, seen),
    });
    expect(policyStep).toMatchObject({
      action: 'update',
      rename: { from: 'old csp', to: 'new csp' },
      data: { op: 'update', id: 'p1', body: { description: 'new csp [zoneplan-owner:platform]' } },
    });

    const jobs = {
      jobs: [
        {
          name: 'new-http',
          renamed_from: 'old-http',
          dataset: 'http_requests',
          destination_conf: 'https://logs.example/x',
          path: 'zones[0].logpush.jobs[0]',
        },
      ],
    };
    const job = liveJobFromApi({
      id: 7,
      name: 'old-http.zoneplan-owner.platform',
      dataset: 'http_requests',
      destination_conf: 'https://logs.example/x',
      enabled: true,
    })!;
    const [jobStep] = planOwnedLogpush({
      desired: jobs,
      live: [job],
      owner: { name: 'platform', adopt: false },
      zone: ZONE,
      locate: () => undefined,
      plan: (seen) => planLogpush(ZONE, jobs, seen),
    });
    expect(jobStep).toMatchObject({
      action: 'update',
      rename: { from: 'old-http', to: 'new-http' },
      data: { op: 'update', id: 7, body: { name: 'new-http.zoneplan-owner.platform' } },
    });
  });
});

describe('notification policies', () => {
  it('the marker ends the description; the name stays the identity', () => {
    const desired = {
      purge: true,
      notifications: [
        { name: 'alerts', alert_type: 'load_balancing_health_alert', email: ['ops@example.com'] },
      ],
    };
    const other = {
      id: 'n2',
      name: 'blog alerts',
      alert_type: 'load_balancing_health_alert',
      enabled: true,
      description: '[zoneplan-owner:blog]',
      filters: {},
      mechanisms: { email: [{ id: 'blog@example.com' }] },
    };
    const plan = (policies: (typeof other)[]) =>
      planOwnedLoadBalancing({
        desired,
        live: { accountId: 'a', pools: [], policies },
        owner: { name: 'platform', adopt: false },
        account: 'a',
        path: 'accounts[0].load_balancing',
        locate: () => undefined,
        plan: (seen) => planLoadBalancing(desired, seen, 'accounts[0].load_balancing'),
      });
    // the name matches without case, as the plan pairs names
    expect(() => plan([{ ...other, name: 'ALERTS' }])).toThrow(
      /notification policy "alerts" collides with notification policy "ALERTS" \(id n2\), which belongs to owner blog/,
    );
    const drafts = planOwnedLoadBalancing({
      desired,
      live: { accountId: 'a', pools: [], policies: [other] },
      owner: { name: 'platform', adopt: false },
      account: 'a',
      path: 'accounts[0].load_balancing',
      locate: () => undefined,
      plan: (seen) => planLoadBalancing(desired, seen, 'accounts[0].load_balancing'),
    });
    expect(
      drafts.map((d) => [
        d.action,
        (d.data as LbStepData & { body?: { description?: string } }).body?.description,
      ]),
    ).toEqual([['create', '[zoneplan-owner:platform]']]);
  });
});

describe('the file: owner and adopt, and user text that would read as a marker', () => {
  const file = (entry: string[], body: string[]) =>
    ['version: 1', 'zones:', '  - name: example.com', ...entry.map((l) => `    ${l}`), ...body, ''].join(
      '\n',
    );

  it('an owner name of other characters, and adopt without owner, are errors at their place', async () => {
    const bad = file(['owner: platform team'], []);
    expect(await lint(bad)).toEqual([
      `t.yaml:${pos(bad, 'platform team')}: zones[0].owner: expected an owner name: letters, digits, - and _, got the string "platform team"`,
    ]);
    const lone = file(['adopt: true'], []);
    expect(await lint(lone)).toEqual([
      `t.yaml:${pos(lone, 'adopt')}: zones[0].adopt: needs \`owner\` beside it`,
    ]);
  });

  it('a job name too long for the marker, and a description holding one, are refused at file:line:col', async () => {
    const src = file(
      ['owner: platform'],
      [
        '    logpush:',
        '      jobs:',
        `        - { name: ${'a'.repeat(500)}, dataset: http_requests, destination_conf: "https://logs.example/x" }`,
        '    page_shield:',
        '      policies:',
        '        - { description: "csp [zoneplan-owner:blog]", action: log, expression: \'http.host eq "example.com"\', value: "script-src \'self\'" }',
      ],
    );
    const out = await lint(src);
    expect(out).toContainEqual(
      `t.yaml:${pos(src, 'aaaa')}: zones[0].logpush.jobs[0].name: is 500 characters, and with the marker of owner platform (24 more) 524; the API takes at most 512: shorten it`,
    );
    expect(out).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^t\\.yaml:${pos(src, '"csp')}: zones\\[0\\]\\.page_shield\\.policies\\[0\\]\\.description: holds a "zoneplan-owner" marker`,
        ),
      ),
    );
  });
});

describe('legacy pool e-mails with owners', () => {
  it("another owner's policy still counts for the coverage of the e-mails it replaces", () => {
    const desired = { legacy_pool_emails: 'remove', notifications: [] };
    const theirs = {
      id: 'n9',
      name: 'pool health',
      alert_type: 'load_balancing_health_alert',
      enabled: true,
      description: '[zoneplan-owner:blog]',
      filters: {},
      mechanisms: { email: [{ id: 'ops@example.com' }] },
    };
    const pool = { id: 'p1', name: 'web', notification_email: 'ops@example.com', notification_filter: null };
    const drafts = planOwnedLoadBalancing({
      desired,
      live: { accountId: 'a', pools: [pool], policies: [theirs] },
      owner: { name: 'platform', adopt: false },
      account: 'a',
      path: 'accounts[0].load_balancing',
      locate: () => undefined,
      plan: (seen, kept) =>
        planLoadBalancing(desired, seen, 'accounts[0].load_balancing', undefined, undefined, kept),
    });
    expect(drafts.map((d) => `${d.action} ${d.address}`)).toEqual([
      'migrate legacy notification_email of 1 pool',
    ]);
  });
});
