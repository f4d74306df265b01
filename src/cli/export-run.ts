/**
 * The command's wiring, imported lazily by src/cli/export.ts: pick the target like `plan` does
 * (src/cli/pipeline/target.ts; there is no file, so no `target:` and the embedded store sits beside --out or
 * in the current directory), run the export, write the YAML, and say on stderr what was exported,
 * what was left out and which variables to set.
 */
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkKindValue } from '../config/check-value.js';
import type { DesiredState } from '../config/model.js';
import { runFixturesExport } from '../core/export/fixtures.js';
import { checkRequest, runExport } from '../core/export/run.js';
import { UserError } from '../errors.js';
import { allKinds } from '../kinds/index.js';
import { checkOutputPath, writeOutputFile, type OutputRules } from '../write-output-file.js';
import type { GlobalOptions } from './globals.js';
import type { Output } from './output.js';
import { embeddedStoreHint, resolveTarget, type Target } from './pipeline/target.js';

export interface ExportCommand {
  zones: string[];
  accounts: string[];
  kinds?: string[];
  out?: string;
  /** replace an existing --out file */
  force?: boolean;
  globals: GlobalOptions;
  output: Output;
}

/** The rules of `--out` (src/write-output-file.ts); the run's inputs are its --var-file files. */
function outputRules(cmd: Pick<ExportCommand, 'force' | 'globals'>): OutputRules {
  return { flag: '--out', force: cmd.force, inputs: cmd.globals.varFiles ?? [], cwd: cmd.globals.io.cwd };
}

/** Refuses an --out path that could not be written, before the target is read. */
export function checkExportOut(cmd: Pick<ExportCommand, 'out' | 'force' | 'globals'>): void {
  if (cmd.out !== undefined) checkOutputPath(cmd.out, outputRules(cmd));
}

/** An empty desired state: the target is chosen by flags and environment only. */
function emptyDesired(): DesiredState {
  return { version: 1, source: { files: [], sha256: '' }, accounts: [], zones: [], locations: new Map() };
}

function summary(counts: Map<string, Record<string, number>>): string {
  return [...counts]
    .map(([kind, c]) => {
      const parts = Object.entries(c)
        .filter(([, n]) => n > 0)
        .map(([k, n]) => `${n} ${k}`);
      return `${kind}: ${parts.join(', ') || 'nothing'}`;
    })
    .join('; ');
}

export async function exportToTarget(cmd: ExportCommand): Promise<void> {
  const { output: out } = cmd;
  const registry = allKinds();
  checkRequest({ ...cmd, registry });
  const { file, target } = await openExportTarget(cmd);
  try {
    out.info(target.description);
    const result = await hinted(
      target,
      runExport({
        registry,
        check: checkKindValue,
        client: target.client,
        auth: target.auth,
        zones: cmd.zones,
        accounts: cmd.accounts,
        kinds: cmd.kinds,
        source: target.description.replace(/^target: /, '').replace(/;.*$/, ''),
        now: new Date(),
        schemaRef: schemaRefFrom(cmd.out ? dirname(file) : undefined),
      }),
    );
    for (const note of result.notes) out.warn(note);
    if (cmd.out) {
      writeOutputFile(cmd.out, result.text, outputRules(cmd));
      out.info(`wrote ${cmd.out} (${summary(result.counts)})`);
    } else {
      cmd.globals.io.stdout.write(result.text);
      out.info(`exported ${summary(result.counts)}`);
    }
    if (result.variables.length > 0) {
      out.info(
        `set ${result.variables.length} environment variable(s) before plan or apply (listed in the file header):`,
      );
      for (const v of result.variables) out.info(`  ${v.name}: ${v.describe}`);
    }
  } finally {
    await target.close();
  }
}

/** A zone or account the embedded store does not have: say which store was read (see embeddedStoreHint). */
async function hinted<T>(target: Target, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    const hint = embeddedStoreHint(target);
    if (hint && err instanceof UserError && / not found on the target: /.test(err.message))
      throw new UserError(err.message + hint);
    throw err;
  }
}

/** The export's target, chosen as plan chooses it, for the file the export is written to. */
async function openExportTarget(cmd: Pick<ExportCommand, 'out' | 'globals' | 'output'>) {
  const { io } = cmd.globals;
  const file = cmd.out ? resolve(io.cwd, cmd.out) : join(io.cwd, 'zoneplan.yaml');
  const target = await resolveTarget({
    desired: emptyDesired(),
    file,
    globals: cmd.globals,
    log: (l) => cmd.output.debug(l),
  });
  return { file, target };
}

/** `export --as fixtures`: the live state of the owners as a fixtures file for `zoneplan serve`. */
export async function exportFixturesToTarget(cmd: Omit<ExportCommand, 'kinds'>): Promise<void> {
  const { output: out } = cmd;
  const { target } = await openExportTarget(cmd);
  try {
    out.info(target.description);
    const result = await hinted(
      target,
      runFixturesExport({
        registry: allKinds(),
        client: target.client,
        auth: target.auth,
        zones: cmd.zones,
        accounts: cmd.accounts,
      }),
    );
    const what = `${result.counts.accounts} account(s), ${result.counts.zones} zone(s)`;
    if (cmd.out) {
      writeOutputFile(cmd.out, result.text, outputRules(cmd));
      out.info(`wrote fixtures ${cmd.out} (${what})`);
    } else {
      cmd.globals.io.stdout.write(result.text);
      out.info(`exported fixtures (${what})`);
    }
    if (result.variables.length > 0) {
      out.info(
        `set ${result.variables.length} environment variable(s) before \`zoneplan serve --fixtures\` of this file (secrets are not in it):`,
      );
      for (const v of result.variables) out.info(`  ${v.name}: ${v.describe}`);
    }
  } finally {
    await target.close();
  }
}

/**
 * Where the header's `$schema` finds the shipped schema file. Written to a file (`--out`): the path
 * relative to that file's folder (`node_modules/zoneplan/schema/zoneplan.schema.json` in a project
 * that installed zoneplan), so the file can be committed and opened on any machine with the same
 * layout. Written to stdout, where the file will land is unknown: the schema's absolute `file:` URL.
 * Each path segment is percent-encoded, so a space does not end the modeline's value. (The
 * schema's `$id` is an identifier, not an address an editor can fetch.) A workspace `yaml.schemas`
 * setting is the portable way (docs/editors.md); this line is a convenience.
 */
function schemaRefFrom(dir: string | undefined): string {
  const schema = fileURLToPath(new URL('../../schema/zoneplan.schema.json', import.meta.url));
  if (dir === undefined) return pathToFileURL(schema).href;
  return relative(dir, schema).split(sep).map(encodeURIComponent).join('/');
}
