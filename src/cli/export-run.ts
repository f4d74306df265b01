/**
 * The command's wiring, imported lazily by src/cli/export.ts: pick the target like `plan` does
 * (src/cli/pipeline/target.ts; there is no file, so no `target:` and the embedded store sits beside --out or
 * in the current directory), run the export, write the YAML, and say on stderr what was exported,
 * what was left out and which variables to set.
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { checkKindValue } from '../config/check-value.js';
import type { DesiredState } from '../config/model.js';
import { runFixturesExport } from '../core/export/fixtures.js';
import { checkRequest, runExport, selectKinds, type ExportOutput } from '../core/export/run.js';
import type { ExportVariable } from '../core/export/types.js';
import type { ManagedBy } from '../core/export/unmanaged.js';
import { loadDesiredFiles } from '../config/desired-files.js';
import { variablesFromCli } from '../config/vars.js';
import { resolveZones } from './export-zones.js';
import { UserError } from '../errors.js';
import { allKinds } from '../kinds/index.js';
import { checkOutputPath, writeOutputFile, type OutputRules } from '../write-output-file.js';
import type { GlobalOptions } from './globals.js';
import type { Output } from './output.js';
import { embeddedStoreHint, resolveTarget, type Target } from './pipeline/target.js';

export interface ExportCommand {
  /** zone names and patterns (`*`, `?`: ./export-zones.ts) */
  zones: string[];
  accounts: string[];
  kinds?: string[];
  out?: string;
  /** one file per zone (and per account) in this directory (./export-dir.ts) */
  outDir?: string;
  /** write only what these desired-state files (or directories) do not manage */
  unmanagedBy?: string[];
  /** replace an existing --out file (or --out-dir files) */
  force?: boolean;
  globals: GlobalOptions;
  output: Output;
}

/** The rules of `--out` (src/write-output-file.ts); the run's inputs are its --var-file and --unmanaged-by files. */
export function outputRules(
  cmd: Pick<ExportCommand, 'force' | 'globals' | 'unmanagedBy'>,
  flag = '--out',
): OutputRules {
  const inputs = [...(cmd.globals.varFiles ?? []), ...(cmd.unmanagedBy ?? [])];
  return { flag, force: cmd.force, inputs, cwd: cmd.globals.io.cwd };
}

/** Refuses an --out path that could not be written, before the target is read. */
export function checkExportOut(cmd: Pick<ExportCommand, 'out' | 'force' | 'globals' | 'unmanagedBy'>): void {
  if (cmd.out !== undefined) checkOutputPath(cmd.out, outputRules(cmd));
}

/** An empty desired state: the target is chosen by flags and environment only. */
function emptyDesired(): DesiredState {
  return { version: 1, source: { files: [], sha256: '' }, accounts: [], zones: [], locations: new Map() };
}

export function summary(counts: Map<string, Record<string, number>>): string {
  return [...counts]
    .map(([kind, c]) => {
      const parts = Object.entries(c)
        .filter(([, n]) => n > 0)
        .map(([k, n]) => `${n} ${k}`);
      return `${kind}: ${parts.join(', ') || 'nothing'}`;
    })
    .join('; ');
}

/**
 * `--unmanaged-by`: the files loaded and checked exactly as plan loads them (a directory as its
 * YAML files, `--var`/`--var-file` applied), so a bad file stops the export at its `file:line:col`
 * before anything is read.
 */
async function loadManagedBy(cmd: ExportCommand): Promise<ManagedBy | undefined> {
  if (!cmd.unmanagedBy) return undefined;
  const { io, varFiles, vars } = cmd.globals;
  const { desired } = await loadDesiredFiles(cmd.unmanagedBy, {
    env: io.env,
    vars: await variablesFromCli(varFiles, vars),
    cwd: io.cwd,
  });
  return { desired, files: cmd.unmanagedBy };
}

/** One export run (one file's text) of these owners on an open target. */
export type ExportOnce = (
  owners: { zones: string[]; accounts: string[]; kinds?: string[] },
  dir: string | undefined,
) => Promise<ExportOutput>;

export async function exportToTarget(cmd: ExportCommand): Promise<void> {
  const { output: out } = cmd;
  const registry = allKinds();
  if (cmd.outDir === undefined) checkRequest({ ...cmd, registry });
  else selectKinds(registry, cmd.kinds); // an unknown kind before anything is read
  const managedBy = await loadManagedBy(cmd);
  const { file, target } = await openExportTarget(cmd);
  try {
    out.info(target.description);
    const once: ExportOnce = (owners, dir) =>
      hinted(
        target,
        runExport({
          registry,
          check: checkKindValue,
          client: target.client,
          auth: target.auth,
          kinds: cmd.kinds,
          ...owners,
          source: target.description.replace(/^target: /, '').replace(/;.*$/, ''),
          now: new Date(),
          schemaRef: schemaRefFrom(dir),
          managedBy,
        }),
      );
    if (cmd.outDir !== undefined) {
      const { exportToDirectory } = await import('./export-dir.js');
      await hinted(target, exportToDirectory(cmd, target.client, once));
      return;
    }
    const zones = await hinted(target, resolveZones(target.client, { zones: cmd.zones, accountsWhole: [] }));
    const result = await once({ zones, accounts: cmd.accounts }, cmd.out ? dirname(file) : undefined);
    for (const note of result.notes) out.warn(note);
    if (cmd.globals.format === 'json') result.text = asJson(result.text);
    if (cmd.out) {
      writeOutputFile(cmd.out, result.text, outputRules(cmd));
      out.info(`wrote ${cmd.out} (${summary(result.counts)})`);
    } else {
      cmd.globals.io.stdout.write(result.text);
      out.info(`exported ${summary(result.counts)}`);
    }
    tellVariables(out, result.variables);
  } finally {
    await target.close();
  }
}

/**
 * `--format json`: the same desired state as one JSON document, which zoneplan reads as it reads
 * the YAML (JSON is YAML). The header's comments (source, variables) are not kept: the variables
 * are listed on stderr either way.
 */
function asJson(yamlText: string): string {
  return JSON.stringify(parseYaml(yamlText), null, 2) + '\n';
}

export function tellVariables(out: Output, variables: ExportVariable[]): void {
  if (variables.length === 0) return;
  out.info(
    `set ${variables.length} environment variable(s) before plan or apply (listed in the file header):`,
  );
  for (const v of variables) out.info(`  ${v.name}: ${v.describe}`);
}

/** A zone or account the embedded store does not have: say which store was read (see embeddedStoreHint). */
async function hinted<T>(target: Target, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    const hint = embeddedStoreHint(target);
    if (
      hint &&
      err instanceof UserError &&
      / not found on the target: | no zone on the target/.test(err.message)
    )
      throw new UserError(err.message + hint);
    throw err;
  }
}

/** The export's target, chosen as plan chooses it, for the file the export is written to. */
async function openExportTarget(cmd: Pick<ExportCommand, 'out' | 'outDir' | 'globals' | 'output'>) {
  const { io } = cmd.globals;
  // the embedded store sits beside what is written: the file, or the files of --out-dir
  const file = cmd.out
    ? resolve(io.cwd, cmd.out)
    : join(cmd.outDir !== undefined ? resolve(io.cwd, cmd.outDir) : io.cwd, 'zoneplan.yaml');
  const target = await resolveTarget({
    desired: emptyDesired(),
    file,
    globals: cmd.globals,
    log: (l) => cmd.output.debug(l),
  });
  return { file, target };
}

/** `export --as fixtures`: the live state of the owners as a fixtures file for `zoneplan serve`. */
export async function exportFixturesToTarget(
  cmd: Omit<ExportCommand, 'kinds' | 'outDir' | 'unmanagedBy'>,
): Promise<void> {
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
        zones: await resolveZones(target.client, { zones: cmd.zones, accountsWhole: [] }),
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
 * Where the header's `$schema` finds the schema file (docs/editors.md, "The `$schema` line").
 * Written to a file: the path from that file's folder to `node_modules/zoneplan/schema/...` of the
 * nearest folder above it that installed zoneplan (the repository root, in a project that depends
 * on it), so the line holds on every clone of the repository, wherever the running zoneplan is
 * installed (globally, in npx's cache); where no folder above installed it, the running
 * zoneplan's own schema. yaml-language-server resolves a relative line against the file's own
 * folder, so the line holds while the file stays at its depth; the workspace `yaml.schemas` setting
 * holds wherever it moves. Written to stdout, where the file will land is unknown: the running
 * zoneplan's schema as an absolute `file:` URL. Each path segment is percent-encoded, so a space
 * does not end the modeline's value. (The schema's `$id` is an identifier, not an address an
 * editor can fetch: the package is not published.)
 */
function schemaRefFrom(dir: string | undefined): string {
  const running = fileURLToPath(new URL('../../schema/zoneplan.schema.json', import.meta.url));
  if (dir === undefined) return pathToFileURL(running).href;
  const schema = installedSchemaAbove(dir) ?? running;
  return relative(dir, schema).split(sep).map(encodeURIComponent).join('/');
}

const INSTALLED_SCHEMA = join('node_modules', 'zoneplan', 'schema', 'zoneplan.schema.json');

/** The schema of the zoneplan installed in `dir` or the nearest folder above it. */
function installedSchemaAbove(dir: string): string | undefined {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const schema = join(at, INSTALLED_SCHEMA);
    if (existsSync(schema)) return schema;
    if (dirname(at) === at) return undefined;
  }
}
