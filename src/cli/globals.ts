import type { Command } from 'commander';
import { runOf, type CliIo, type CliRun, type OutStream } from './io.js';

/** Options every command accepts; declared once on the root program. */
export interface GlobalOptions {
  apiUrl?: string;
  /** where apiUrl comes from, for the target line (default `from --api-url`) */
  apiUrlFrom?: string;
  format?: string;
  color: boolean;
  verbose: boolean;
  quiet: boolean;
  /** `N/SECONDS`, e.g. `1200/300` (the real API's budget per user) */
  rateLimit?: string;
  /** `--var NAME=VALUE`, in the order given */
  vars: string[];
  /** `--var-file FILE`, in the order given (later files win) */
  varFiles: string[];
  /** the run's streams, environment and directory (never process.*) */
  io: CliIo;
  /** the run itself: a command sets `run.exitCode` to end with 2 (changes, drift) without failing */
  run: CliRun;
  /** `--local`: the embedded local API on purpose (the only way to it in CI) */
  local: boolean;
  /** `--require-target api|local` */
  requireTarget?: string;
}

export function globalsOf(command: Command): GlobalOptions {
  const opts = command.optsWithGlobals() as Partial<GlobalOptions> & { var?: string[]; varFile?: string[] };
  const run = runOf(command);
  return {
    apiUrl: opts.apiUrl,
    format: opts.format,
    color: opts.color !== false && useColorByDefault(run.io.stdout, run.io.env),
    verbose: Boolean(opts.verbose),
    quiet: Boolean(opts.quiet),
    rateLimit: opts.rateLimit,
    vars: opts.var ?? [],
    varFiles: opts.varFile ?? [],
    io: run.io,
    run,
    local: Boolean(opts.local),
    requireTarget: opts.requireTarget,
  };
}

/** Colour only on a TTY and never when NO_COLOR is set (https://no-color.org). */
export function useColorByDefault(stream: OutStream, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return Boolean(stream.isTTY);
}
