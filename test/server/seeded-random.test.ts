/**
 * One seeded generator (src/seeded-random.ts) behind every seed: the local API's `--faults seed=N`,
 * the reliability scenario's `rng` (test/support/scenario.js, also run by the bench scripts) and the
 * generated DNS entries (test/support/dns-entries.ts). The same seed gives the same draws everywhere.
 */
import { describe, expect, it } from 'vitest';
import { Faults } from '../../src/server/faults.js';
import { seededRandom } from '../../src/seeded-random.js';
import { rng as entriesRng } from '../support/dns-entries.js';
import { rng as scenarioRng } from '../support/scenario.js';

const draws = (next: () => number, n: number) => Array.from({ length: n }, () => next());

describe('the seeded generator', () => {
  it('is mulberry32: the draws a seed has always given', () => {
    expect(draws(seededRandom(42), 3)).toEqual([0.6011037519201636, 0.44829055899754167, 0.8524657934904099]);
  });

  it('is the one the test beds use', () => {
    expect(scenarioRng).toBe(seededRandom);
    expect(draws(entriesRng(7).next, 20)).toEqual(draws(seededRandom(7), 20));
  });

  it('decides which requests of `--faults error5xx=0.5,seed=42` get a 503', async () => {
    const faults = new Faults({ error5xx: 0.5, seed: 42 });
    const got: boolean[] = [];
    for (let i = 0; i < 20; i++)
      got.push(
        await faults.before().then(
          () => false,
          () => true,
        ),
      );
    expect(got).toEqual(draws(seededRandom(42), 20).map((x) => x < 0.5));
  });
});
