/**
 * `--zone`, `--account` and `--shard` of plan, apply and drift (src/core/selection.ts does the
 * selecting). Under `--shard i/n` the default request budget is the API's divided by n: the shards
 * of one user run at once and share that user's budget.
 */
import type { Command } from 'commander';
import { API_BUDGET, parseShard, type Selection } from '../core/selection.js';

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

export interface SelectionFlags {
  zone?: string[];
  account?: string[];
  shard?: string;
}

export function addSelectionOptions(command: Command): Command {
  return command
    .option('--zone <name>', 'only this zone; a glob such as "*.example.com" (repeatable)', collect)
    .option(
      '--account <id>',
      'only this account (its account-level configuration); a glob (repeatable)',
      collect,
    )
    .option('--shard <i/n>', 'only the zones and accounts of shard i of n (stable hash of the name)')
    .addHelpText(
      'after',
      [
        '',
        'A path is a desired-state file or a directory (its *.yaml and *.yml files, recursively); all of',
        'them form one desired state. Examples:',
        `  zoneplan ${command.name()} zones/ --zone example.com`,
        `  zoneplan ${command.name()} zones/ shared.yaml --zone '*.example.com' --account 0123456789abcdef0123456789abcdef`,
        `  zoneplan ${command.name()} zones/ --shard 2/4   # one of 4 runners; rate limit 1200/4 per 300 s`,
      ].join('\n'),
    );
}

export function selectionOf(flags: SelectionFlags): Selection {
  const clean = (list: string[] | undefined) => [
    ...new Set((list ?? []).map((s) => s.trim()).filter(Boolean)),
  ];
  return {
    zones: clean(flags.zone),
    accounts: clean(flags.account),
    ...(flags.shard !== undefined ? { shard: parseShard(flags.shard) } : {}),
  };
}

/**
 * `--rate-limit` as given; else, under `--shard` and without ZONEPLAN_RATE_LIMIT (which the client
 * reads itself), the API's budget divided among the shards (`300/300` for 4).
 */
export function rateLimitFor(
  selection: Selection,
  given: string | undefined,
  env: Record<string, string | undefined> = {},
): string | undefined {
  if (given !== undefined || !selection.shard || env.ZONEPLAN_RATE_LIMIT?.trim()) return given;
  const requests = Math.max(1, Math.floor(API_BUDGET.requests / selection.shard.count));
  return `${requests}/${API_BUDGET.perSeconds}`;
}
