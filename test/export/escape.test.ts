/**
 * The export's escape of `${env:` against the loader's own resolution (src/config/env.ts): every
 * spellable text, escaped, reads back as itself; every other string the writer passes through.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { resolveReferences } from '../../src/config/env.js';
import {
  escapeEnv,
  escapeStrings,
  firstUnspellable,
  spellable,
  spellableGlob,
} from '../../src/core/export/escape.js';
import { writeYaml } from '../../src/core/export/yaml-writer.js';
import { globToRegExp } from '../../src/kinds/dns/ignore.js';

/** What the loader makes of a string value, and what it complained about. */
function load(text: string): { value: string; errors: string[] } {
  const errors: string[] = [];
  const env = { HOME: '/root', X: 'x-value' };
  const value = resolveReferences(text, 'v', { env }, (_, m, severity) => {
    if (severity === 'error') errors.push(m);
  }) as string;
  return { value, errors };
}

/** Deterministic pseudo-random texts built from the pieces that matter to the loader. */
function* texts(count: number): Generator<string> {
  const pieces = ['${env:', '$', '{', '}', 'env:', 'HOME', 'X', ' ', 'a', '$$', '${env:HOME}', '{env:'];
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  for (let i = 0; i < count; i++) {
    const n = 1 + (next() % 6);
    yield Array.from({ length: n }, () => pieces[next() % pieces.length]).join('');
  }
}

describe('escapeEnv', () => {
  it('is read back by the loader as the very text, and an unspellable text is refused, never changed', () => {
    let checked = 0;
    for (const text of texts(5000)) {
      const back = load(escapeEnv(text));
      if (!spellable(text)) {
        expect(back.errors.length, JSON.stringify(text)).toBeGreaterThan(0);
        continue;
      }
      checked++;
      expect(back, JSON.stringify(text)).toEqual({ value: text, errors: [] });
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('escapes a reference run from `${env:` to the first `}`, as the loader reads it', () => {
    expect(escapeEnv('${env:HOME}')).toBe('$${env:HOME}');
    expect(escapeEnv('${env:a ${env:b}')).toBe('$${env:a ${env:b}');
    expect(escapeEnv('$${env:X}')).toBe('$$${env:X}');
    expect(escapeEnv('no reference {env: here }')).toBe('no reference {env: here }');
  });

  it('calls a `${env:` with no `}` after it unspellable: the loader refuses it either way', () => {
    expect(spellable('x ${env:abc')).toBe(false);
    expect(load('x ${env:abc').errors).toHaveLength(1);
    expect(spellable('x $${env:abc')).toBe(true); // already reads as itself
    expect(firstUnspellable({ records: [{ content: 'ok' }, { tags: ['a', '${env:'] }] })).toEqual([
      'records',
      1,
      'tags',
      1,
    ]);
    // a value its exporter already looked through is skipped
    const dns = { records: [{ content: '${env:' }] };
    expect(firstUnspellable({ zones: [{ dns, waf: { x: '${env:' } }] }, new Set([dns]))).toEqual([
      'zones',
      0,
      'waf',
      'x',
    ]);
    expect(firstUnspellable({ zones: [{ dns }] }, new Set([dns]))).toBeUndefined();
  });

  it('gives ignore globs that match the text and are spellable', () => {
    for (const text of ['x ${env:abc', '${env:HOME}', 'plain']) {
      const glob = spellableGlob(text);
      expect(spellable(glob)).toBe(true);
      expect(globToRegExp(load(escapeEnv(glob)).value).test(text.toLowerCase())).toBe(true);
    }
  });
});

describe('escapeStrings and the writer', () => {
  it('escapes every string value except verbatim paths, keys never, and copies only what changes', () => {
    const value = {
      plain: { a: 'text' },
      list: ['${env:HOME}', 'b'],
      keep: '${env:ZONEPLAN_X}',
      '${env:KEY}': 'k',
    };
    const out = escapeStrings(value, [['keep']]) as typeof value;
    expect(out).toEqual({ ...value, list: ['$${env:HOME}', 'b'] });
    expect(out.plain).toBe(value.plain);
    expect(value.list[0]).toBe('${env:HOME}'); // the input is not changed
  });

  it('writes escaped strings in one-line lists and in the document model alike', () => {
    const doc = {
      records: [{ name: 'a', content: '${env:HOME}' }],
      other: { comment: 'see ${env:X}', ref: 'x=${env:ZONEPLAN_Y}' },
    };
    const text = writeYaml(doc, [{ path: ['records'], lines: true }], 'header', [['other', 'ref']]);
    const back = resolveReferences(
      parse(text),
      '',
      { env: { ZONEPLAN_Y: 'y' } },
      (_path, message, severity) => {
        // a one-letter value draws the "too short to be hidden" warning, nothing else is expected
        if (severity === 'error' || !message.includes('too short')) throw new Error(`unexpected: ${message}`);
      },
    );
    expect(back).toEqual({
      records: [{ name: 'a', content: '${env:HOME}' }],
      other: { comment: 'see ${env:X}', ref: 'x=y' },
    });
  });
});
