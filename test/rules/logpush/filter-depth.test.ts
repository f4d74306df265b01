// Deeply nested filters: refused with a violation, never a stack overflow (the walks are bounded).
import { describe, expect, it } from 'vitest';
import {
  MAX_FILTER_DEPTH,
  canonicalFilterJson,
  countFilterOperators,
  sameFilter,
  validateFilter,
} from '../../../src/rules/logpush/filter.js';

const COND = '{"key":"A","operator":"eq","value":"x"}';

/** `{"where": {"and":[{"and":[ ... COND ... ]}]}}` with `levels` groups. */
function nestedText(levels: number): string {
  let s = COND;
  for (let i = 0; i < levels; i++) s = `{"and":[${s}]}`;
  return `{"where":${s}}`;
}

function nestedObject(levels: number): unknown {
  let node: unknown = { key: 'A', operator: 'eq', value: 'x' };
  for (let i = 0; i < levels; i++) node = { and: [node] };
  return { where: node };
}

describe('logpush filter nesting', () => {
  it('refuses a filter nested thousands of levels deep with the byte limit and the depth, no throw', () => {
    const text = nestedText(5000);
    const v = validateFilter(text);
    expect(v).toEqual([
      { path: 'filter', message: `is ${Buffer.byteLength(text)} bytes; a filter may be at most 1000 bytes` },
      {
        path: 'filter.where',
        message: `nests "and"/"or" groups more than ${MAX_FILTER_DEPTH} levels deep`,
      },
    ]);
    expect(countFilterOperators(text)).toBe(1);
    expect(canonicalFilterJson(text)).toBe(text); // compared as written, not walked
    expect(sameFilter(text, text)).toBe(true);
  });

  it('handles a deep object (as a desired-state file holds it) without overflowing', () => {
    const deep = nestedObject(200_000);
    expect(() => validateFilter(deep)).not.toThrow();
    expect(validateFilter(deep)[0].path).toBe('filter');
    expect(countFilterOperators(deep)).toBe(1);
    expect(() => canonicalFilterJson(deep)).not.toThrow();
  });

  it('walks a filter within the byte limit whatever its nesting, with stable paths', () => {
    // the deepest nesting that fits in 1000 bytes is about 95 groups: below the depth cap
    const text = nestedText(90);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1000);
    expect(validateFilter(text)).toEqual([]);
    const bad = nestedText(3).replace('"eq"', '"like"');
    expect(validateFilter(bad).map((v) => v.path)).toEqual(['filter.where.and[0].and[0].and[0].operator']);
  });

  it('skips the grammar walk of an oversized filter but still counts its operators', () => {
    const many = JSON.stringify({
      where: { or: Array.from({ length: 40 }, () => ({ key: 'A', operator: 'like', value: 1 })) },
    });
    const messages = validateFilter(many).map((v) => v.message);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatch(/bytes; a filter may be at most 1000 bytes/);
    expect(messages[1]).toMatch(/has 40 operators/);
  });
});
