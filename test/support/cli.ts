/**
 * The CLI inside the test process: main(args, io) with buffers for stdout and stderr, a replaced
 * environment (PATH and NO_COLOR plus `env`, so the host's credentials never leak in) and no TTY.
 * Much faster than a child process per call. Tests about the real process (its exit status,
 * signals, a TTY, a closed pipe, memory limits) spawn bin/zoneplan.js through ./processes.js instead.
 */
import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** added to PATH and NO_COLOR=1; nothing else of the host's environment is seen */
  env?: Record<string, string | undefined>;
  /** default: the test process's working directory */
  cwd?: string;
  /** what apply's confirmation reads; `isTTY` lets apply ask at all */
  stdin?: string;
  stdinIsTTY?: boolean;
}

// Relative paths on the command line are opened by node:fs against the process's directory, so a
// run with `cwd` moves there for its duration; runs queue behind each other so that two of them
// never see each other's directory.
let queue: Promise<unknown> = Promise.resolve();

export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  const result = queue.then(() => runNow(args, opts));
  queue = result.catch(() => undefined);
  return result;
}

async function runNow(args: string[], opts: CliOptions): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const stdin = Object.assign(Readable.from(opts.stdin === undefined ? [] : [opts.stdin]), {
    isTTY: opts.stdinIsTTY ?? false,
  });
  const cwd = opts.cwd ?? process.cwd();
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text), isTTY: false },
    stdin,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...opts.env },
    cwd,
  };
  const before = process.cwd();
  process.chdir(cwd);
  try {
    const code = await main(args, io);
    return { code, stdout, stderr };
  } finally {
    process.chdir(before);
  }
}
