/**
 * The fast one-line writer must read back as the same data in YAML: every tricky scalar (numbers,
 * booleans, nulls, dates, indicators, quotes, comments, control characters) is parsed back here,
 * and written exactly as `zoneplan fmt` writes it.
 */
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { formatYaml } from '../../src/config/format-yaml.js';
import { flowLines, flowValue, isPlainSafe } from '../../src/core/export/flow-lines.js';

const TRICKY = [
  '',
  ' ',
  'a',
  '@',
  '*',
  '*.example.com',
  '10',
  '-1',
  '+1',
  '1e3',
  '0x1F',
  '0o17',
  '017',
  '.5',
  '1_000',
  '1.0',
  '.inf',
  '-.Inf',
  '.NaN',
  '~',
  'null',
  'Null',
  'true',
  'False',
  'yes',
  'No',
  'on',
  'OFF',
  'y',
  'n',
  '2026-11-21',
  '12:30',
  '1:2:3',
  '2001:db8::10',
  '::1',
  'a: b',
  'a:',
  'a:b',
  'a #b',
  'a# b',
  '#x',
  '-a',
  '- a',
  '?a',
  '!x',
  '&x',
  '%x',
  '|x',
  '>x',
  '`x',
  "'q'",
  '"d"',
  "it's",
  'say "hi"',
  'a,b',
  '[x]',
  '{x}',
  'a  b',
  'trail ',
  'v=spf1 include:_spf.example.net ~all',
  'v=DMARC1; p=reject; rua=mailto:d@example.com',
  'alpn="h3,h2"',
  'line\nbreak',
  'tab\there',
  'nul\u0000',
  'bom\ufeff',
  'ünïcödé',
  '日本語',
  '😀',
  'back\\slash',
  '${env:X}',
  'ftp://ftp.example.com/public',
  "script-src 'self' https://cdn.example.com",
  '...',
  '---',
  'a=b',
  '=x',
];

describe('flow lines', () => {
  it('reads back every tricky string as itself', () => {
    for (const s of TRICKY) {
      const text = `- ${flowValue({ k: s, [s || 'empty']: 1 })}\n`;
      expect(parse(text), JSON.stringify(s)).toEqual([{ k: s, [s || 'empty']: 1 }]);
    }
  });

  it('writes every string as `zoneplan fmt` writes it, on tricky and generated strings', () => {
    // the reference: fmt's own output for the string, double-quoted in a flow map
    const asFmt = (s: string) => {
      const result = formatYaml('t.yaml', `version: 1\nx: { k: ${JSON.stringify(s)} }\n`, []);
      if (!('text' in result)) throw new Error(`fmt refused ${JSON.stringify(s)}`);
      return /^x: \{ k: (.*) \}\n$/s.exec(result.text.slice('version: 1\n'.length))![1];
    };
    const alphabet = 'aZy0159_./=+-;:@*()\'"% #~!,[]{}&|>`?\\\té\u0085xeEoOnN';
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    // a line break's quoted form depends on its indentation: those are written as JSON (see flowScalar)
    for (const s of TRICKY.filter((t) => !t.includes('\n')))
      expect(flowValue({ k: s }), JSON.stringify(s)).toBe(`{ k: ${asFmt(s)} }`);
    // and strings near numbers, sexagesimals, dates and addresses
    const numeric = '0123456789.:_-+eExob ';
    for (let i = 0; i < 6_000; i++) {
      const chars = i % 2 === 0 ? alphabet : numeric;
      let s = '';
      for (let n = Math.floor(next() * 11); n > 0; n--) s += chars[Math.floor(next() * chars.length)];
      expect(flowValue({ k: s }), JSON.stringify(s)).toBe(`{ k: ${asFmt(s)} }`);
    }
  });

  it('puts no warning on stderr for a string it asks the YAML parser about (`!x`, `%x`)', async () => {
    const warnings: string[] = [];
    const collect = (w: Error) => warnings.push(w.message);
    process.on('warning', collect);
    try {
      expect(flowValue({ a: '!unresolved-tag x', b: '%unknown-directive' })).toBe(
        "{ a: '!unresolved-tag x', b: '%unknown-directive' }",
      );
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', collect);
    }
    expect(warnings).toEqual([]);
  });

  it('writes plain only what is unambiguous', () => {
    expect(isPlainSafe('www')).toBe(true);
    expect(isPlainSafe('198.51.100.1')).toBe(true);
    expect(isPlainSafe('10')).toBe(false);
    expect(isPlainSafe('yes')).toBe(false);
    expect(isPlainSafe('@')).toBe(false);
  });

  it('writes numbers, booleans, lists and nested maps, one item per line with blank lines where asked', () => {
    const items = [
      { name: '@', type: 'SRV', data: { port: 5060, priority: 0, target: '.' }, ttl: 'auto', proxied: false },
      { name: 'www', type: 'A', content: '192.0.2.1', tags: ['a:b', 'c'], comment: null },
    ];
    const text = flowLines(items, 2, [1]);
    expect(text).toBe(
      "  - { name: '@', type: SRV, data: { port: 5060, priority: 0, target: . }, ttl: auto, proxied: false }\n" +
        '\n' +
        '  - { name: www, type: A, content: 192.0.2.1, tags: [a:b, c], comment: null }',
    );
    expect(parse(`x:\n${text}\n`)).toEqual({ x: items });
  });
});
