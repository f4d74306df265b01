/**
 * Where a run keeps its state (`.zoneplan/`: the embedded local API's database, the apply journal,
 * the apply lock): beside the first desired-state path of the command line, or inside it when that
 * path is a directory. One place, so every piece of state of one set of files lands together.
 */
import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The directory that relative `target.local` paths and `.zoneplan/` are resolved against. */
export function stateBaseOf(paths: string[], cwd: string): string {
  const first = resolve(cwd, paths[0] ?? '.');
  let isDirectory = false;
  try {
    isDirectory = statSync(first).isDirectory();
  } catch {
    // a missing path was reported when the files were read
  }
  return isDirectory ? first : dirname(first);
}

/** `.zoneplan/` of the first desired-state path (see stateBaseOf). */
export function stateDirOf(paths: string[], cwd: string): string {
  return join(stateBaseOf(paths, cwd), '.zoneplan');
}
