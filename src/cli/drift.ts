import type { Command } from 'commander';
import { ExitCode } from '../errors.js';
import { globalsOf } from './globals.js';
import { createOutput } from './output.js';
import { addSelectionOptions, selectionOf, type SelectionFlags } from './selection-options.js';

export function registerDrift(program: Command): void {
  const command = program
    .command('drift <paths...>')
    .description('report live changes against the desired-state files and directories (exit 2 on drift)');
  addSelectionOptions(command).action(async (paths: string[], opts: SelectionFlags, command: Command) => {
    const globals = globalsOf(command);
    const out = createOutput(globals);
    const selection = selectionOf(opts);
    const { openSession, renderPlan, appendStepSummary } = await import('./pipeline/session.js');
    const session = await openSession(paths, globals, out, undefined, selection);
    try {
      const { plan, target } = session;
      const format = (globals.format ?? 'text') as 'text' | 'json' | 'markdown';
      if (format === 'text' && plan.steps.length > 0) {
        out.out(out.style.yellow('Drift: the live state differs from the desired state.'));
      }
      out.out(renderPlan(plan, format, target, out));
      appendStepSummary(plan, target, globals.io.env, 'zoneplan drift');
      if (plan.steps.length > 0) globals.run.exitCode = ExitCode.changes;
    } finally {
      await session.target.close();
    }
  });
}
