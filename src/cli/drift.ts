import type { Command } from 'commander';
import { NotImplementedError } from '../errors.js';

export function registerDrift(program: Command): void {
  program
    .command('drift <file>')
    .description('report live changes against the desired state (exit 2 on drift)')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new NotImplementedError('drift');
    });
}
