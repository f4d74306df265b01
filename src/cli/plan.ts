import type { Command } from 'commander';
import { NotImplementedError } from '../errors.js';

export function registerPlan(program: Command): void {
  program
    .command('plan <file>')
    .description('read live state and print the ordered plan')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new NotImplementedError('plan');
    });
}
