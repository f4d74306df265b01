// The small shapes both sides check (a JSON object, its type, the 32-hex id) are defined once, in
// src/rules/shared/values.ts; a copy elsewhere drifts (one accepted arrays, one did not). This reads
// the source tree and names any file that writes one of them again.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const HOME = 'src/rules/shared/values.ts';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sources(path);
    return d.name.endsWith('.ts') ? [relative(root, path)] : [];
  });
}

/** `file:line: text` for every line of src/ (outside values.ts) that matches `pattern`. */
function copies(pattern: RegExp): string[] {
  return sources(join(root, 'src'))
    .filter((file) => file !== HOME)
    .flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
}

describe('shared value shapes are defined once (src/rules/shared/values.ts)', () => {
  it('the object check: isObject, not a hand-written typeof/Array.isArray test', () => {
    expect(copies(/=== 'object'.*!Array\.isArray\(|!Array\.isArray\(.*=== 'object'/)).toEqual([]);
  });

  it('the object type: Entry, not a second `type Entry`', () => {
    expect(copies(/\btype Entry\s*=/)).toEqual([]);
  });

  it('the 32-hex id: ID32 / ID32_ANY_CASE, not a second pattern', () => {
    expect(copies(/\{32\}/)).toEqual([]);
  });
});
