import type { Command } from 'commander';
import { NotImplementedError } from '../errors.js';

export function registerPageShield(program: Command): void {
  const group = program.command('page-shield').description('Page Shield helpers');
  group
    .command('report <zone>')
    .description('report detected scripts, connections and cookies, malicious first')
    .allowUnknownOption()
    .action(() => {
      throw new NotImplementedError('page-shield report');
    });
}
