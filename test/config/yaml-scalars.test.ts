/**
 * The one set of plain-scalar rules (src/config/yaml-scalars.ts) against the `yaml` package itself:
 * every spelling the YAML 1.2 core schema treats specially, and text that only looks like it, must
 * get the value `yaml` gives the same text as a plain scalar.
 */
import { parse } from 'yaml';
import { expect, it } from 'vitest';
import { plainScalarValue, readsAsString, yaml11Typed } from '../../src/config/yaml-scalars.js';

const TEXTS = [
  ...['~', 'null', 'Null', 'NULL', 'nULL', 'true', 'True', 'TRUE', 'tRUE', 'false', 'False', 'FALSE'],
  ...['yes', 'no', 'on', 'off', 'y', 'n'],
  ...['0', '-0', '+0', '007', '+12', '-12', '300', '9007199254740993', '12345678901234567890'],
  ...['999999999999999', '-999999999999999', '9999999999999999', '000000000000000123', '+0000000000000001'],
  ...['0o17', '0o8', '0O17', '0x1F', '0x1f', '0X1F', '0xG', '0b101', '1_000'],
  ...['.inf', '-.inf', '+.Inf', '.INF', '.nan', '.NaN', '.NAN', '-.nan', '.Nan'],
  ...['1.5', '-1.50', '1.', '.5', '-.5', '+.5', '1e3', '1E3', '-1.5e-3', '.5e2', '1.e2', '1e', 'e3'],
  ...['1.2.3', '192.0.2.1', '2001:db8::1', '::1', '12:30', '1:2:3', '2026-01-01', '1.5.', '.'],
  ...['+', '+-1', '--1', 'a', 'www', 'v=spf1', 'target.example.net', '1a', 'a1', '0o', '0x'],
];

it('types plain text exactly as the yaml package reads it', () => {
  for (const text of TEXTS) {
    const read = (parse(`v: ${text}`) as { v: unknown }).v;
    expect(
      Object.is(plainScalarValue(text), read) || (Number.isNaN(read) && Number.isNaN(plainScalarValue(text))),
      text,
    ).toBe(true);
    expect(readsAsString(text), text).toBe(typeof read === 'string');
  }
});

it('tells a writer what a YAML 1.1 reader would not read as a string', () => {
  for (const text of ['yes', 'No', 'ON', 'y', '1_000', '0755', '1:30', '2026-01-01', '300', '.inf', 'null'])
    expect(yaml11Typed(text), text).toBe(true);
  for (const text of ['www', '192.0.2.1', '2001:db8::1', 'v=spf1', 'yesno', 'target.example.net'])
    expect(yaml11Typed(text), text).toBe(false);
});
