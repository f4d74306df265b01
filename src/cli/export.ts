import type { Command } from 'commander';
import { NotImplementedError } from '../errors.js';

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('write live state as a desired-state file that plans to zero changes')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new NotImplementedError('export');
    });
}
