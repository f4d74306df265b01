/**
 * The block-YAML fast path must give exactly what the YAML path gives, or give up. Generated files
 * (every spelling of scalar the YAML 1.2 core schema treats specially, block and flow collections,
 * comments, odd indentation) and the shipped examples are read both ways: whenever the fast path
 * answers, the YAML path must read the same value and report nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { expect, it } from 'vitest';
import { rng } from '../support/scenario.js';
import { parseBlockYamlFast } from '../../src/config/yaml-fast-path.js';
import { MAX_ALIAS_COUNT, MAX_DEPTH, parseYamlText } from '../../src/config/yaml-source.js';

// seeded, so a failure can be replayed
const random = rng(11);
const rnd = (n: number): number => Math.floor(random() * n);
const pick = <T>(xs: readonly T[]): T => xs[rnd(xs.length)]!;

const SCALARS = [
  '192.0.2.1',
  '2001:db8::1',
  '2001:db8::',
  'v=spf1 -all',
  'www.example.com.',
  'a  b',
  'café',
  '"quoted"',
  "'single'",
  "'it''s'",
  '"a\\"b"',
  '"\\u00e9\\n"',
  '"\\x41"',
  '"\\/"',
  '""',
  "''",
  '300',
  '-5',
  '+5',
  '007',
  '0',
  '-0',
  '1.5',
  '-1.50',
  '1.',
  '.5',
  '1e3',
  '0x1F',
  '0o17',
  '.inf',
  '-.inf',
  '.nan',
  '9007199254740993',
  '12:30',
  '2026-01-01',
  '~',
  'null',
  'Null',
  'NULL',
  'true',
  'True',
  'TRUE',
  'false',
  'False',
  'yes',
  'no',
  'on',
  'off',
  'a #comment',
  'a#b',
  'a: b',
  'a:',
  'x:y',
  '@at',
  '`tick',
  '%pct',
  '*alias',
  '&anchor x',
  '!tag x',
  '!!str 5',
  '|',
  '>',
  '-',
  '- x',
  '-x',
  '?x',
  '? x',
  ':x',
  '[a, b]',
  '{a: 1}',
  '{ name: "@", type: A, ttl: 300 }',
  '[a, [b, c]]',
  '{a: [1, 2], b: {c: d}}',
  '[]',
  '{}',
  '{ a: 1, }',
  '[a, ]',
  '[a:1]',
  '[a: 1]',
  '{a:1}',
  '{ a: 2001:db8:: }',
  'b\u00a0',
  '1\f',
  '~\u2028',
  '[b\u00a0]',
  '{b: 1\ufeff}',
  '\u3000',
  '[ "x", \'y\', 3 ]',
  '{ a: b #c }',
  '[a, b] # list',
  '"x" # c',
  '"x" y',
  // anchors and aliases (a1 to a3, so that aliases find anchors set before them)
  '&a1 x',
  '&a2 300',
  '&a1 [a, b]',
  '&a3 { b: *a1 }',
  '&a3 { b: c }',
  '*a1',
  '*a2',
  '*a3',
  '*a1 # c',
  '[*a1, *a2]',
  '{ x: *a2 }',
  '[ &a2 y, *a2 ]',
  '&a2',
  '*a1 x',
  '&a1 *a2',
  '& x',
  '&a1 &a2 x',
  '*a9',
];
const KEYS = [
  'name',
  'type',
  'content',
  'a-b',
  'x.y',
  '_k',
  'k1',
  'null',
  'true',
  'on',
  'yes',
  '"q"',
  '__proto__',
  '<<',
  'ttl',
  '5de7edfa',
  '300',
  '1e5',
  '0x1F',
  '1.5',
  '-1',
  '007',
  'k'.repeat(1025),
];

function block(indent: number, depth: number): string[] {
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  if (depth > 0 && rnd(3) === 0) {
    // a sequence
    const n = 1 + rnd(3);
    for (let i = 0; i < n; i++) {
      const r = rnd(4);
      if (r === 0 && depth < 4) {
        const inner = block(indent + 2, depth + 1);
        lines.push(pad + '- ' + inner[0]!.trimStart(), ...inner.slice(1));
      } else if (r === 1 && depth < 4) {
        lines.push(pad + (rnd(3) === 0 ? `- &a${1 + rnd(3)}` : '-'), ...block(indent + 2, depth + 1));
      } else lines.push(`${pad}- ${pick(SCALARS)}`);
    }
    return lines;
  }
  const n = 1 + rnd(4);
  for (let i = 0; i < n; i++) {
    const key = rnd(8) === 0 ? pick(KEYS) : pick(KEYS.slice(0, 7)) + (rnd(2) ? String(i) : '');
    const r = rnd(6);
    // a nested block, anchored now and then
    const anchor = rnd(3) === 0 ? ` &a${1 + rnd(3)}` : '';
    if (r === 0 && depth < 4)
      lines.push(`${pad}${key}:${anchor}`, ...block(indent + pick([1, 2, 4]), depth + 1));
    else if (r === 1 && depth < 4) {
      // a sequence at the key's column (compact) or deeper
      const seq = block(indent + pick([0, 2]), depth + 1);
      lines.push(`${pad}${key}:${anchor}${rnd(4) === 0 ? ' # list' : ''}`, ...seq);
    } else if (r === 2) lines.push(`${pad}${key}:`);
    else if (r === 3 && rnd(2) === 0) {
      // the value on the line below its key
      lines.push(`${pad}${key}:`, `${pad}${' '.repeat(1 + rnd(3))}${pick(SCALARS)}`);
    } else lines.push(`${pad}${key}:${pick([' ', '  '])}${pick(SCALARS)}`);
    if (rnd(10) === 0) lines.push(pick(['', '   ', `${pad}# a comment`, '#x']));
    if (rnd(40) === 0) lines.push(pick(['---', '  continued', '\tx: 1', '%YAML 1.2']));
  }
  return lines;
}

/** Deep equality that tells -0 from 0 and keeps key order. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return false;
  return ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function expectAgreement(text: string): boolean {
  const fast = parseBlockYamlFast(text, MAX_DEPTH);
  if (fast === undefined) return false;
  const slow = parseYamlText('f.yaml', text, { fastPath: false });
  expect(slow.diagnostics, text).toEqual([]);
  expect(
    same(fast, slow.value),
    `${text}\n--- fast:\n${JSON.stringify(fast)}\n--- yaml:\n${JSON.stringify(slow.value)}`,
  ).toBe(true);
  return true;
}

it('agrees with the YAML path on generated files whenever it answers', () => {
  let answered = 0;
  const runs = 6000;
  for (let i = 0; i < runs; i++)
    if (expectAgreement(block(0, 0).join('\n') + (rnd(2) ? '\n' : ''))) answered++;
  // the generator is meant to be tricky, yet a good share of its files must take the fast path
  expect(answered).toBeGreaterThan(runs * 0.15);
});

it('takes the shipped examples and a generated zone the fast way, with the same result', () => {
  const dir = join(import.meta.dirname, '../../examples');
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
  let answered = 0;
  for (const f of files) if (expectAgreement(readFileSync(join(dir, f), 'utf8'))) answered++;
  expect(answered).toBeGreaterThanOrEqual(files.length - 2);
  const records = Array.from({ length: 300 }, (_, i) => ({
    name: `h${i}`,
    type: pick(['A', 'AAAA', 'TXT', 'CNAME', 'MX']),
    content: pick(['192.0.2.1', '2001:db8::1', 'v=spf1 -all', 'target.example.net', '300', 'true', '"x"']),
    ttl: pick([1, 300, 3600]),
    proxied: rnd(2) === 0,
    ...(rnd(4) === 0 ? { comment: pick(['a: b', 'x #y', "it's", '', null]) } : {}),
    ...(rnd(4) === 0 ? { tags: ['a:1', 'b'] } : {}),
  }));
  const zone = stringify({
    version: 1,
    zones: [{ name: 'example.com', account: 'a'.repeat(32), dns: { records } }],
  });
  expect(expectAgreement(zone)).toBe(true);
});

it('gives up on what it does not read, so the YAML path reports it with its position', () => {
  for (const text of [
    'a: 1\na: 2', // duplicate key
    'a: &x 1\nb: *x\nc: *y', // an alias of no anchor
    'a: &x { b: 1 }\nc: &y [*x]', // an anchored value holding an alias
    'a: &x\nb: 1', // an anchored null
    'a: |\n  text', // block scalar
    'a: one\n  two', // multi-line plain scalar
    'a:\n\tb: 1', // tab
    'a: 1\r\nb: 2', // CR
    '- a', // not a mapping at the top
    'a: 1\n---\nb: 2', // a second document
    '"a": 1', // quoted key
    'a: { b: 1,\n  c: 2 }', // flow collection over two lines
    'null: 1', // a key the YAML path reads as null
    // a quoted scalar or flow collection that does not close on its line
    "a: 'it\n  b'\nc: 1",
    'a: "x\n  y"\nc: 1',
    'a: [x\n  , y]\nc: 1',
    'a: { b: c\n  }\nd: 1',
    'a: [&x\n  y]',
    'a: [*x\n  ]',
  ]) {
    expect(parseBlockYamlFast(text, MAX_DEPTH), text).toBeUndefined();
  }
  expect(parseBlockYamlFast('a:\nb: ~\n', MAX_DEPTH)).toEqual({ a: null, b: null });
});

it('reads anchors and aliases as the YAML path does: an alias is its anchor value, the same object', () => {
  for (const text of [
    'a: &x 1\nb: *x',
    'a: 0x1F\nb: +12\nc: 0o17\nd: .inf\ne: 1e3\nf: 007',
    'a: &x\n  b: 1\n  c: [1, 2]\nd: *x\ne:\n  - *x\n  - &y two\n  - *y',
    'a: &x\n- 1\n- 2\nb: *x',
    'a:\n  - &x\n    b: 1\n  - *x\n  - { c: *x }',
    'a: &x 1\nb: &x 2\nc: *x # the last anchor of the name before the alias',
  ])
    expect(expectAgreement(text), text).toBe(true);
  const read = parseBlockYamlFast('a: &x { b: 1 }\nc: *x\n', MAX_DEPTH) as Record<string, unknown>;
  expect(read.c).toBe(read.a);
});

it("gives up past yaml's alias bound, which the YAML path reports", () => {
  const aliases = (n: number) => ['a: &x 1', ...Array.from({ length: n }, (_, i) => `k${i}: *x`)].join('\n');
  // yaml counts the anchor with its aliases
  expect(expectAgreement(aliases(MAX_ALIAS_COUNT - 1))).toBe(true);
  expect(parseBlockYamlFast(aliases(MAX_ALIAS_COUNT), MAX_DEPTH)).toBeUndefined();
  const slow = parseYamlText('f.yaml', aliases(MAX_ALIAS_COUNT));
  expect(slow.diagnostics.map((d) => d.message)).toEqual([
    `YAML aliases expand too much (more than ${MAX_ALIAS_COUNT} expansions); write the values out instead`,
  ]);
});

it('reads a 10,000-record file with anchors and aliases the fast way, as the same file written out', () => {
  // in each run of 100 records the first anchors its values and the others alias them: one look-up
  // an alias, where the YAML path resolves each alias by a walk of the anchors and aliases before it
  const lines = ['version: 1', 'zones:', '  - name: example.com', '    dns:', '      records:'];
  const expanded = [...lines];
  for (let i = 0; i < 10_000; i++) {
    const first = i % 100 === 0;
    const value = (name: string, text: string) =>
      first ? `&${name}${Math.floor(i / 100)} ${text}` : `*${name}${Math.floor(i / 100)}`;
    lines.push(
      `        - name: h${i}`,
      `          type: ${value('t', 'A')}`,
      `          content: 192.0.2.${i % 250}`,
      `          ttl: ${value('l', '300')}`,
    );
    expanded.push(
      `        - name: h${i}`,
      '          type: A',
      `          content: 192.0.2.${i % 250}`,
      '          ttl: 300',
    );
  }
  const fast = parseBlockYamlFast(lines.join('\n'), MAX_DEPTH);
  expect(fast).toBeDefined();
  expect(same(fast, parseBlockYamlFast(expanded.join('\n'), MAX_DEPTH))).toBe(true);
});

it('reads what follows a one-line value on the next lines as the YAML path does', () => {
  for (const text of [
    'a: [x, y]\nb: { c: 1, d: [2, 3] }\ne: "q"\nf: \'r\'\ng: h',
    'a:\n  - { b: 1 }\n  - [c]\n  - "d"\n  - e # f\nb: 1',
    'a: &x [1, 2]\nb: [*x, *x]\nc: { d: *x }\ne: 0x1F',
  ])
    expect(expectAgreement(text), text).toBe(true);
});

it('gives every key as the YAML path does, however many keys the file has', () => {
  // more distinct keys than the reader keeps for reuse, each mapping reusing those of the others,
  // keys named like Object.prototype's properties, and one duplicate among them at the end
  const keys = Array.from({ length: 3000 }, (_, i) => `k${(i * 7919) % 3001}x${i % 7}`);
  const inner = (n: number) => keys.slice(n, n + 40).map((k, i) => `  ${k}: ${i}`);
  const lines = ['toString: 1', 'constructor: 2', 'hasOwnProperty: 3', 'valueOf:'];
  for (let n = 0; n < 3000; n += 40) lines.push(`${keys[n]}:`, ...inner(n));
  expect(expectAgreement(lines.join('\n'))).toBe(true);
  expect(parseBlockYamlFast([...lines, `${keys[40]}: again`].join('\n'), MAX_DEPTH)).toBeUndefined();
});
