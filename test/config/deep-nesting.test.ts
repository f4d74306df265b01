/**
 * A file nested thousands of levels deep overflows the YAML parser's stack: the error says what is
 * wrong (nesting deeper than the limit) and where, not "Maximum call stack size exceeded".
 */
import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, parseYamlText } from '../../src/config/yaml-source.js';

const messages = (text: string) =>
  parseYamlText('t.yaml', text, { fastPath: false }).diagnostics.map(
    (d) => `${d.file}:${d.line}:${d.col}: ${d.message}`,
  );

describe('nesting 2,000 levels deep', () => {
  it('flow style: says the limit and where it is passed', () => {
    const out = messages('version: 1\nzones: ' + '['.repeat(2000) + ']'.repeat(2000) + '\n');
    expect(out).toEqual([
      `t.yaml:2:${8 + MAX_DEPTH - 1}: nesting deeper than the limit (64 levels) starts here`,
    ]);
  });

  it('block style: the line where the limit is passed', () => {
    const text =
      'version: 1\nzones:\n' +
      Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i * 2 + 2)}- k${i}:`).join('\n') +
      ' 1\n';
    const out = messages(text);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^t\.yaml:\d+:\d+: nesting deeper than the limit \(64 levels\) starts here$/);
    expect(out.join()).not.toContain('call stack');
    const line = Number(/^t\.yaml:(\d+):/.exec(out[0]!)![1]);
    expect(line).toBeGreaterThan(30);
    expect(line).toBeLessThan(70);
  });
});
