/**
 * The record model (src/rules/dns/model.ts, fields.ts) is the one description of a record: every
 * shared field it declares goes through each place derived from it, and each type's declaration
 * is what the rules and the schema say of that type. A field added to MANAGED_FIELDS is covered
 * here with no new case (a sample value per kind): the file check and its diagnostics, the fast
 * check, the planner, the local API (stored, returned, kept by a PATCH) and export.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certify, zoneOf } from '../../../src/kinds/dns/certify.js';
import type { DesiredRecord } from '../../../src/kinds/dns/desired.js';
import { recordEntry } from '../../../src/kinds/dns/export.js';
import { normLive } from '../../../src/kinds/dns/normalize.js';
import { planDns, type DnsStepData } from '../../../src/kinds/dns/plan.js';
import { dnsSchema } from '../../../src/kinds/dns/schema.js';
import {
  BODY_FIELDS,
  MANAGED_FIELDS,
  PRIORITY_TYPES,
  PROXIABLE_TYPES,
  RECORD_MODEL,
  RECORD_TYPES,
  checkRecord,
  hasData,
  type ManagedField,
} from '../../../src/rules/dns/index.js';
import { lint, zoneWith } from '../../config/helpers.js';
import { createZone, startTestServer, type TestServer } from '../../server/helpers.js';

const ZONE = 'example.com';

/** A value of each kind the rules accept, another one, and one they refuse. */
const SAMPLES: Record<ManagedField['kind'], { good: unknown; other: unknown; bad: unknown }> = {
  note: { good: 'kept by the model', other: 'another note', bad: 5 },
  tags: { good: ['team:dns'], other: ['team:web'], bad: 'team:dns' },
  settings: { good: { ipv4_only: true }, other: { ipv4_only: false }, bad: 'on' },
};

const base = { name: 'www', type: 'A', content: '192.0.2.1' };

let t: TestServer;
let records: string;
beforeAll(async () => {
  t = await startTestServer();
  // a paid plan: the shared fields include tags, which the Free plan refuses
  records = `/zones/${await createZone(t, ZONE, 'pro')}/dns_records`;
});
afterAll(() => t.close());

describe.each(MANAGED_FIELDS.map((f) => [f.name, f] as const))('the shared field `%s`', (name, field) => {
  const { good, other, bad } = SAMPLES[field.kind];

  it('is in the schema and in the record body, and the rules store it', () => {
    const props = (dnsSchema as { properties: { records: { items: { properties: object } } } }).properties
      .records.items.properties;
    expect(Object.keys(props)).toContain(name);
    expect(BODY_FIELDS).toContain(name);
    const checked = checkRecord({ ...base, [name]: good }, { name: ZONE, plan: 'enterprise' });
    expect('record' in checked && (checked.record as unknown as Record<string, unknown>)[name]).toEqual(good);
  });

  it('validates in a file, and a bad value is reported at its key', async () => {
    const flow = (v: unknown) => JSON.stringify({ ...base, [name]: v });
    expect(await lint(zoneWith([flow(good)]))).toEqual([]);
    const problems = await lint(zoneWith([flow(bad)]));
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => p.includes(`records[0].${name}`))).toBe(true);
  });

  it('keeps a plain record on the fast check', () => {
    expect(certify({ ...base, [name]: good }, zoneOf(ZONE), 0)).toBeDefined();
  });

  it('is planned when it differs, and only then', () => {
    const desired = { ...base, [name]: good, path: 'x' } as DesiredRecord;
    const live = (extra: Record<string, unknown>) =>
      normLive({ id: 'id1', ...base, name: `www.${ZONE}`, ttl: 1, proxied: false, ...extra }, ZONE);
    const steps = planDns({ zone: ZONE, desired: { records: [desired] }, live: [live({ [name]: other })] });
    expect(steps).toHaveLength(1);
    expect((steps[0]!.data as Extract<DnsStepData, { op: 'patch' }>).fields).toEqual({ [name]: good });
    expect(planDns({ zone: ZONE, desired: { records: [desired] }, live: [live({ [name]: good })] })).toEqual(
      [],
    );
  });

  it('is stored and returned by the local API, kept by a PATCH, and exported', async () => {
    const created = await t.api('POST', records, { ...base, name: `m-${name}`, [name]: good });
    expect(created.body.success).toBe(true);
    expect(created.body.result[name]).toEqual(good);
    const patched = await t.api('PATCH', `${records}/${created.body.result.id}`, { content: '192.0.2.2' });
    expect(patched.body.result[name]).toEqual(good);
    expect(recordEntry(normLive(patched.body.result, ZONE), ZONE)[name]).toEqual(good);
  });
});

describe('the record types', () => {
  it('are the model’s, in its order, with its proxy, priority and data declarations', () => {
    expect(RECORD_TYPES).toEqual(Object.keys(RECORD_MODEL));
    for (const [type, m] of Object.entries(RECORD_MODEL) as [string, (typeof RECORD_MODEL)['A']][]) {
      const model = m as { proxiable?: boolean; priority?: string; data?: unknown };
      expect(PROXIABLE_TYPES.has(type)).toBe(model.proxiable === true);
      expect(PRIORITY_TYPES.has(type)).toBe(model.priority !== undefined);
      expect(hasData(type)).toBe(model.data !== undefined);
    }
  });
});
