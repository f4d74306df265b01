import type { Command } from 'commander';
import { NotImplementedError } from '../errors.js';

export function registerLogpush(program: Command): void {
  const group = program.command('logpush').description('Logpush helpers');
  group
    .command('ownership <zone> <destination>')
    .description('ask the API to issue an ownership challenge for a destination')
    .allowUnknownOption()
    .action(() => {
      throw new NotImplementedError('logpush ownership');
    });
}
