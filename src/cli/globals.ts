import type { Command } from 'commander';

/** Options every command accepts; declared once on the root program. */
export interface GlobalOptions {
  apiUrl?: string;
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
}

export function globalsOf(command: Command): GlobalOptions {
  const opts = command.optsWithGlobals() as Partial<GlobalOptions> & { var?: string[]; varFile?: string[] };
  return {
    apiUrl: opts.apiUrl,
    format: opts.format,
    color: opts.color !== false && useColorByDefault(),
    verbose: Boolean(opts.verbose),
    quiet: Boolean(opts.quiet),
    rateLimit: opts.rateLimit,
    vars: opts.var ?? [],
    varFiles: opts.varFile ?? [],
  };
}

/** Colour only on a TTY and never when NO_COLOR is set (https://no-color.org). */
export function useColorByDefault(stream: NodeJS.WriteStream = process.stdout): boolean {
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return false;
  return Boolean(stream.isTTY);
}
