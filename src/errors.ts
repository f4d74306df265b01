/**
 * The few error classes of zoneplan, split by whose fault it is. `src/cli/main.ts` is the only place
 * that catches them and turns them into exit codes; everything else throws.
 *
 * - UserError: the input, the environment or the target is wrong; printed as one clear line, exit 1.
 * - ConfigError: a desired-state file has problems; every diagnostic is printed, exit 1.
 * - anything else is an internal error (a bug): printed with its stack, exit 1.
 *
 * Exit code 2 (changes present / drift) is not an error: commands set it through `ExitCode`.
 */

export const ExitCode = { ok: 0, error: 1, changes: 2 } as const;

export class ZoneplanError extends Error {
  readonly exitCode: number = ExitCode.error;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A problem the user can fix: bad flags, missing credentials, an unreachable target, a refused plan. */
export class UserError extends ZoneplanError {}

/** One located problem in a desired-state file: `file:line:col: path: message`. */
export interface Diagnostic {
  file: string;
  line: number;
  col: number;
  /** dotted path inside the document, e.g. `zones[0].dns.records[3].content` */
  path: string;
  message: string;
  severity: 'error' | 'warning';
}

export function formatDiagnostic(d: Diagnostic): string {
  const where = `${d.file}:${d.line}:${d.col}`;
  const tag = d.severity === 'warning' ? 'warning: ' : '';
  return `${where}: ${d.path ? d.path + ': ' : ''}${tag}${d.message}`;
}

/** The desired-state file(s) have errors; all of them are carried so they are printed at once. */
export class ConfigError extends UserError {
  constructor(readonly diagnostics: Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    super(`${errors} problem${errors === 1 ? '' : 's'} in the desired-state file`);
  }
}
