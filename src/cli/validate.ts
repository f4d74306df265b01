/**
 * `zoneplan validate PATH...`: every check of the desired-state file(s) and directories, offline (no network, no
 * credentials). Diagnostics are this command's result, so they go to stdout (text or JSON); the
 * exit code is 1 when any file has an error, 0 otherwise (warnings do not fail).
 */
import type { Command } from 'commander';
import { formatDiagnostic } from '../errors.js';
import { globalsOf } from './globals.js';
import { createOutput } from './output.js';

interface ValidateOptions {
  allowMissingEnv?: boolean;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function registerValidate(program: Command): void {
  program
    .command('validate <paths...>')
    .description('check desired-state files offline: schema and every rule of the spec')
    .option('--allow-missing-env', 'report unset ${env:NAME} variables as warnings (CI jobs without secrets)')
    .addHelpText(
      'after',
      '\nPrints every problem as `file:line:col: path: message`, then `ok: FILE: N zones, M records` per clean file.\n' +
        'Exit code: 0 when no file has an error (warnings allowed), 1 otherwise. --format json prints\n' +
        '{ "files": [{ "file", "ok", "zones", "records", "diagnostics": [{ file, line, col, path, message, severity }] }] }.',
    )
    .action(async (files: string[], opts: ValidateOptions, command: Command) => {
      const globals = globalsOf(command);
      // text or json: any other format is refused before this runs (./formats.ts)
      const format = globals.format ?? 'text';
      // Loaded on use so that `zoneplan --help` does not pay for ajv and the schema.
      const { validationOf } = await import('../config/load.js');
      const { checkFiles } = await import('../config/desired-files.js');
      const { variablesFromCli } = await import('../config/vars.js');
      const vars = await variablesFromCli(globals.varFiles, globals.vars);
      // the files (and directories) are one desired state, as for plan: each is reported, and a
      // zone declared in two of them is an error in the later one
      const { checks } = await checkFiles(files, {
        allowMissingEnv: opts.allowMissingEnv,
        env: globals.io.env,
        vars,
        cwd: globals.io.cwd,
      });
      const results = checks.map(validationOf);
      const failed = results.filter((r) => !r.ok);
      if (failed.length > 0) globals.run.exitCode = 1;

      const output = createOutput(globals);
      if (format === 'json') {
        const files = results.map(({ file, ok, zones, records, diagnostics }) => ({
          file,
          ok,
          zones,
          records,
          diagnostics,
        }));
        output.out(JSON.stringify({ files }, null, 2));
        return;
      }
      const { style } = output;
      for (const r of results) {
        for (const d of r.diagnostics) {
          const line = formatDiagnostic(d);
          output.out(d.severity === 'warning' ? line : style.red(line));
        }
        if (r.ok)
          output.out(
            style.green(`ok: ${r.file}: ${plural(r.zones, 'zone')}, ${plural(r.records, 'record')}`),
          );
      }
      if (failed.length > 0) {
        const problems = failed.reduce(
          (n, r) => n + r.diagnostics.filter((d) => d.severity === 'error').length,
          0,
        );
        globals.io.stderr.write(
          `${style.red('error:')} ${plural(problems, 'problem')} in ${plural(failed.length, 'file')}\n`,
        );
      }
    });
}
