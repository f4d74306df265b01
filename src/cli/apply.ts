import type { Command } from 'commander';
import { NotImplementedError } from '../errors.js';

export function registerApply(program: Command): void {
  program
    .command('apply <file-or-plan>')
    .description('apply a desired-state file or a saved plan')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new NotImplementedError('apply');
    });
}
