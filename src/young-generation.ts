/**
 * How much a zoneplan process lets V8's young generation grow. V8 doubles the young generation
 * each time a scavenge finds it busy. For a command of up to some 10,000 records that is what
 * makes it fast: a 10,000-record plan makes 4 scavenges instead of 38 (bin/v8-flags.js has V8 grow
 * it four times at a step), some 20 to 40 ms less of collector pauses (docs/benchmarks.md, "Peak
 * memory"). A command of 100,000 records keeps every
 * record it reads, the young generation grows to V8's maximum, and the peak RSS of the plan is
 * then about 100 MB higher in some runs than in others (about 370 or 470 MB). So once the
 * desired-state files a process has read pass LARGE_INPUT_BYTES, the young generation stops
 * growing (`--semi-space-growth-factor=1`, the one young-generation setting V8 takes after
 * start), and the records go to the old generation sooner.
 *
 * Only a whole process changes its V8 flags (bin/zoneplan.js through main's wholeProcess), never a
 * test's or a library user's. A code cache made under other flags is rejected, so the files the
 * bundle loads later than the switch (the schema validator, undici's parts) compile as they run
 * in such a process: a few milliseconds in a command of seconds.
 */
import { setFlagsFromString } from 'node:v8';

/** 4 MiB: a 100,000-record file in flow style is about 9 MB, a 10,000-record one in block style 1.2 MB */
export const LARGE_INPUT_BYTES = 4 * 1024 * 1024;

let allowed = false;
let bytesRead = 0;
let kept = false;

/** The run is its process's only one: it may set the process's V8 flags. */
export function allowHeapSettings(): void {
  allowed = true;
}

/** Counts the bytes of a desired-state file read; past LARGE_INPUT_BYTES the young generation stops growing. */
export function countInputBytes(bytes: number): void {
  bytesRead += bytes;
  if (!allowed || kept || bytesRead < LARGE_INPUT_BYTES) return;
  kept = true;
  setFlagsFromString('--semi-space-growth-factor=1');
}
