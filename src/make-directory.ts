/**
 * `mkdir -p` that always ends. node's `mkdirSync(dir, { recursive: true })` loops forever, at 100%
 * CPU and deaf to signals (the loop never yields), where the kernel answers ENOENT for a directory
 * whose parent exists (inside `/proc/self`, for one). Here each missing directory is made once,
 * from the nearest existing one down, and any refusal is an error naming the directory.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UserError } from './errors.js';

export function makeDirectory(dir: string): void {
  const missing: string[] = [];
  for (let at = resolve(dir); ;) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(at).isDirectory();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT')
        throw new UserError(`cannot create the directory ${dir} (${at}: ${code ?? String(err)})`);
      missing.unshift(at);
      const up = dirname(at);
      if (up === at) break;
      at = up;
      continue;
    }
    if (!isDirectory) throw new UserError(`cannot create the directory ${dir}: ${at} is not a directory`);
    break;
  }
  for (const at of missing) {
    try {
      mkdirSync(at);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST')
        throw new UserError(`cannot create the directory ${at} (${code ?? String(err)})`);
    }
  }
}
