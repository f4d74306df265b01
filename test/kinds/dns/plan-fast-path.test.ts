/**
 * The planner compares a (name, type) that has one record a side on the file's values as written
 * (matchesLive, contentMatches), and normalises a record only when that quick look finds a
 * difference. That shortcut must never call two records equal when the full comparison would not:
 * here random pairs, in every spelling the normaliser knows, are held to an oracle that normalises
 * both sides and compares every managed field.
 */
import { expect, it } from 'vitest';
import { rng } from '../../support/scenario.js';
import type { DesiredRecord } from '../../../src/kinds/dns/desired.js';
import {
  canonicalJson,
  contentMatches,
  normContent,
  normDesired,
  normLive,
  valueOf,
  type LiveRecord,
} from '../../../src/kinds/dns/normalize.js';
import { planDns } from '../../../src/kinds/dns/plan.js';

const ZONE = 'example.com';
// seeded, so a failure can be replayed
const random = rng(7);
const rnd = (n: number): number => Math.floor(random() * n);
const pick = <T>(xs: readonly T[]): T => xs[rnd(xs.length)]!;

const CONTENT: Record<string, string[]> = {
  A: ['192.0.2.1', '192.0.2.01', ' 192.0.2.1', '192.0.2.2'],
  AAAA: ['2001:db8::1', '2001:DB8:0:0:0:0:0:1', '2001:db8::2'],
  CNAME: [
    'x.example.net',
    'X.example.net.',
    'x.example.net..',
    'x.example.net .',
    'x.example.net ',
    'y.example.net',
  ],
  MX: ['mx.example.net', 'MX.example.net.'],
  TXT: ['"hi"', 'hi', ' hi', '" hi"', 'hi ', '"hi "', '\u00a0hi', 'there'],
};
const TYPES = Object.keys(CONTENT);

function desired(type: string): DesiredRecord {
  const r: DesiredRecord = { name: pick(['www', 'WWW', 'www.example.com.']), type, path: 'x' };
  if (rnd(2)) r.type = type.toLowerCase();
  if (rnd(12) > 0) r.content = pick(CONTENT[type]!);
  if (rnd(3) === 0) r.proxied = rnd(2) === 0;
  if (rnd(3) === 0) r.ttl = pick([1, 300]);
  if (type === 'MX' && rnd(2)) r.priority = pick([10, 20]);
  if (rnd(4) === 0) r.comment = pick([null, '', 'c1']);
  if (rnd(6) === 0) r.tags = pick([[], ['b:1', 'a:1']]);
  if (rnd(8) === 0) r.settings = pick([{ flatten_cname: true }, {}]);
  if (rnd(10) === 0)
    r.data = pick([
      { target: 'T.x', port: 1 },
      { port: 1, target: 't.x' },
    ]);
  return r;
}

function live(type: string): LiveRecord {
  const raw: Record<string, unknown> = {
    id: 'id1',
    name: 'www.example.com',
    type,
    ttl: pick([1, 300]),
    proxied: rnd(2) === 0,
    comment: pick([null, 'c1']),
    tags: pick([[], ['a:1', 'b:1']]),
    meta: {},
  };
  if (rnd(10) === 0) raw.data = { port: 1, target: 't.x' };
  else raw.content = pick(CONTENT[type]!);
  if (type === 'MX') raw.priority = pick([10, 20]);
  if (rnd(6) === 0) raw.settings = { flatten_cname: pick([true, false]) };
  return normLive(raw, ZONE);
}

/** Whether the full comparison finds nothing to change (the oracle: both sides normalised). */
function sameAfterNormalising(d: DesiredRecord, l: LiveRecord): boolean {
  const w = normDesired(d, ZONE);
  const settingsView = () => {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(w.settings ?? {})) out[k] = l.settings?.[k] ?? null;
    return out;
  };
  return (
    valueOf(w) === l.value &&
    w.ttl === l.ttl &&
    w.proxied === l.proxied &&
    (w.priority === undefined || w.priority === l.priority) &&
    (w.comment === undefined || w.comment === l.comment) &&
    (w.tags === undefined || canonicalJson(w.tags) === canonicalJson(l.tags)) &&
    (w.settings === undefined || canonicalJson(w.settings) === canonicalJson(settingsView()))
  );
}

it('one record a side: no step exactly when the normalised records agree', () => {
  const seen = { same: 0, changed: 0 };
  for (let i = 0; i < 20_000; i++) {
    const type = pick(TYPES);
    const d = desired(type);
    const l = live(type);
    const steps = planDns({ zone: ZONE, desired: { records: [d] }, live: [l] });
    const same = sameAfterNormalising(d, l);
    expect(steps.length === 0, JSON.stringify({ d, l })).toBe(same);
    if (!same) expect(steps.map((s) => s.action)).toEqual(['update']);
    seen[same ? 'same' : 'changed']++;
  }
  // both outcomes are well represented, so the shortcut's "equal" answers were really tested
  expect(seen.same).toBeGreaterThan(500);
  expect(seen.changed).toBeGreaterThan(500);
});

it('contentMatches agrees with normalising the file content', () => {
  for (const [type, values] of Object.entries(CONTENT)) {
    for (const fileValue of values) {
      for (const liveContent of values) {
        const liveValue = normContent(type, liveContent)!;
        expect(contentMatches(type, fileValue, liveValue), `${type} ${fileValue} / ${liveContent}`).toBe(
          normContent(type, fileValue) === liveValue,
        );
      }
    }
  }
  // normalised values that are not their own normal form: a host name left with a dot (it had two),
  // and white space uncovered by unquoting or dropping the dot
  expect(contentMatches('CNAME', 'x.example.net.', 'x.example.net.')).toBe(false);
  expect(contentMatches('TXT', ' hi', ' hi')).toBe(false);
  expect(contentMatches('CNAME', 'x.example.net ', 'x.example.net ')).toBe(false);
});

it('re-plans of one desired value reuse its index and normalised records, and agree', () => {
  // the plan, the re-plan of a saved plan and the read-back all plan the same DesiredDns object
  const records: DesiredRecord[] = [
    { name: 'www', type: 'a', content: '192.0.2.1', path: 'r0' },
    { name: 'www', type: 'A', content: '192.0.2.2', path: 'r1' },
    { name: 'mail', type: 'MX', content: 'MX.example.net.', priority: 10, path: 'r2' },
    { name: 'txt', type: 'TXT', content: '"hi"', path: 'r3' },
  ];
  const dns = { records };
  const raw = (id: string, name: string, type: string, content: string, extra = {}) =>
    normLive(
      { id, name, type, content, ttl: 1, proxied: false, comment: null, tags: [], meta: {}, ...extra },
      ZONE,
    );
  const liveA = [
    raw('a1', 'www.example.com', 'A', '192.0.2.1'),
    raw('m1', 'mail.example.com', 'MX', 'mx.example.net', { priority: 20 }),
    raw('x1', 'old.example.com', 'A', '192.0.2.9'),
  ];
  const liveB = [
    raw('a1', 'www.example.com', 'A', '192.0.2.1'),
    raw('a2', 'www.example.com', 'A', '192.0.2.2'),
    raw('m1', 'mail.example.com', 'MX', 'mx.example.net', { priority: 10 }),
    raw('t1', 'txt.example.com', 'TXT', 'hi'),
  ];
  const summary = (live: LiveRecord[]) =>
    planDns({ zone: ZONE, desired: dns, live }).map((s) => `${s.action} ${s.key}`);
  const first = summary(liveA);
  expect(first).toEqual([
    'create create:www.example.com/A/192.0.2.2',
    'update m1',
    'create create:txt.example.com/TXT/hi',
    'delete x1',
  ]);
  expect(summary(liveB)).toEqual([]);
  expect(summary(liveA)).toEqual(first);
  // a fresh desired value of the same records plans the same
  expect(
    planDns({ zone: ZONE, desired: { records: [...records] }, live: liveA }).map(
      (s) => `${s.action} ${s.key}`,
    ),
  ).toEqual(first);
});
