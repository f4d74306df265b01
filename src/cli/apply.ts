import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { globalsOf } from './globals.js';
import { parseLockTimeout } from './pipeline/lock.js';
import { createOutput } from './output.js';
import { addSelectionOptions, type SelectionFlags } from './selection-options.js';

interface ApplyOptions extends SelectionFlags {
  autoApprove?: boolean;
  allowIrreversible?: boolean;
  /** groups of steps run at once; default the client's cap on requests in flight */
  parallelism?: number;
  force?: boolean;
  /** milliseconds to wait for another apply's lock (0: fail at once) */
  lockTimeout: number;
  rehearseFirst?: boolean;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64)
    throw new InvalidArgumentError('expected a whole number from 1 to 64');
  return n;
}

export function registerApply(program: Command): void {
  const command = program
    .command('apply <paths-or-plan...>')
    .description('apply the desired-state files and directories, or a plan saved by `zoneplan plan --out`')
    .option('--auto-approve', 'do not ask for confirmation (required when stdin is not a terminal)')
    .option('--allow-irreversible', 'also run steps that cannot be undone (WAF migration, zone deletion)')
    .option(
      '--rehearse-first',
      'apply the plan to an in-memory copy of the live state first (plan --rehearse); apply for real only if that passed',
    )
    .option(
      '--parallelism <n>',
      "independent steps run at once (default 8, the client's cap on requests in flight)",
      positiveInt,
    )
    .option(
      '--force',
      'apply even when the safety rules refuse (mass updates/deletes, no address record left)',
    )
    .option(
      '--lock-timeout <duration>',
      'wait this long (e.g. 30s, 5m) for another apply on this checkout to finish',
      parseLockTimeout,
      0,
    );
  addSelectionOptions(command).action(async (args: string[], opts: ApplyOptions, command: Command) => {
    const globals = globalsOf(command);
    const out = createOutput(globals);
    const { runApply } = await import('./apply-run.js');
    await runApply(args, opts, globals, out);
  });
}

export type { ApplyOptions };
