/**
 * Which `--format` each command can produce. `--format` is a global option, so commander accepts it
 * on every command; a command that cannot produce the format asked for refuses it before it does
 * anything, instead of printing text where a script expects JSON (docs/plan-and-apply.md, "Output formats").
 */
import type { Command } from 'commander';
import { UserError } from '../errors.js';

export type Format = 'text' | 'json' | 'markdown';

const ALL: readonly Format[] = ['text', 'json', 'markdown'];

/** By command path (`logpush ownership`); a command not listed produces text only. */
export const FORMATS_OF: Readonly<Record<string, readonly Format[]>> = {
  validate: ['text', 'json'],
  plan: ALL,
  apply: ALL,
  drift: ALL,
  export: ['text', 'json'],
  'page-shield report': ALL,
  'logpush ownership': ['text', 'json'],
};

/** `logpush ownership` for that subcommand: the names from below the program down to it. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Refuses a format the command cannot produce, naming those it can. */
export function checkFormat(command: Command): void {
  const format = (command.optsWithGlobals() as { format?: string }).format;
  if (format === undefined) return;
  const path = commandPath(command);
  const can = FORMATS_OF[path] ?? ['text'];
  if (!can.includes(format as Format))
    throw new UserError(`${path} prints --format ${can.join(' or ')}, not ${format}`);
}
