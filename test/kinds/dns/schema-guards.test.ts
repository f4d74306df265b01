/**
 * The DNS schema zoneplan checks files with (dnsSchema) guards two parts of the record schema so
 * that a valid record fails no test on the way (ajv makes an error object for every failed test):
 * the TTL's forms behind one test every valid TTL passes, and the per-type `data` branches behind
 * `dependentSchemas`. The guards may change no verdict and no error, nor their order: the same schema without them
 * (the TTL's `anyOf` as such, the branches under `allOf`) must report exactly the same problems.
 */
import { describe, expect, it } from 'vitest';
import type { ErrorObject } from 'ajv';
import { createAjv } from '../../../src/config/ajv-setup.js';
import type { JsonSchema } from '../../../src/config/json-schema.js';
import { dnsSchema } from '../../../src/kinds/dns/schema.js';
import { lint, pos, zoneWith } from '../../config/helpers.js';

type Schema = Record<string, any>;

/** dnsSchema with both guards taken out: what they stand in front of, as the editor's record has it. */
function unguarded(): JsonSchema {
  const copy = structuredClone(dnsSchema) as Schema;
  const record = copy.properties.records.items as Schema;
  expect(record.properties.ttl.else.anyOf).toBeDefined();
  record.properties.ttl = record.properties.ttl.else;
  record.allOf = [{ if: { required: ['data'] }, then: { allOf: copy.$defs.data.allOf } }];
  delete copy.$defs;
  return copy as JsonSchema;
}

/** What a message is made of (src/config/schema-check.ts): all but the `if`s' own errors. */
const shown = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? [])
    .filter((e) => e.keyword !== 'if')
    .map((e) => ({ at: e.instancePath, keyword: e.keyword, params: e.params, data: e.data }));

const TTLS: unknown[] = [
  'auto',
  1,
  30,
  59,
  60,
  300,
  86400, // valid
  0,
  2,
  29,
  86401,
  -1,
  1.5,
  30.5,
  1e9,
  'AUTO',
  'auto ',
  'automatic',
  '',
  '1',
  '300',
  true,
  false,
  null,
  [],
  [1],
  {},
  { auto: 1 },
];

const RECORDS: Record<string, unknown>[] = [
  { name: 'www', type: 'A', content: '192.0.2.1' },
  { name: 'www', type: 'CAA', data: { flags: 0, tag: 'issue', value: 'ca.example' } },
  { name: 'www', type: 'CAA', data: { flags: 300, tag: '', extra: 1 } },
  { name: '_sip._tcp', type: 'SRV', data: { priority: 1, weight: 5, port: 5060, target: 'sip.example' } },
  { name: '_sip._tcp', type: 'SRV', data: { weight: 70000, port: 'x' } },
  { name: 'svc', type: 'HTTPS', data: { priority: 1, target: '.' } },
  { name: 'svc', type: 'HTTPS', data: {} },
  { name: 'www', type: 'A', data: { flags: 0 } },
  { name: 'www', type: 'A', data: 'text' },
  { name: 'www', type: 'CAA', data: [] },
  { name: 'www', data: { flags: 0 } },
  { name: 'www', type: 'NOPE', data: { flags: 0 } },
  { name: 'www', type: 7, data: { flags: 0 } },
];

describe('the guards in the checked DNS record schema', () => {
  const guarded = createAjv().compile(dnsSchema);
  const plain = createAjv().compile(unguarded());

  it('change no verdict and no error, for any TTL or data', () => {
    let refused = 0;
    for (const base of RECORDS) {
      for (const ttl of [undefined, ...TTLS]) {
        const value = { records: [ttl === undefined ? base : { ...base, ttl }] };
        const verdict = guarded(value);
        expect({ value, verdict, errors: shown(guarded.errors) }).toEqual({
          value,
          verdict: plain(value),
          errors: shown(plain.errors),
        });
        if (!verdict) refused++;
      }
    }
    // the comparison means something only if both valid and refused records were among them
    expect(refused).toBeGreaterThan(100);
    expect(refused).toBeLessThan(RECORDS.length * (TTLS.length + 1));
  });

  it('let every valid TTL through and explain every other as before', async () => {
    for (const ttl of ['auto', '1', '30', '59', '86400']) {
      const src = zoneWith([`{ name: www, type: A, content: 192.0.2.1, ttl: ${ttl} }`]);
      const said = (await lint(src)).filter((d) => !d.includes('TTL under 60'));
      expect({ ttl, said }).toEqual({ ttl, said: [] });
    }
    for (const ttl of ['0', '2', '29', '86401', '-1', 'AUTO', 'true', 'null', '[1]', '{ a: 1 }']) {
      const src = zoneWith([`{ name: www, type: A, content: 192.0.2.1, ttl: ${ttl} }`]);
      expect(await lint(src)).toEqual([
        `t.yaml:${pos(src, `${ttl} }`)}: zones[0].dns.records[0].ttl: expected \`auto\`, 1 or a whole number from 30 to 86400, got ${got(ttl)}`,
      ]);
    }
  });
});

/** How the message names the value written. */
function got(ttl: string): string {
  if (/^-?\d+$/.test(ttl)) return `the number ${ttl}`;
  if (ttl === 'true') return 'the boolean true';
  if (ttl === 'null') return 'an empty value';
  if (ttl.startsWith('[')) return 'a list';
  if (ttl.startsWith('{')) return 'a map of keys';
  return `the string "${ttl}"`;
}
