/**
 * The one way a command writes a file the user named (`plan --out`, `export --out`). The rules
 * (docs/plan-and-apply.md, docs/export.md):
 *  - a file this run reads (a desired-state file, a `--var-file`) is never replaced, even with
 *    `--force`: `plan z.yaml --out z.yaml` would lose the desired state;
 *  - an existing file is replaced only with `--force`;
 *  - a symbolic link, a directory, a FIFO or a device at the path is refused: nothing is written
 *    through a link to somewhere else;
 *  - the text goes to a new file in the same directory, flushed, then renamed over the path, so the
 *    path holds the old file or the whole new one, never half of it (and a rename replaces a link
 *    put there meanwhile instead of following it).
 */
import {
  chmodSync,
  closeSync,
  fsyncSync,
  lstatSync,
  openSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { nodeCrypto } from './node-crypto.js';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from './errors.js';
import { kindOf } from './read-user-file.js';

export interface OutputRules {
  /** how the path was given, for messages: `--out` */
  flag: string;
  /** replace an existing regular file */
  force?: boolean;
  /** the files this run reads (relative to the working directory, as given) */
  inputs?: string[];
  /** what relative paths are relative to (default: the process's directory) */
  cwd?: string;
}

/** Refuses a path that the rules would refuse; run before the work, so a refusal costs nothing. */
export function checkOutputPath(file: string, rules: OutputRules): void {
  if (file.trim() === '') throw new UserError(`${rules.flag} needs a file path (it was given an empty one)`);
  const target = resolve(rules.cwd ?? process.cwd(), file);
  const shown = `${rules.flag} ${file}`;
  let info;
  try {
    info = lstatSync(target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    throw new UserError(`${shown}: cannot check the path (${code ?? String(err)})`);
  }
  if (info.isSymbolicLink())
    throw new UserError(
      `${shown} is a symbolic link; zoneplan does not write through one (name the file itself, or remove the link)`,
    );
  if (!info.isFile()) throw new UserError(`${shown} is ${kindOf(info)}; only a regular file is written`);
  for (const input of rules.inputs ?? []) {
    const other = statOrUndefined(resolve(rules.cwd ?? process.cwd(), input));
    if (other && other.dev === info.dev && other.ino === info.ino)
      throw new UserError(
        `${shown} is ${input}, which this run reads; choose another path (--force never replaces an input)`,
      );
  }
  if (!rules.force)
    throw new UserError(`${shown} already exists; pass --force to replace it, or choose another path`);
}

/** Writes `text` to `file` under the rules above; a refusal or a failure leaves the path as it was. */
export function writeOutputFile(file: string, text: string, rules: OutputRules): void {
  checkOutputPath(file, rules);
  const target = resolve(rules.cwd ?? process.cwd(), file);
  const failed = replaceAtomically(target, text);
  if (failed) throw new UserError(`${rules.flag} ${file}: cannot write it (${failed})`);
}

/**
 * Writes `text` to a new temporary file beside `target`, flushes it, then renames it over `target`:
 * a reader sees the old file or the new one, never half of one. `mode` is the new file's (the
 * process's default when absent). Returns why it failed (an errno code or a message), having left
 * no temporary file behind, or undefined when the file was replaced.
 */
export function replaceAtomically(target: string, text: string, mode?: number): string | undefined {
  const temp = join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.tmp`,
  );
  let fd: number | undefined;
  try {
    // `wx`: created here, or the write fails (never an existing file, never through a link)
    fd = mode === undefined ? openSync(temp, 'wx') : openSync(temp, 'wx', mode);
    writeSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    // the umask narrowed the mode given to open: the file keeps the one asked for
    if (mode !== undefined) chmodSync(temp, mode);
    renameSync(temp, target);
    return undefined;
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // not created, or already renamed
    }
    return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  }
}

function statOrUndefined(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
