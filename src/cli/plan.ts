import type { Command } from 'commander';
import { ExitCode } from '../errors.js';
import { globalsOf } from './globals.js';
import { createOutput } from './output.js';

interface PlanOptions {
  out?: string;
  detailedExitcode?: boolean;
}

export function registerPlan(program: Command): void {
  program
    .command('plan <file>')
    .description(
      'read live state and print the ordered plan (exit 2 with --detailed-exitcode when there are changes)',
    )
    .option('--out <plan.json>', 'save the plan for `zoneplan apply plan.json` (no secrets are written)')
    .option('--detailed-exitcode', 'exit 0 when there are no changes, 2 when there are, 1 on errors')
    .action(async (file: string, opts: PlanOptions, command: Command) => {
      const globals = globalsOf(command);
      const out = createOutput(globals);
      const { openSession, renderPlan, appendStepSummary } = await import('./reconcile-session.js');
      const { writePlanFile } = await import('../core/plan-file.js');
      const session = await openSession(file, globals, out);
      try {
        const { plan, target, desired } = session;
        const format = (globals.format ?? 'text') as 'text' | 'json' | 'markdown';
        out.out(renderPlan(plan, format, target, out));
        appendStepSummary(plan, target, globals.io.env);
        if (opts.out) {
          writePlanFile(opts.out, plan, {
            target: target.identity,
            desiredFile: file,
            desiredSha256: desired.source.sha256,
          });
          out.info(`saved the plan to ${opts.out}; apply it with \`zoneplan apply ${opts.out}\``);
        }
        if (opts.detailedExitcode && plan.steps.length > 0) globals.run.exitCode = ExitCode.changes;
      } finally {
        await session.target.close();
      }
    });
}
