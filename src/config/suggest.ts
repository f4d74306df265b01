/** "did you mean" for misspelt keys and enum values, by edit distance (as git and cargo do). */

/** Levenshtein distance, case-insensitive; O(a*b) on short words only. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const cur = [i];
    for (let j = 1; j <= t.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (s[i - 1] === t[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[t.length];
}

/** The closest candidate when it is close enough to be a likely typo, else undefined. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  if (word.length > 64) return undefined;
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    const d = editDistance(word, c);
    // a third of the longer word may differ (`recods` -> `records`), one more when both start with
    // the same four letters (`proxy` -> `proxied`)
    const samePrefix = word.length >= 4 && c.toLowerCase().startsWith(word.slice(0, 4).toLowerCase());
    const allowed = Math.max(1, Math.floor(Math.max(word.length, c.length) / 3)) + (samePrefix ? 1 : 0);
    if (d <= allowed && d < bestScore) {
      best = c;
      bestScore = d;
    }
  }
  return best;
}
