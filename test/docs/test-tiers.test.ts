/**
 * The test tiers' lists in vitest.config.ts name real files, each in one tier: a renamed or deleted
 * file would otherwise leave a stale name behind (and its successor would quietly land in the
 * integration tier), and a file in both lists would run twice.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROCESS_FILES, UNIT_FILES } from '../../vitest.config.js';

const ROOT = resolve(import.meta.dirname, '../..');

describe('the test tiers of vitest.config.ts', () => {
  it('name test files that exist', () => {
    const missing = [...UNIT_FILES, ...PROCESS_FILES].filter((f) => !existsSync(resolve(ROOT, f)));
    expect(missing).toEqual([]);
  });

  it('put each file in one tier, and keep each list sorted (fewer conflicts when two add files)', () => {
    expect(UNIT_FILES.filter((f) => PROCESS_FILES.includes(f))).toEqual([]);
    expect(UNIT_FILES).toEqual([...UNIT_FILES].sort());
    expect(PROCESS_FILES).toEqual([...PROCESS_FILES].sort());
  });
});
