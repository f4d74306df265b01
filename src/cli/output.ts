import type { TextStyle } from '../core/render-text.js';
import type { GlobalOptions } from './globals.js';

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;

/** Minimal ANSI styling for the plan's text style; every helper returns the plain text when colour is off. */
export function styles(color: boolean): TextStyle {
  if (!color) {
    const id = (s: string) => s;
    return { green: id, red: id, yellow: id, cyan: id, bold: id, dim: id };
  }
  return {
    green: wrap(32, 39),
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
    bold: wrap(1, 22),
    dim: wrap(2, 22),
  };
}

/**
 * Where commands write. Results go to stdout; progress, notes and the verbose request log go to
 * stderr so that `--format json` on stdout stays machine-readable.
 */
export interface Output {
  style: TextStyle;
  /** a result line on stdout (always printed) */
  out(line: string): void;
  /** a note on stderr (silenced by --quiet) */
  info(line: string): void;
  /** a warning on stderr (always printed) */
  warn(line: string): void;
  /** one line of the --verbose request log on stderr */
  debug(line: string): void;
  verbose: boolean;
}

export function createOutput(globals: GlobalOptions): Output {
  const style = styles(globals.color);
  const { stdout, stderr } = globals.io;
  return {
    style,
    verbose: globals.verbose,
    out: (line) => stdout.write(line + '\n'),
    info: (line) => {
      if (!globals.quiet) stderr.write(line + '\n');
    },
    warn: (line) => stderr.write(style.yellow('warning: ') + line + '\n'),
    debug: (line) => {
      if (globals.verbose) stderr.write(style.dim(line) + '\n');
    },
  };
}
