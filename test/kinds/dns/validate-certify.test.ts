/**
 * `zoneplan validate` takes a plain record (src/kinds/dns/certify.ts) without the general rules
 * (validate.ts's plainRecord). That shortcut may only say what the general rules (checkOne) would
 * say: valid, nothing to report, and the same normalised record. Generated records, biased to the
 * edges of every rule and beyond, are checked both ways.
 */
import { describe, expect, it } from 'vitest';
import { zoneOf } from '../../../src/kinds/dns/certify.js';
import { checkOne, plainRecord } from '../../../src/kinds/dns/validate.js';
import type { ValidateContext } from '../../../src/core/kind.js';
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
});
