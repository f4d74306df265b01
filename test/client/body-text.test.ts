/**
 * Response bodies: ASCII is taken as it is, anything else is decoded as UTF-8, and a byte order
 * mark is dropped (as undici's text() does), whatever the path.
 */
import { expect, it } from 'vitest';
import { bodyText } from '../../src/client/body-text.js';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p)))));

it('ASCII and UTF-8 bodies come back as their text', () => {
  expect(bodyText(bytes('{"success":true}'))).toBe('{"success":true}');
  expect(bodyText(bytes('{"content":"caf\u00e9 \u2713 \ud83d\ude00"}'))).toBe(
    '{"content":"caf\u00e9 \u2713 \ud83d\ude00"}',
  );
  expect(bodyText(new Uint8Array(0))).toBe('');
});

it('a byte order mark is not part of the text', () => {
  expect(bodyText(bytes([0xef, 0xbb, 0xbf], '{"a":1}'))).toBe('{"a":1}');
  expect(bodyText(bytes([0xef, 0xbb, 0xbf], '{"a":"\u00e9"}'))).toBe('{"a":"\u00e9"}');
});

it('a view into a larger buffer reads only its own bytes', () => {
  const whole = Buffer.from('xx{"a":1}yy');
  expect(bodyText(new Uint8Array(whole.buffer, whole.byteOffset + 2, 7))).toBe('{"a":1}');
});

it('bytes that are not UTF-8 become replacement characters, never a throw', () => {
  expect(bodyText(bytes('{"a":"', [0xff, 0xfe], '"}'))).toBe('{"a":"\ufffd\ufffd"}');
});
