/**
 * `zoneplan fmt [--check] PATH...`: rewrites desired-state files in one canonical layout
 * (docs/file-format.md, "Formatting"), like `terraform fmt`. With --check it writes nothing, names
 * the files that would change and exits 1 when there are any (for CI).
 */
import type { Command } from 'commander';
import { globalsOf } from './globals.js';
import { createOutput } from './output.js';

export interface FmtOptions {
  check?: boolean;
}

export function registerFmt(program: Command): void {
  program
    .command('fmt <paths...>')
    .description(
      'rewrite desired-state files in the canonical layout (key order, quoting); comments are kept',
    )
    .option('--check', 'write nothing; list the files that are not formatted and exit 1 if there are any')
    .addHelpText(
      'after',
      '\nA path is a file or a directory (its *.yaml and *.yml files, recursively). Examples:\n' +
        '  zoneplan fmt zones/\n' +
        '  zoneplan fmt --check zones/   # in CI: exit 1 and the file names when one is not formatted',
    )
    .action(async (paths: string[], opts: FmtOptions, command: Command) => {
      const globals = globalsOf(command);
      const { runFmt } = await import('./fmt-run.js');
      await runFmt(paths, opts, globals, createOutput(globals));
    });
}
