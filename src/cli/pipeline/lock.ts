/**
 * The advisory apply lock: `.zoneplan/apply.lock` beside the (first) desired-state file, holding
 * who took it (pid, host, start time). A second apply on the same checkout says who holds it and
 * waits up to `--lock-timeout` (by default it fails at once). A lock left by a process that is gone
 * (same host, dead pid: a crash, a `kill -9`) is taken over. Across machines no local lock helps;
 * there apply resolves a write refused as already true by re-reading (src/client/errors.ts).
 */
import { linkSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { InvalidArgumentError } from 'commander';
import { UserError } from '../../errors.js';
import { makeDirectory } from '../../make-directory.js';
import { readUserFileSync } from '../../read-user-file.js';

interface Holder {
  pid: number;
  host: string;
  started: string;
}

export interface ApplyLock {
  path: string;
  release(): void;
}

/** `--lock-timeout`: `0`, `30s`, `5m`, or plain seconds. */
export function parseLockTimeout(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/.exec(text);
  if (!m) throw new InvalidArgumentError('expected a duration such as 0, 30s or 5m');
  const n = Number(m[1]);
  return m[2] === 'ms' ? n : m[2] === 'm' ? n * 60_000 : n * 1000;
}

/** The lock of a checkout: in its state directory (src/cli/pipeline/state-dir.ts), beside the journal. */
export function lockPathFor(stateDir: string): string {
  return join(stateDir, 'apply.lock');
}

function readHolder(path: string): Holder | undefined {
  try {
    // (a FIFO or a device put there is refused, not waited on: this read holds the event loop)
    return JSON.parse(readUserFileSync(path, 64 * 1024).toString('utf8')) as Holder;
  } catch {
    return undefined; // being written or removed right now: try again
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The lock appears whole or not at all: the holder is written to a file of this process's own and
 * hard-linked into place (link fails with EEXIST when a lock is there). Opening the lock with `wx`
 * and writing after would leave an empty lock behind a kill between the two, held by nobody.
 */
function tryCreate(path: string, me: Holder): boolean {
  const own = `${path}.${me.pid}.${Date.now()}`;
  writeFileSync(own, JSON.stringify(me));
  try {
    linkSync(own, path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS') return createInPlace(path, me);
    throw err;
  } finally {
    try {
      unlinkSync(own);
    } catch {
      // already gone
    }
  }
}

/** Where a file system has no hard links: create and write in two steps (the 10 s rule below covers a kill). */
function createInPlace(path: string, me: Holder): boolean {
  try {
    writeFileSync(path, JSON.stringify(me), { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** An unreadable lock (empty or cut short: left by a tool that wrote it in two steps) this old is stale. */
const UNREADABLE_STALE_MS = 10_000;

function unreadableAndOld(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > UNREADABLE_STALE_MS;
  } catch {
    return false; // removed meanwhile: the next round creates it
  }
}

export async function acquireApplyLock(
  stateDir: string,
  timeoutMs: number,
  note: (line: string) => void,
): Promise<ApplyLock> {
  const path = lockPathFor(stateDir);
  makeDirectory(dirname(path));
  const me: Holder = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
  const deadline = Date.now() + timeoutMs;
  let said = false;
  for (;;) {
    if (tryCreate(path, me)) break;
    const holder = readHolder(path);
    if (holder && holder.host === me.host && !alive(holder.pid)) {
      note(
        `taking over a stale apply lock left by pid ${holder.pid} (no longer running) since ${holder.started}`,
      );
      try {
        unlinkSync(path);
      } catch {
        // another waiter took it over first; the next round sees its lock
      }
      continue;
    }
    if (!holder && unreadableAndOld(path)) {
      note(`taking over a stale apply lock ${path} that names no holder`);
      try {
        unlinkSync(path);
      } catch {
        // another waiter took it over first
      }
      continue;
    }
    const who = holder
      ? `pid ${holder.pid} on ${holder.host}, since ${holder.started}`
      : 'another process (the lock file is being written)';
    if (Date.now() >= deadline) {
      throw new UserError(
        `another apply holds the lock ${path} (${who}); wait for it to finish` +
          (timeoutMs > 0 ? '' : ', or pass --lock-timeout 10m to wait for it'),
      );
    }
    if (!said) note(`waiting up to ${Math.round(timeoutMs / 1000)}s for the apply lock held by ${who}`);
    said = true;
    await sleep(Math.min(250, Math.max(1, deadline - Date.now())));
  }
  const release = () => {
    process.removeListener('exit', release);
    const holder = readHolder(path);
    if (holder?.pid === me.pid && holder.host === me.host) {
      try {
        unlinkSync(path);
      } catch {
        // already removed
      }
    }
  };
  // a second signal exits at once: the lock goes with the process, not left for a takeover
  process.on('exit', release);
  return { path, release };
}
