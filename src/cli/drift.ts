import type { Command } from 'commander';
import { ExitCode } from '../errors.js';
import { globalsOf } from './globals.js';
import { createOutput } from './output.js';

export function registerDrift(program: Command): void {
  program
    .command('drift <file>')
    .description('report live changes against the desired state (exit 2 on drift)')
    .action(async (file: string, _opts: unknown, command: Command) => {
      const globals = globalsOf(command);
      const out = createOutput(globals);
      const { openSession, renderPlan, appendStepSummary } = await import('./reconcile-session.js');
      const session = await openSession(file, globals, out);
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
