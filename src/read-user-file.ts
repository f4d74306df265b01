/**
 * The one way a file named by a user (a desired-state file, a `--var-file`, a saved plan, a
 * fixtures file) is read, by the CLI and by the local API alike.
 *
 * Only a regular file is read, and never more than a limit. The file is opened non-blocking and
 * checked on the open descriptor (fstat), so what is checked is what is read (no window for a swap
 * between a stat and an open):
 *  - a FIFO, a socket or a device (`/dev/zero`, a named pipe) is refused before any read: a read of
 *    one may never end, or never stop growing, and a blocked read cannot be interrupted;
 *  - a size over the limit is refused before any read;
 *  - files whose size says nothing (`/proc/self/environ` reports 0 bytes) are read only up to the
 *    limit, never further.
 * See docs/reliability.md.
 */
import {
  close,
  closeSync,
  constants,
  fstat,
  fstatSync,
  open,
  openSync,
  read,
  readSync,
  type Stats,
} from 'node:fs';
import { promisify } from 'node:util';
import { UserError } from './errors.js';

/** Why a path was not read: `reason` is a phrase to follow the file's name (`no such file`). */
export class UserFileError extends UserError {
  constructor(
    readonly file: string,
    readonly reason: string,
    readonly code?: string,
  ) {
    super(`${file}: ${reason}`);
  }
}

// A FIFO opened for reading without O_NONBLOCK waits for a writer, in a thread that no signal
// reaches; with it the open returns at once and fstat says what it is. (0 where the platform has
// no such flag: Windows has no FIFOs of this kind.)
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

const CHUNK = 64 * 1024;

/** What a path is, in words, when it is not a regular file. */
export function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

function refuseUnlessRegular(file: string, info: Stats, limit: number): void {
  if (!info.isFile())
    throw new UserFileError(file, `is ${kindOf(info)}, not a regular file; only files are read`);
  if (info.size > limit) throw tooLarge(file, `is ${info.size} bytes`, limit);
}

const tooLarge = (file: string, size: string, limit: number) =>
  new UserFileError(file, `${size}; files read here are limited to ${limit} bytes`, 'EFBIG');

function openError(file: string, err: unknown): UserFileError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new UserFileError(file, 'no such file', code);
  if (code === 'EISDIR') return new UserFileError(file, 'is a directory, not a regular file', code);
  return new UserFileError(file, `cannot read it (${code ?? String(err)})`, code);
}

/**
 * The chunks of one bounded read, for the sync and the async reader alike: never more than
 * `limit` + 1 bytes are asked for, so a file whose size says nothing (`/proc`) stops at the limit.
 */
class BoundedBytes {
  private readonly chunks: Buffer[] = [];
  private total = 0;
  private last: Buffer | undefined;
  constructor(
    private readonly file: string,
    private readonly limit: number,
    private readonly chunkSize: number,
  ) {}
  /** a buffer for the next read */
  next(): Buffer {
    return (this.last = Buffer.allocUnsafe(Math.min(this.chunkSize, this.limit + 1 - this.total)));
  }
  /** records what the last read filled; false at the end of the file */
  took(n: number): boolean {
    if (n === 0) return false;
    this.chunks.push(this.last!.subarray(0, n));
    this.total += n;
    if (this.total > this.limit) throw tooLarge(this.file, 'is larger than that', this.limit);
    return true;
  }
  all(): Buffer {
    return Buffer.concat(this.chunks, this.total);
  }
}

/** The bytes of a regular file of at most `limit` bytes; throws UserFileError otherwise. */
export function readUserFileSync(file: string, limit: number): Buffer {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (err) {
    throw openError(file, err);
  }
  try {
    refuseUnlessRegular(file, fstatSync(fd), limit);
    const bytes = new BoundedBytes(file, limit, CHUNK);
    for (;;) {
      const chunk = bytes.next();
      if (!bytes.took(readSync(fd, chunk, 0, chunk.length, null))) break;
    }
    return bytes.all();
  } catch (err) {
    if (err instanceof UserFileError) throw err;
    throw openError(file, err);
  } finally {
    closeSync(fd);
  }
}

// node:fs's callbacks, not node:fs/promises: loading that module (with the readline it brings)
// was a measurable part of every command's start-up (docs/benchmarks.md, "Start-up")
const openAsync = promisify(open);
const fstatAsync = promisify(fstat);
const readAsync = promisify(read);
const closeAsync = promisify(close);

/** readUserFileSync without holding the event loop (a signal is handled while it reads). */
export async function readUserFile(file: string, limit: number): Promise<Buffer> {
  let fd: number;
  try {
    fd = await openAsync(file, OPEN_FLAGS);
  } catch (err) {
    throw openError(file, err);
  }
  try {
    refuseUnlessRegular(file, await fstatAsync(fd), limit);
    const bytes = new BoundedBytes(file, limit, CHUNK * 16);
    for (;;) {
      const chunk = bytes.next();
      if (!bytes.took((await readAsync(fd, chunk, 0, chunk.length, null)).bytesRead)) break;
    }
    return bytes.all();
  } catch (err) {
    if (err instanceof UserFileError) throw err;
    throw openError(file, err);
  } finally {
    await closeAsync(fd);
  }
}

/** The text (UTF-8) of a regular file of at most `limit` bytes; see readUserFile. */
export async function readUserText(file: string, limit: number): Promise<string> {
  return (await readUserFile(file, limit)).toString('utf8');
}

/** Saved plans and fixtures files may hold a whole account's objects: larger than a desired file. */
export const MAX_DATA_FILE_BYTES = 256 * 1024 * 1024;
