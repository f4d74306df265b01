/** redactForStep: an `${env:}` value is masked in the steps it may belong to, shown in the others. */
import { afterEach, describe, expect, it } from 'vitest';
import {
  clearSecrets,
  rebaseEnvPlaces,
  redact,
  redactAroundSteps,
  redactForStep,
  registerFoundSecret,
  registerSecret,
} from '../../src/redact.js';

const V = 'value-123456';
afterEach(() => clearSecrets());

describe('redactForStep', () => {
  it('masks inside the entry and in entries around it, shows it in other listed entries', () => {
    registerSecret(V, '(from env X)', 'zones[0].dns.records[2].content');
    expect(redactForStep(`a ${V}`, 'zones[0].dns.records[2]')).toBe('a (from env X)');
    expect(redactForStep(`a ${V}`, 'zones[0].dns.records[1]')).toBe(`a ${V}`);
    expect(redactForStep(`a ${V}`, 'zones[1].dns.records[2]')).toBe(`a ${V}`);
    expect(redactForStep(`a ${V}`, 'zones[0].logpush.jobs[0]')).toBe(`a ${V}`);
    expect(redactForStep(`a ${V}`, undefined)).toBe('a (from env X)');
    expect(redact(`a ${V}`)).toBe('a (from env X)');
    expect(redactAroundSteps(`a ${V}`)).toBe(`a ${V}`);
  });

  it('a zone-level field (the entry may inherit it) is masked in the zone steps', () => {
    registerSecret(V, '(from env X)', 'zones[0].name');
    expect(redactForStep(`a ${V}`, 'zones[0].dns.records[1]')).toBe('a (from env X)');
    expect(redactForStep(`a ${V}`, 'zones[1].dns.records[1]')).toBe(`a ${V}`);
    registerSecret(V, '(from env X)', 'target.url');
    expect(redactForStep(`a ${V}`, 'zones[1].dns.records[1]')).toBe('a (from env X)');
  });

  it('a value also registered without a place (a credential) is masked everywhere', () => {
    registerSecret(V, '(from env X)', 'zones[0].dns.records[2].content');
    registerSecret(V);
    expect(redactForStep(`a ${V}`, 'zones[0].dns.records[1]')).toBe('a (from env X)');
    expect(redactAroundSteps(`a ${V}`)).toBe('a (from env X)');
  });

  it('a place deep inside the entry (a list inside it) is masked in its step', () => {
    registerSecret(V, '(from env X)', 'zones[0].dns.records[2].tags[1]');
    expect(redactForStep(`a ${V}`, 'zones[0].dns.records[2]')).toBe('a (from env X)');
    expect(redactForStep(`a ${V}`, 'zones[0].dns.records[3]')).toBe(`a ${V}`);
  });

  it('a step made of a whole kind value masks env values of every entry it lists', () => {
    registerSecret(V, '(from env X)', 'zones[0].waf.overrides[1].id');
    expect(redactForStep(`a ${V}`, 'zones[0].waf')).toBe('a (from env X)');
    expect(redactForStep(`a ${V}`, 'zones[0]')).toBe('a (from env X)');
    expect(redactForStep(`a ${V}`, 'zones[0].dns.records[0]')).toBe(`a ${V}`);
  });

  it('rebaseEnvPlaces moves places to the merged paths, once; a place of no known file masks everywhere', () => {
    registerSecret(V, '(from env X)', { path: 'zones[0].dns.records[2].content', file: 'b.yaml' });
    const moves = new Map([
      ['a.yaml', (p: string) => p],
      ['b.yaml', (p: string) => p.replace('zones[0]', 'zones[3]')],
    ]);
    rebaseEnvPlaces(moves);
    expect(redactForStep(`a ${V}`, 'zones[3].dns.records[2]')).toBe('a (from env X)');
    expect(redactForStep(`a ${V}`, 'zones[0].dns.records[2]')).toBe(`a ${V}`);
    // a second merge in the same run (the files read again) does not move a moved place again
    registerSecret(V, '(from env X)', { path: 'zones[0].dns.records[2].content', file: 'b.yaml' });
    rebaseEnvPlaces(moves);
    expect(redactForStep(`a ${V}`, 'zones[3].dns.records[2]')).toBe('a (from env X)');
    expect(redactForStep(`a ${V}`, 'zones[6].dns.records[2]')).toBe(`a ${V}`);
    // a place recorded without its file cannot be moved: the safe side
    registerSecret(V, '(from env X)', 'zones[1].dns.records[0].content');
    rebaseEnvPlaces(moves);
    expect(redactForStep(`a ${V}`, 'zones[2].dns.records[2]')).toBe('a (from env X)');
  });

  it('a credential found again inside the field of an env value keeps the per-field masking', () => {
    registerSecret(V, '(from env X)', 'zones[0].logpush.jobs[0].destination_conf');
    registerFoundSecret(V);
    expect(redactForStep(`a ${V}`, 'zones[0].logpush.jobs[0]')).toBe('a (from env X)');
    expect(redactForStep(`a ${V}`, 'zones[0].dns.records[0]')).toBe(`a ${V}`);
    // one that is no env value is masked everywhere
    const other = 'other-credential-9';
    registerFoundSecret(other);
    expect(redactForStep(`a ${other}`, 'zones[0].dns.records[0]')).toBe('a [REDACTED]');
    expect(redactAroundSteps(`a ${other}`)).toBe('a [REDACTED]');
  });

  it('one value written in 10,000 records costs lookups, not a walk over its places, per step', () => {
    for (let i = 0; i < 10_000; i++) registerSecret(V, '(from env X)', `zones[0].dns.records[${i}].content`);
    const started = performance.now();
    let masked = 0;
    for (let i = 0; i < 10_000; i++) {
      if (redactForStep(`a ${V}`, `zones[0].dns.records[${i}]`) === 'a (from env X)') masked++;
    }
    expect(masked).toBe(10_000);
    expect(redactForStep(`a ${V}`, 'zones[1].dns.records[0]')).toBe(`a ${V}`);
    // a walk over every place for every step took about 80 s; the lookups take well under 1 s
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
