/**
 * What one run of the CLI reads from and writes to. `bin/zoneplan.js` passes the process's own
 * (processIo()); tests pass buffers and their own env, so a run inside the test process sees only
 * what it was given. Commands reach it through globalsOf(command).io and never read process.* for
 * these. A run's exit code lives in its CliRun and main() returns it: nothing calls process.exit.
 */
import type { Command } from 'commander';

/** A stream the CLI writes text to; `isTTY` and `columns` decide colour, progress bars and help width. */
export interface OutStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface CliIo {
  stdout: OutStream;
  stderr: OutStream;
  /** read only by apply's confirmation; `isTTY` decides whether apply may ask at all */
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** where the CLI's defaults sit (`./zoneplan.yaml`) and what paths it shows are relative to */
  cwd: string;
}

export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // on first use: Node builds process.stdin when it is first read, a stream most commands never need
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
  };
}

/** One run: its io, and the exit code a command asks for without failing (2: changes or drift). */
export interface CliRun {
  readonly io: CliIo;
  exitCode: number;
  /** the arguments the run was given, for a hint that repeats them (./resume-hint.ts) */
  readonly argv?: readonly string[];
}

// keyed by the root command, which main() builds afresh for every run
const runs = new WeakMap<Command, CliRun>();

export function attachRun(program: Command, run: CliRun): void {
  runs.set(program, run);
}

/** The run a (sub)command belongs to. */
export function runOf(command: Command): CliRun {
  let root = command;
  while (root.parent) root = root.parent;
  const run = runs.get(root);
  if (!run) throw new Error('a zoneplan command ran outside main()');
  return run;
}
