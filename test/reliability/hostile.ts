/**
 * Hostile values for the bad-input tests of the local API, drawn from a seeded generator so a
 * failing case can be replayed: wrong types, huge and odd strings, deep nesting, prototype keys,
 * malformed JSON texts, bad ids and odd query strings.
 */
import { rng } from '../support/scenario.js';

export type Random = () => number;
export const seeded = (seed: number): Random => rng(seed);
export const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)];

const deep = (n: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

/** Values of every wrong type and shape a client could send. */
export const HOSTILE_VALUES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  '',
  ' ',
  'x',
  'NaN',
  'Infinity',
  '-1',
  'true',
  '0x10',
  'a'.repeat(70_000),
  '\u0000\u0001\u001f',
  '\ud800',
  'é💥\u202e',
  '../../etc/passwd',
  "' OR 1=1 --",
  '${env:HOME}',
  '<script>alert(1)</script>',
  [],
  [null],
  [1, 'a', {}],
  Array.from({ length: 5000 }, (_, i) => i),
  {},
  { __proto__: null, constructor: 'x' },
  JSON.parse('{"__proto__": {"polluted": true}}'),
  deep(200),
];

/** The field names the API's bodies use, so wrong values land on fields handlers really read. */
export const FIELD_NAMES = [
  'name',
  'type',
  'content',
  'ttl',
  'proxied',
  'priority',
  'data',
  'comment',
  'tags',
  'settings',
  'id',
  'deletes',
  'patches',
  'puts',
  'posts',
  'account',
  'enabled',
  'description',
  'action',
  'expression',
  'value',
  'dataset',
  'destination_conf',
  'ownership_challenge',
  'filter',
  'output_options',
  'max_upload_bytes',
  'rules',
  'mode',
  'sensitivity',
  'action_mode',
  'urls',
  'groups',
  'paused',
  'notification_email',
  'origins',
  'alert_type',
  'mechanisms',
  'filters',
  'use_cloudflare_reporting_endpoint',
  'use_service_reporting_endpoint',
  '__proto__',
  'constructor',
] as const;

/** A random object of known field names with hostile values (and sometimes nested ones). */
export function hostileBody(random: Random): unknown {
  const body: Record<string, unknown> = {};
  const n = 1 + Math.floor(random() * 6);
  for (let i = 0; i < n; i++) {
    const key = pick(random, FIELD_NAMES);
    body[key] =
      random() < 0.2
        ? [{ [pick(random, FIELD_NAMES)]: pick(random, HOSTILE_VALUES) }]
        : pick(random, HOSTILE_VALUES);
  }
  return body;
}

/** Raw texts that are not the JSON object a handler expects. */
export const BAD_JSON_TEXTS: readonly string[] = [
  '{',
  '}',
  '{"a":',
  '{"a" 1}',
  "{'a': 1}",
  '[1,]',
  'nul',
  'undefined',
  'NaN',
  '\u0000',
  '\ufeff{}',
  'null',
  '[]',
  '"text"',
  '123',
  'true',
  '{"a":1}{"b":2}',
  '{"a":"\\ud800"}',
  '{"a":1e999999}',
  '['.repeat(100_000) + ']'.repeat(100_000),
  '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000),
  // valid JSON whose fields nest past the nesting limit: refused as such on every route
  '{' +
    ['settings', 'notification_filter', 'origins', 'rules', 'data']
      .map((field) => `"${field}":` + '{"a":'.repeat(5000) + '1' + '}'.repeat(5000))
      .join(',') +
    '}',
];

/** Ids that are not ids: each replaces one path parameter. */
export const BAD_IDS: readonly string[] = [
  'x',
  '0',
  '-1',
  '1.5',
  '99999999999999999999999999',
  'ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ',
  '0123456789abcdef0123456789abcdeg',
  'A'.repeat(2000),
  '%00',
  '%ZZ',
  '..',
  '%2e%2e%2f%2e%2e',
  "'%20OR%201=1",
  '%F0%9F%92%A5',
  '%C3%28',
];

/** Odd query strings: bad numbers, bad encodings, arrays, empties, unknown and repeated keys. */
export const ODD_QUERIES: readonly string[] = [
  'page=-1',
  'page=0',
  'page=abc',
  'page=1e400',
  'page=99999999999999999999',
  'per_page=0',
  'per_page=-5',
  'per_page=1.5',
  'per_page=999999999999',
  'page=all&per_page=all',
  'name=%',
  'name=%ZZ',
  'name=%00',
  'name[]=a&name[]=b',
  'name=a&name=b',
  '=',
  '&&&',
  'type=A,B,,',
  'status=',
  'status=deleted',
  'order=../../x',
  'direction=sideways',
  'match=some',
  'proxied=maybe',
  'phase_two=2',
  'waf_migration=3',
  'limit=-1&offset=-1',
  'limit=10&page=2',
  'export=csv',
  'hosts=' + 'h,'.repeat(5000),
  'content.contains=' + 'x'.repeat(10_000),
  'tag=' + encodeURIComponent('a:b:c'),
  Array.from({ length: 934 }, (_, i) => `tag=t${i}`).join('&'),
  'type=' + 'A,'.repeat(500),
  'hosts=' + 'h.example,'.repeat(500),
  'unknown_param=1',
];
