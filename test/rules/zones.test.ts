import { describe, expect, it } from 'vitest';
import { ZONE_NAME, ZONE_NAME_PATTERN, checkZoneName, isZoneName } from '../../src/rules/zones.js';

describe('zone names', () => {
  it('accepts domain names in any case, with one trailing dot, IDNs in punycode', () => {
    for (const name of [
      'example.com',
      'EXAMPLE.com.',
      'a.b-c.example.org',
      'xn--bcher-kva.example',
      '1password.com',
    ])
      expect(isZoneName(name), name).toBe(true);
    expect(checkZoneName(' example.com ')).toBeNull();
  });

  it('refuses single labels, numeric or one-letter TLDs, bad labels and over-long names', () => {
    const long = `${'a'.repeat(63)}.`.repeat(4) + 'com'; // 259 characters
    for (const name of [
      'localhost',
      'example.123',
      'x.c',
      'under_score.test',
      '-x.test',
      'x-.test',
      'a..test',
      'ex ample.com',
      `${'a'.repeat(64)}.com`,
      long,
      'example.com..',
    ])
      expect(isZoneName(name), name).toBe(false);
    expect(checkZoneName('Bad Name!.COM.')).toEqual({
      code: 1099,
      message: '"bad name!.com" is not a valid domain name.',
    });
  });

  it('is one rule in two forms: the RegExp and the JSON Schema pattern', () => {
    expect(ZONE_NAME.source).toBe(new RegExp(ZONE_NAME_PATTERN).source);
    // JSON Schema validators compile patterns with the u flag
    expect(new RegExp(ZONE_NAME_PATTERN, 'u').test('example.com')).toBe(true);
    expect(new RegExp(ZONE_NAME_PATTERN, 'u').test('example.123')).toBe(false);
  });
});
