import type { Command } from 'commander';
import { UserError } from '../errors.js';
import { globalsOf } from './globals.js';
import { createOutput } from './output.js';
import { ID32 } from '../rules/shared/values.js';

interface ExportOptions {
  zone?: string[];
  account?: string[];
  kinds?: string;
  out?: string;
  outDir?: string;
  unmanagedBy?: string[];
  force?: boolean;
  as?: string;
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** What the help says about the kinds; filled from the registry before the command parses. */
const kindsHelp = { list: '', example: '' };

export function registerExport(program: Command): void {
  const command = program
    .command('export')
    .description('write live state as a desired-state file that plans to zero changes')
    .option(
      '--zone <name>',
      'a zone to export, or a pattern (`*`, `?`) of zones (repeat for several)',
      collect,
    )
    .option(
      '--account <id>',
      'an account whose account-level configuration to export; with --out-dir, also its zones (repeat)',
      collect,
    )
    .option('--kinds <list>', 'only these kinds, comma-separated')
    .option('--out <file>', 'write the YAML to FILE instead of stdout')
    .option('--out-dir <dir>', 'write one file per zone (<zone>.yaml) and per account (<id>.yaml) into DIR')
    .option(
      '--unmanaged-by <path...>',
      'write only the live objects none of these desired-state files (or directories) manages',
    )
    .option('--force', 'with --out or --out-dir: replace existing files')
    .option(
      '--as <format>',
      'desired (a desired-state file, the default) or fixtures (a file for serve --fixtures)',
    )
    .addHelpText('after', () =>
      [
        '',
        'Examples:',
        '  zoneplan export --zone example.com > zones.yaml',
        '  zoneplan export --zone example.com --zone example.org --account 0123456789abcdef0123456789abcdef --out zones.yaml',
        `  zoneplan export --zone example.com --kinds ${kindsHelp.example}`,
        "  zoneplan export --zone '*.example.com' --out subzones.yaml",
        '  zoneplan export --account 0123456789abcdef0123456789abcdef --out-dir zones/',
        '  zoneplan export --zone example.com --unmanaged-by zones/ --out zones/example.com.rest.yaml',
        '  zoneplan export --as fixtures --zone example.com --out prod-copy.json   # then: zoneplan serve --fixtures prod-copy.json',
        '',
        'Secrets are written as ${env:NAME} references; the variables to set are listed in the file',
        'header and on stderr.',
      ].join('\n'),
    );
  // The kinds come from the registry (src/kinds/index.ts), loaded only when this command runs or
  // shows its help: other commands start without it.
  program.hook('preSubcommand', async (_program, sub) => {
    if (sub !== command) return;
    const [{ allKinds }, { exportableKinds }] = await Promise.all([
      import('../kinds/index.js'),
      import('../core/export/run.js'),
    ]);
    const kinds = exportableKinds(allKinds()).map((k) => k.def);
    kindsHelp.list = kinds.map((k) => k.key).join(',');
    kindsHelp.example = kinds
      .filter((k) => k.scope === 'zone')
      .slice(0, 2)
      .map((k) => k.key)
      .join(',');
    const option = command.options.find((o) => o.long === '--kinds');
    if (option) option.description = `only these kinds, comma-separated (${kindsHelp.list})`;
  });
  command.action(async (opts: ExportOptions, command: Command) => {
    const globals = globalsOf(command);
    const out = createOutput(globals);
    const zones = [...new Set((opts.zone ?? []).map((z) => z.trim().toLowerCase().replace(/\.$/, '')))];
    const accounts = [...new Set((opts.account ?? []).map((a) => a.trim().toLowerCase()))];
    if (zones.length === 0 && accounts.length === 0) {
      throw new UserError('name what to export: --zone NAME (repeatable) and/or --account ID');
    }
    for (const a of accounts) {
      if (!ID32.test(a)) throw new UserError(`--account ${a}: expected an account id (32 hex characters)`);
    }
    for (const z of zones) {
      // a pattern is matched against the target's zone list (./export-zones.ts)
      const pattern = /[*?]/.test(z);
      if (pattern ? !/^[a-z0-9_.*?-]+$/.test(z) : !/^[a-z0-9_-]+(\.[a-z0-9_-]+)+$/.test(z))
        throw new UserError(
          `--zone ${z}: expected a zone name such as example.com, or a pattern such as '*.example.com' (\`*\` any characters, \`?\` one)`,
        );
    }
    if (opts.out !== undefined && opts.outDir !== undefined)
      throw new UserError('--out and --out-dir do not go together: one file, or one file per zone');
    if (opts.unmanagedBy?.some((p) => p.trim() === ''))
      throw new UserError(
        '--unmanaged-by needs desired-state files or directories (it was given an empty path)',
      );
    if (opts.outDir !== undefined && globals.format === 'json')
      throw new UserError(
        '--out-dir writes YAML files (a directory of desired state is read as *.yaml); --format json prints one document: use --out FILE',
      );
    const as = opts.as ?? 'desired';
    if (as !== 'desired' && as !== 'fixtures')
      throw new UserError(`--as ${as}: expected desired or fixtures`);
    if (as === 'fixtures') {
      if (opts.outDir !== undefined || opts.unmanagedBy)
        throw new UserError(
          `${opts.outDir !== undefined ? '--out-dir' : '--unmanaged-by'} does not go with --as fixtures: a fixtures copy is one whole file`,
        );
      if (opts.kinds)
        throw new UserError('--kinds does not go with --as fixtures: a fixtures copy holds every kind');
      const { checkExportOut, exportFixturesToTarget } = await import('./export-run.js');
      const cmd = { zones, accounts, out: opts.out, force: opts.force, globals, output: out };
      checkExportOut(cmd);
      await exportFixturesToTarget(cmd);
      return;
    }
    const kinds = opts.kinds?.split(',').filter((k) => k.trim() !== '');
    const [{ checkExportOut, exportToTarget }, { checkOutDir }] = await Promise.all([
      import('./export-run.js'),
      import('./export-dir.js'),
    ]);
    const cmd = {
      zones,
      accounts,
      kinds,
      out: opts.out,
      outDir: opts.outDir,
      unmanagedBy: opts.unmanagedBy,
      force: opts.force,
      globals,
      output: out,
    };
    checkExportOut(cmd);
    checkOutDir(cmd);
    await exportToTarget(cmd);
  });
}
