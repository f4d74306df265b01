/**
 * mulberry32: a tiny seeded generator of numbers in [0, 1), the same in every Node version, so a
 * seed replays exactly (the local API's `--faults seed=42` gives the same 503s in every run; a
 * failing generated test is reproduced from its seed). The one implementation: the test beds and
 * bench scripts import it too (test/support/scenario.js re-exports it for the plain-JS scripts).
 * No imports, and only syntax Node can strip, so plain JS run by node can import this file as is.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
