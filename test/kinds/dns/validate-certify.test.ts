/**
 * `zoneplan validate` takes a plain record (src/kinds/dns/certify.ts) without the general rules
 * (validate.ts's plainRecord). That shortcut may only say what the general rules (checkOne) would
 * say: valid, nothing to report, and the same normalised record. Generated records, biased to the
 * edges of every rule and beyond, are checked both ways. The JSON Schema check sees a stand-in for
 * each plain record (dnsSchemaView): it must find exactly the problems it finds in the records, and
 * the verdicts it leaves must be certify's own.
 */
import { describe, expect, it } from 'vitest';
import { certify, zoneOf } from '../../../src/kinds/dns/certify.js';
import { checkOne, plainRecord } from '../../../src/kinds/dns/validate.js';
import { certifiedVerdicts } from '../../../src/kinds/dns/schema-view.js';
import type { ValidateContext } from '../../../src/core/kind.js';
import { checkSchema } from '../../../src/config/schema-check.js';
import { schemaViewOf } from '../../../src/config/schema-view.js';
import { NAMES, ZONES, entry, rng, zoneRecords, type Entry } from '../../support/dns-entries.js';

/** checkOne's verdict on one record, with everything it reported. */
function fully(e: Entry, zone: string, index: number) {
  const said: string[] = [];
  const ctx: ValidateContext = {
    path: 'zones[0].dns',
    owner: { name: zone },
    document: {},
    error: (path, message) => said.push(`error ${path}: ${message}`),
    warn: (path, message) => said.push(`warning ${path}: ${message}`),
    schemaFailed: () => false,
  };
  return { checked: checkOne(e, `records[${index}]`, index, zone, ctx), said };
}

const RUNS = Number(process.env.DNS_CHECK_RUNS ?? 1500);

describe("validate's plain records", () => {
  it('are exactly what the general rules make of them, with nothing to report', () => {
    let plain = 0;
    let total = 0;
    const check = (e: Entry, zone: string, index: number, seed: number) => {
      total++;
      const quick = plainRecord(e, index, zoneOf(zone));
      if (!quick) return;
      plain++;
      const { checked, said } = fully(e, zone, index);
      expect({ seed, e, said, checked: quick }).toEqual({ seed, e, said: [], checked });
    };
    for (let seed = 1; seed <= RUNS * 3; seed++) {
      const r = rng(seed * 7919);
      const zone = r.pick(ZONES);
      check(entry(r, zone, NAMES, r.pick([0, 0.1, 0.3, 0.6])), zone, seed % 7, seed);
    }
    for (let seed = 1; seed <= RUNS; seed++) {
      const r = rng(seed);
      const zone = r.pick(ZONES);
      zoneRecords(r, zone).forEach((e, i) => check(e, zone, i, seed));
    }
    // the comparison means something only if most plain-looking records take the shortcut
    expect(plain / total).toBeGreaterThan(0.5);
  });

  it('leave a TTL under a free zone minimum to the general rules, which warn about it', () => {
    const zone = 'unit.example';
    for (const ttl of [30, 45, 59]) {
      const e = { name: 'www', type: 'A', content: '192.0.2.1', ttl };
      expect(plainRecord(e, 0, zoneOf(zone))).toBeUndefined();
      expect(fully(e, zone, 0).said).toEqual([
        'warning records[0].ttl: a TTL under 60 seconds is accepted only on Enterprise zones',
      ]);
    }
    expect(plainRecord({ name: 'www', type: 'A', content: '192.0.2.1', ttl: 60 }, 0, zoneOf(zone))).toEqual(
      fully({ name: 'www', type: 'A', content: '192.0.2.1', ttl: 60 }, zone, 0).checked,
    );
  });

  it('stand in for themselves in the schema check, which finds exactly what it finds in them', () => {
    let replaced = 0;
    let emptied = 0;
    for (let seed = 1; seed <= RUNS; seed++) {
      const r = rng(seed * 31);
      const zone = r.pick(ZONES);
      const owner: Entry = { name: r.chance(0.05) ? r.pick([5, 'Bad Zone', '']) : zone };
      if (r.chance(0.1)) owner.extra = true;
      const records = zoneRecords(r, zone);
      const dns: Entry = { records };
      if (r.chance(0.1)) dns.purge = r.pick([false, 'no']);
      const document = { version: 1, zones: [{ name: 'other.example' }, { ...owner, dns }] };
      const before = JSON.stringify(document);
      const view = schemaViewOf(document);
      expect(JSON.stringify(document)).toBe(before);
      if (view !== document) replaced++;
      // every record plain: the schema sees none of them
      const seen = (view as { zones: Entry[] }).zones[1].dns as Entry | undefined;
      if (records.length > 0 && Array.isArray(seen?.records) && seen.records.length === 0) emptied++;
      expect({ seed, problems: checkSchema(view) }).toEqual({ seed, problems: checkSchema(document) });
      // the verdicts left for validate are certify's, for this list and zone only, and given once
      if (typeof owner.name !== 'string') continue;
      expect(certifiedVerdicts([...records], owner.name)).toBeUndefined();
      const verdicts = certifiedVerdicts(records, owner.name);
      expect(verdicts).toEqual(records.map((e, i) => certify(e as Entry, zoneOf(owner.name as string), i)));
      expect(certifiedVerdicts(records, owner.name)).toBeUndefined();
      schemaViewOf(document);
      expect(certifiedVerdicts(records, `x${owner.name}`)).toBeUndefined();
    }
    expect(replaced / RUNS).toBeGreaterThan(0.5);
    expect(emptied / RUNS).toBeGreaterThan(0.03);
  });
});
