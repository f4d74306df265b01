import { describe, expect, it } from 'vitest';
import {
  FILTER_OPERATORS,
  canonicalFilterJson,
  countFilterOperators,
  sameFilter,
  validateFilter,
} from '../../../src/rules/logpush/index.js';

const cond = (i: number) => ({ key: 'ClientRequestHost', operator: 'eq', value: `h${i}` });
const filterOf = (n: number) =>
  JSON.stringify({ where: { and: Array.from({ length: n }, (_, i) => cond(i)) } });

/** A filter whose JSON string is exactly `bytes` long (one condition with a padded value). */
function filterOfBytes(bytes: number): string {
  const base = JSON.stringify({ where: { key: 'ClientRequestHost', operator: 'eq', value: '' } });
  return JSON.stringify({
    where: { key: 'ClientRequestHost', operator: 'eq', value: 'x'.repeat(bytes - base.length) },
  });
}

describe('logpush filter grammar', () => {
  it('accepts the spec shapes: and, or, nesting both ways, a single condition', () => {
    const X = cond(1);
    const Y = { key: 'EdgeResponseStatus', operator: 'geq', value: 500 };
    const Z = { key: 'ClientCountry', operator: 'in', value: ['de', 'fr'] };
    for (const where of [
      { and: [X, Y, Z] },
      { or: [X, Y, Z] },
      { and: [X, { or: [Y, Z] }] },
      { or: [{ and: [X, Y] }, Z] },
      X,
    ]) {
      expect(validateFilter(JSON.stringify({ where }))).toEqual([]);
    }
  });

  it('accepts every operator of the real list with the right value kind', () => {
    for (const operator of FILTER_OPERATORS) {
      const value = operator === 'in' || operator === '!in' ? ['a', 'b'] : 'a';
      expect(validateFilter(JSON.stringify({ where: { key: 'RayID', operator, value } }))).toEqual([]);
    }
  });

  it('treats empty, null and undefined as no filter', () => {
    expect(validateFilter('')).toEqual([]);
    expect(validateFilter(null)).toEqual([]);
    expect(validateFilter(undefined)).toEqual([]);
  });

  it('refuses a filter without where at its top level, and extra top-level keys', () => {
    expect(validateFilter('{"and":[]}')).toContainEqual({
      path: 'filter',
      message: 'must have the key "where" at its top level',
    });
    expect(validateFilter('{"where":{"key":"a","operator":"eq","value":"b"},"x":1}')[0].path).toBe(
      'filter.x',
    );
  });

  it('refuses text that is not JSON, and JSON that is not an object', () => {
    expect(validateFilter('{where')[0].message).toMatch(/not valid JSON/);
    expect(validateFilter('[1]')[0].message).toMatch(/JSON object/);
    expect(validateFilter(42)[0].message).toMatch(/JSON string/);
  });

  it('names the path of a bad operator inside nested groups', () => {
    const f = {
      where: { and: [cond(0), cond(1), { or: [cond(2), { key: 'a', operator: 'like', value: 'x' }] }] },
    };
    const v = validateFilter(JSON.stringify(f));
    expect(v).toHaveLength(1);
    expect(v[0].path).toBe('filter.where.and[2].or[1].operator');
    expect(v[0].message).toMatch(/"like" is not an operator/);
  });

  it('in/!in need an array; the others refuse one', () => {
    expect(
      validateFilter(JSON.stringify({ where: { key: 'a', operator: 'in', value: 'x' } }))[0],
    ).toMatchObject({
      path: 'filter.where.value',
      message: expect.stringMatching(/takes an array/),
    });
    expect(
      validateFilter(JSON.stringify({ where: { key: 'a', operator: '!in', value: [] } }))[0].message,
    ).toMatch(/at least one/);
    expect(
      validateFilter(JSON.stringify({ where: { key: 'a', operator: 'eq', value: ['x'] } }))[0].message,
    ).toMatch(/only "in" and "!in" take an array/);
    expect(validateFilter(JSON.stringify({ where: { key: 'a', operator: 'in', value: [{}] } }))[0].path).toBe(
      'filter.where.value[0]',
    );
  });

  it('refuses missing key/value, unknown condition keys, empty and non-array groups, mixed groups', () => {
    const paths = (w: unknown) => validateFilter(JSON.stringify({ where: w })).map((v) => v.path);
    expect(paths({ operator: 'eq', value: 'x' })).toEqual(['filter.where.key']);
    expect(paths({ key: 'a', operator: 'eq' })).toEqual(['filter.where.value']);
    expect(paths({ key: 'a', operator: 'eq', value: 'x', extra: 1 })).toEqual(['filter.where.extra']);
    expect(paths({ and: [] })).toEqual(['filter.where.and']);
    expect(paths({ or: {} })).toEqual(['filter.where.or']);
    expect(paths({ and: [cond(0)], or: [cond(1)] })).toEqual(['filter.where']);
    expect(paths('x')).toEqual(['filter.where']);
  });

  it('1000 bytes exactly passes, 1001 fails', () => {
    expect(filterOfBytes(1000).length).toBe(1000);
    expect(validateFilter(filterOfBytes(1000))).toEqual([]);
    const v = validateFilter(filterOfBytes(1001));
    expect(v).toEqual([{ path: 'filter', message: 'is 1001 bytes; a filter may be at most 1000 bytes' }]);
  });

  it('measures bytes, not characters', () => {
    const f = filterOfBytes(1000).replace('xx', 'é'); // 2 bytes for 1 character: still 1000 bytes
    expect(validateFilter(f)).toEqual([]);
    expect(validateFilter(f.replace('x', 'é'))[0].message).toMatch(/1001 bytes/);
  });

  it('30 operators pass, 31 fail; and/or do not count', () => {
    // The shortest condition is 36 bytes, so 30 of them are always over 1000 bytes: the two limits are
    // independent checks, and a 30-operator filter is refused for its size only, never for its count.
    expect(countFilterOperators(filterOf(30))).toBe(30);
    expect(validateFilter(filterOf(30)).map((v) => v.message)).toEqual([expect.stringMatching(/bytes/)]);
    expect(validateFilter(filterOf(31))).toContainEqual({
      path: 'filter',
      message: 'has 31 operators; a filter may have at most 30 (one per condition)',
    });
    const nested = { where: { and: [cond(1), { or: [cond(2), { and: [cond(3)] }] }] } };
    expect(countFilterOperators(nested)).toBe(3);
    expect(countFilterOperators('not json')).toBe(0);
  });

  it('accepts a parsed object and measures it as compact JSON', () => {
    expect(validateFilter(JSON.parse(filterOfBytes(1000)))).toEqual([]);
    expect(validateFilter(JSON.parse(filterOfBytes(1001)))[0].message).toMatch(/1001 bytes/);
  });

  it('canonical form sorts keys and drops whitespace', () => {
    const a = '{ "where": { "and": [ { "value": "x", "operator": "eq", "key": "a" } ] } }';
    const b = { where: { and: [{ key: 'a', operator: 'eq', value: 'x' }] } };
    expect(canonicalFilterJson(a)).toBe('{"where":{"and":[{"key":"a","operator":"eq","value":"x"}]}}');
    expect(sameFilter(a, b)).toBe(true);
    expect(sameFilter(a, { where: { and: [{ key: 'a', operator: 'eq', value: 'y' }] } })).toBe(false);
    expect(sameFilter('', null)).toBe(true);
    expect(sameFilter('', b)).toBe(false);
  });
});
