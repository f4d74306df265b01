/**
 * The zoneplan command line. This file is the only top-level catch: every command throws typed
 * errors (src/errors.ts) and this maps them to exit codes (0 ok, 1 error, 2 changes or drift, set by
 * the commands themselves on their run, see ./io.ts). main(argv, io) returns the code and never
 * exits: bin/zoneplan.js sets process.exitCode, tests call main in-process with their own io.
 * Commands live one per file beside this one and import their heavy dependencies lazily, so
 * `zoneplan --help` starts fast.
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { ConfigError, ExitCode, ZoneplanError, formatDiagnostic } from '../errors.js';
import { redact, withSecretScope } from '../redact.js';
import { checkFormat } from './formats.js';
import { useColorByDefault } from './globals.js';
import { attachRun, processIo, type CliIo, type CliRun } from './io.js';
import { redactingIo } from './redacting-io.js';
import { styles } from './output.js';
import { registerValidate } from './validate.js';
import { registerPlan } from './plan.js';
import { registerApply } from './apply.js';
import { registerDrift } from './drift.js';
import { registerExport } from './export.js';
import { registerServe } from './serve.js';
import { registerPageShield } from './page-shield.js';
import { registerLogpush } from './logpush.js';
import { registerCompletion } from './completion.js';
import { registerFmt } from './fmt.js';
import { allowHeapSettings } from '../young-generation.js';

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/** commander's reducer for repeatable options */
const collect = (value: string, previous: string[]) => [...previous, value];

export { processIo, type CliIo };

export function buildProgram(run: CliRun = { io: processIo(), exitCode: ExitCode.ok }): Command {
  const { io } = run;
  const program = new Command('zoneplan')
    // before the subcommands exist: they inherit it (as they inherit exitOverride)
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      getOutHelpWidth: () => (io.stdout.isTTY && io.stdout.columns) || 80,
      getErrHelpWidth: () => (io.stderr.isTTY && io.stderr.columns) || 80,
      getOutHasColors: () => useColorByDefault(io.stdout, io.env),
      getErrHasColors: () => useColorByDefault(io.stderr, io.env),
    })
    .description('Plan and apply the configuration of zones and accounts from a YAML desired-state file.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .option('--api-url <url>', 'API base URL (overrides CLOUDFLARE_BASE_URL and the file target)')
    .option('--local', 'use the embedded local API on purpose (needed in CI or with empty credentials)')
    .addOption(
      new Option('--require-target <sort>', 'refuse to run unless the target is of this sort').choices([
        'api',
        'local',
      ]),
    )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'markdown']))
    .option('--no-color', 'never colour the output (also NO_COLOR)')
    .option('-v, --verbose', 'log every API request as one line (no bodies, no secrets)')
    .option('-q, --quiet', 'print only results and errors')
    .option(
      '--rate-limit <n/seconds|percent>',
      "client-wide request budget: 1200/300 (the default, the API's budget per user), or a share of it such as 50% (also ZONEPLAN_RATE_LIMIT)",
    )
    .option(
      '--var <name=value>',
      'set a ${var:NAME} variable; the value is read as YAML (repeatable)',
      collect,
      [],
    )
    .option(
      '--var-file <file>',
      'a YAML map of variables (repeatable; later files and --var win)',
      collect,
      [],
    )
    .exitOverride()
    // a format the command cannot produce is refused before the command does anything
    .hook('preAction', (_program, command) => checkFormat(command));
  registerValidate(program);
  registerPlan(program);
  registerApply(program);
  registerDrift(program);
  registerExport(program);
  registerFmt(program);
  registerServe(program);
  registerPageShield(program);
  registerLogpush(program);
  registerCompletion(program);
  oneLineErrors(program);
  attachRun(program, run);
  return program;
}

/**
 * A mistyped flag or command gets one line with commander's closest match and where the full list
 * is, not the whole help (30 lines that push the mistake off the screen):
 * `error: unknown option '--lokal' (did you mean --local?); see \`zoneplan plan --help\``.
 * Each command gets its own writer, so the pointer names the command the mistake was made in.
 */
function oneLineErrors(command: Command, path = 'zoneplan'): void {
  command.configureOutput({
    outputError: (text, write) =>
      write(
        text
          .trim()
          .replace(/\s*\n\(Did you mean (.+?)\)$/, ' (did you mean $1)')
          .replace(/\s*\n\s*/g, ' ')
          .replace(/\.$/, '') + `; see \`${path} --help\`\n`,
      ),
  });
  for (const sub of command.commands) oneLineErrors(sub, `${path} ${sub.name()}`);
}

/** Prints an error the way its class asks and returns the exit code; every line passes through redact(). */
export function reportError(err: unknown, io: CliIo = processIo()): number {
  const style = styles(useColorByDefault(io.stderr, io.env));
  if (err instanceof CommanderError) {
    // commander already printed its message (or the help / version text)
    return err.exitCode === 0 ? ExitCode.ok : ExitCode.error;
  }
  if (err instanceof ConfigError) {
    for (const d of err.diagnostics) io.stderr.write(redact(formatDiagnostic(d)) + '\n');
    io.stderr.write(style.red('error: ') + err.message + '\n');
    return err.exitCode;
  }
  if (err instanceof ZoneplanError) {
    io.stderr.write(style.red('error: ') + redact(err.message) + '\n');
    return err.exitCode;
  }
  const stack = err instanceof Error ? (err.stack ?? err.message) : String(err);
  io.stderr.write(
    style.red('internal error (a bug in zoneplan, please report it):\n') + redact(stack) + '\n',
  );
  return ExitCode.error;
}

export interface MainOptions {
  /**
   * The run is the only one its process will make (bin/zoneplan.js): its secrets are the
   * process-wide list instead of a scope of their own. A scope is an AsyncLocalStorage, and in
   * Node 22 that puts a hook on every promise the process makes from then on (Node 24 carries the
   * context without hooks, but 22 is supported too).
   */
  wholeProcess?: boolean;
}

/**
 * Runs the CLI once on `argv` (the arguments after the program name) and returns the exit code.
 * Everything a run keeps is made here: its program, its exit code, its list of secrets to redact.
 */
export async function main(
  argv: string[],
  io: CliIo = processIo(),
  { wholeProcess = false }: MainOptions = {},
): Promise<number> {
  const runOnce = async () => {
    const run: CliRun = { io: redactingIo(io), exitCode: ExitCode.ok, argv };
    try {
      await buildProgram(run).parseAsync(argv, { from: 'user' });
      return run.exitCode;
    } catch (err) {
      return reportError(err, run.io);
    }
  };
  if (!wholeProcess) return withSecretScope(runOnce);
  allowHeapSettings();
  return runOnce();
}
