import type { Command } from 'commander';
import { NotImplementedError } from '../errors.js';

export function registerValidate(program: Command): void {
  program
    .command('validate <files...>')
    .description('check desired-state files offline: schema and every rule of the spec')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new NotImplementedError('validate');
    });
}
