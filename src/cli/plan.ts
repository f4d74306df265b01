import type { Command } from 'commander';
import { ExitCode } from '../errors.js';
import { checkOutputPath } from '../write-output-file.js';
import { globalsOf } from './globals.js';
import { createOutput } from './output.js';
import { addSelectionOptions, selectionOf, type SelectionFlags } from './selection-options.js';

interface PlanOptions extends SelectionFlags {
  out?: string;
  force?: boolean;
  detailedExitcode?: boolean;
  rehearse?: boolean;
  allowIrreversible?: boolean;
}

export function registerPlan(program: Command): void {
  const command = program
    .command('plan <paths...>')
    .description(
      'read live state and print the ordered plan of the desired-state files and directories (exit 2 with --detailed-exitcode when there are changes)',
    )
    .option('--out <plan.json>', 'save the plan for `zoneplan apply plan.json` (no secrets are written)')
    .option('--force', 'with --out: replace an existing file (never one this run reads)')
    .option('--detailed-exitcode', 'exit 0 when there are no changes, 2 when there are, 1 on errors')
    .option(
      '--rehearse',
      'apply the plan to an in-memory copy of the live state first and plan again there (exit 1 when a step is refused or the second plan is not empty); writes nothing to the target',
    )
    .option('--allow-irreversible', 'with --rehearse: rehearse irreversible steps too');
  addSelectionOptions(command).action(async (paths: string[], opts: PlanOptions, command: Command) => {
    const globals = globalsOf(command);
    const out = createOutput(globals);
    const selection = selectionOf(opts);
    const { openSession, renderPlan, appendStepSummary } = await import('./pipeline/session.js');
    const { writePlanFile } = await import('../core/plan-file.js');
    const { credentialOf } = await import('./pipeline/target.js');
    // refused before the plan is made: a run that cannot save its plan does not read the target
    const rules = { flag: '--out', force: opts.force, inputs: [...paths, ...(globals.varFiles ?? [])] };
    if (opts.out !== undefined) {
      checkOutputPath(opts.out, { ...rules, cwd: globals.io.cwd });
      const { checkSavablePaths } = await import('../core/plan-file.js');
      checkSavablePaths(paths, globals.io.cwd);
    }
    const session = await openSession(paths, globals, out, undefined, selection);
    try {
      const { plan, target, desired } = session;
      const format = (globals.format ?? 'text') as 'text' | 'json' | 'markdown';
      let verdict: string[] = [];
      let markdown: string[] | undefined;
      let passed = true;
      if (opts.rehearse) {
        const { rehearse, rehearsalLines, rehearsalMarkdown } = await import('./rehearse.js');
        const r = await rehearse({ ...session, allowIrreversible: opts.allowIrreversible });
        verdict = rehearsalLines(r);
        markdown = rehearsalMarkdown(r);
        passed = r.passed;
      }
      out.out(renderPlan(plan, format, target, out, markdown));
      for (const l of verdict) out.info(l);
      appendStepSummary(plan, target, globals.io.env, undefined, markdown);
      if (opts.out) {
        writePlanFile(
          opts.out,
          plan,
          {
            target: target.identity,
            credential: credentialOf(target),
            variables: session.variables,
            cwd: globals.io.cwd,
            paths,
            files: desired.source.files,
            sha256s: desired.source.sha256s ?? [desired.source.sha256],
            selection,
          },
          { ...rules, inputs: [...rules.inputs, ...desired.source.files] },
        );
        // the plan holds its variables and target: applying it takes no other flag
        out.info(`saved the plan to ${opts.out}; apply it with \`zoneplan apply ${opts.out}\``);
      }
      if (opts.detailedExitcode && plan.steps.length > 0) globals.run.exitCode = ExitCode.changes;
      if (!passed) globals.run.exitCode = 1;
    } finally {
      await session.target.close();
    }
  });
}
