/**
 * Convergence by construction (issue 14, point 3): records of every type, each in a random spelling
 * the validator accepts, applied in one batch to the real local API through the real CLI; the plan
 * after that apply must be empty. Seeded, so a failure names the seed that reproduces it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT, cliAt, startBed, type Bed } from '../cli-reconcile/helpers.js';
import { GENERATED_TYPES, generateRecords } from './spellings.js';

const SEEDS = [1, 2, 3];
const PER_TYPE = 4;

let bed: Bed;
beforeAll(async () => {
  // the zones exist on a paid plan: the spellings include tags, which a Free zone refuses
  bed = await startBed({
    fixtures: {
      accounts: [{ id: ACCOUNT, name: 'Convergence' }],
      zones: SEEDS.map((seed) => ({ name: `conv${seed}.example`, account: ACCOUNT, plan: 'pro' })),
    },
  });
});
afterAll(() => bed.close());

describe('every spelling validate accepts converges after one apply', () => {
  it(`seeds ${SEEDS.join(', ')}: ${GENERATED_TYPES.length} types x ${PER_TYPE} records per zone`, async () => {
    // one zone per seed, all in one file: one validate, one apply, one plan
    const zones = SEEDS.map((seed) => {
      const name = `conv${seed}.example`;
      return { name, account: ACCOUNT, dns: { records: generateRecords(seed, name, PER_TYPE) } };
    });
    const file = join(bed.dir, 'spellings.json');
    writeFileSync(file, JSON.stringify({ version: 1, zones }, null, 2));

    const validated = await cliAt(bed, ['validate', file]);
    expect(validated.code, `validate\n${validated.stdout}${validated.stderr}`).toBe(0);
    const applied = await cliAt(bed, ['apply', file, '--auto-approve']);
    expect(applied.code, `apply\n${applied.stdout}${applied.stderr}`).toBe(0);
    const again = await cliAt(bed, ['plan', file, '--detailed-exitcode']);
    expect(again.code, `second plan\n${again.stdout}${again.stderr}`).toBe(0);
  });

  it('the generator is deterministic and spells every type', () => {
    expect(generateRecords(7, 'a.example', 2)).toEqual(generateRecords(7, 'a.example', 2));
    const types = new Set(generateRecords(7, 'a.example', 1).map((r) => r.type));
    expect([...types].sort()).toEqual([...GENERATED_TYPES].sort());
  });
});
