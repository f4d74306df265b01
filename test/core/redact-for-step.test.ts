/** redactForStep: an `${env:}` value is masked in the steps it may belong to, shown in the others. */
import { afterEach, describe, expect, it } from 'vitest';
import {
  clearSecrets,
  forgetEnvPlaces,
  redact,
  redactAroundSteps,
  redactForStep,
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

  it('after forgetEnvPlaces (several files) everything is masked', () => {
    registerSecret(V, '(from env X)', 'zones[0].dns.records[2].content');
    forgetEnvPlaces();
    expect(redactForStep(`a ${V}`, 'zones[0].dns.records[1]')).toBe('a (from env X)');
    expect(redactAroundSteps(`a ${V}`)).toBe('a (from env X)');
  });
});
