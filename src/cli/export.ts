import type { Command } from 'commander';
import { UserError } from '../errors.js';
import { globalsOf } from './globals.js';
import { createOutput } from './output.js';
import { ID32 } from '../rules/shared/values.js';

interface ExportOptions {
  zone?: string[];
  account?: string[];
  kinds?: string;
  out?: string;
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('write live state as a desired-state file that plans to zero changes')
    .option('--zone <name>', 'a zone to export (repeat for several)', collect)
    .option('--account <id>', 'an account whose account-level configuration to export (repeat)', collect)
    .option(
      '--kinds <list>',
      'only these kinds, comma-separated (dns,page_shield,logpush,waf,load_balancing)',
    )
    .option('--out <file>', 'write the YAML to FILE instead of stdout')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  zoneplan export --zone example.com > zones.yaml',
        '  zoneplan export --zone example.com --zone example.org --account 0123456789abcdef0123456789abcdef --out zones.yaml',
        '  zoneplan export --zone example.com --kinds dns,logpush',
        '',
        'Secrets in Logpush destinations are written as ${env:NAME} references; the variables to set are',
        'listed in the file header and on stderr.',
      ].join('\n'),
    )
    .action(async (opts: ExportOptions, command: Command) => {
      const globals = globalsOf(command);
      const out = createOutput(globals);
      const zones = [...new Set((opts.zone ?? []).map((z) => z.trim().toLowerCase().replace(/\.$/, '')))];
      const accounts = [...new Set((opts.account ?? []).map((a) => a.trim().toLowerCase()))];
      if (zones.length === 0 && accounts.length === 0) {
        throw new UserError('name what to export: --zone NAME (repeatable) and/or --account ID');
      }
      for (const a of accounts) {
        if (!ID32.test(a)) throw new UserError(`--account ${a}: expected an account id (32 hex characters)`);
      }
      for (const z of zones) {
        if (!/^[a-z0-9_-]+(\.[a-z0-9_-]+)+$/.test(z))
          throw new UserError(`--zone ${z}: expected a zone name such as example.com`);
      }
      const kinds = opts.kinds?.split(',').filter((k) => k.trim() !== '');
      const { exportToTarget } = await import('../export/command.js');
      await exportToTarget({ zones, accounts, kinds, out: opts.out, globals, output: out });
    });
}
