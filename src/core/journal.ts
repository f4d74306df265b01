/**
 * The apply journal: one JSON line per event (run started, step started / done / failed / unknown /
 * resolved, run finished) under `.zoneplan/journal/` beside the desired-state file, so that a run
 * that stopped halfway leaves a record of exactly what was and was not done. Every line passes
 * through redact() and carries no before/after values, only addresses and ids.
 */
import { appendFileSync } from 'node:fs';
import { makeDirectory } from '../make-directory.js';
import { join } from 'node:path';
import { redact } from '../redact.js';

export interface JournalEvent {
  event: string;
  id?: string;
  address?: string;
  action?: string;
  error?: string;
  [k: string]: unknown;
}

export interface Journal {
  readonly path: string | undefined;
  write(e: JournalEvent): void;
}

/** A journal file named for the run's start time; `now` is injectable for tests. */
export function openJournal(dir: string, now: Date = new Date()): Journal {
  makeDirectory(dir);
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const path = join(dir, `${stamp}-${process.pid}.jsonl`);
  return {
    path,
    write(e) {
      appendFileSync(path, redact(JSON.stringify({ ts: new Date().toISOString(), ...e })) + '\n');
    },
  };
}

export const nullJournal: Journal = { path: undefined, write() {} };
