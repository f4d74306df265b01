import type { Command } from 'commander';
import { NotImplementedError } from '../errors.js';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the local, persistent, wire-compatible API')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new NotImplementedError('serve');
    });
}
