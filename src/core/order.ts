/**
 * Deterministic order of steps: topological over dependsOn, ties broken by a rank (owner, kind,
 * address, id), so the same input always prints and runs in the same order. O(n log n) with a
 * binary heap: a plan of 100,000 records must order in well under a second.
 */
import type { Step } from './runtime.js';

class MinHeap {
  private a: number[] = [];
  get size(): number {
    return this.a.length;
  }
  push(v: number): void {
    const a = this.a;
    a.push(v);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p] <= a[i]) break;
      [a[p], a[i]] = [a[i], a[p]];
      i = p;
    }
  }
  pop(): number {
    const a = this.a;
    const top = a[0];
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l] < a[m]) m = l;
        if (r < a.length && a[r] < a[m]) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top;
  }
}

/**
 * `rank(step)` gives the preferred position among steps that are free to go; dependencies on ids
 * that are not in `steps` are ignored. A cycle is a bug in a kind and throws, naming the steps.
 */
export function orderSteps(steps: Step[], rank: (a: Step, b: Step) => number): Step[] {
  const sorted = [...steps].sort(rank);
  const index = new Map(sorted.map((s, i) => [s.id, i]));
  const indegree = new Array<number>(sorted.length).fill(0);
  const dependants: number[][] = sorted.map(() => []);
  sorted.forEach((s, i) => {
    for (const d of new Set(s.dependsOn)) {
      const j = index.get(d);
      if (j === undefined || j === i) continue;
      indegree[i]++;
      dependants[j].push(i);
    }
  });
  const heap = new MinHeap();
  indegree.forEach((n, i) => n === 0 && heap.push(i));
  const out: Step[] = [];
  while (heap.size > 0) {
    const i = heap.pop();
    out.push(sorted[i]);
    for (const k of dependants[i]) if (--indegree[k] === 0) heap.push(k);
  }
  if (out.length !== sorted.length) {
    const stuck = sorted.filter((_, i) => indegree[i] > 0).map((s) => s.id);
    throw new Error(`dependency cycle between steps: ${stuck.slice(0, 5).join(', ')}`);
  }
  return out;
}
