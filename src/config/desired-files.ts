/**
 * Many desired-state files as ONE desired state: `plan zones/ extra.yaml` reads every `*.yaml` and
 * `*.yml` below `zones/` (sorted, dot-directories skipped) and `extra.yaml`, checks each file as
 * `validate` does, then the rules that only hold across files: `target:` agrees, a variable of
 * `vars:` has one value, and a zone or an account declared in several files merges into one entry
 * without a conflict (./merge.ts). Every cross-file problem names both places (`file:line:col`),
 * and is reported in the file of the later declaration.
 */
import { readdir as readdirCallback, stat as statCallback } from 'node:fs';
import { isDeepStrictEqual, promisify } from 'node:util';
import { join, relative, resolve } from 'node:path';
import { ConfigError, UserError, type Diagnostic } from '../errors.js';
import { checkSource, type FileCheck, type LoadOptions } from './load.js';
import { mergeDesiredStates } from './merge.js';
import { sharedOwners } from './shared-owners.js';
import type { DesiredState, SourceLocation } from './model.js';
import { readYamlSource, type YamlSource } from './yaml-source.js';
import { VAR_NAME, type Variables } from './vars.js';
import { declareVariables } from './declared-vars.js';

const DESIRED_FILE = /\.ya?ml$/i;

// node:fs's callbacks, not node:fs/promises, which no command loads (src/read-user-file.ts)
const stat = promisify(statCallback);
const readdir = promisify(readdirCallback);

/**
 * The files the command line names, in order: a file as given, a directory as its `*.yaml` and
 * `*.yml` files, recursively, sorted by path (so every run and every machine reads them in the
 * same order), without dot-directories (`.zoneplan`, `.git`). A file named twice is read once.
 * `readFile`: the absolute path of a regular file the caller has read already (no need to ask).
 */
export async function expandPaths(
  paths: string[],
  cwd = process.cwd(),
  readFile?: string,
): Promise<string[]> {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (file: string) => {
    const key = resolve(cwd, file);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(file);
  };
  for (const path of paths) {
    const info =
      resolve(cwd, path) === readFile ? undefined : await stat(resolve(cwd, path)).catch(() => undefined);
    if (!info?.isDirectory()) {
      add(path); // a missing or unreadable file is reported by the reader, at the file
      continue;
    }
    const found = await yamlFilesBelow(resolve(cwd, path));
    if (found.length === 0)
      throw new UserError(
        `${path}: the directory holds no *.yaml or *.yml file (dot-directories are skipped)`,
      );
    for (const f of found) add(join(path, relative(resolve(cwd, path), f)));
  }
  return out;
}

async function yamlFilesBelow(dir: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (at: string) => {
    const entries = await readdir(at, { withFileTypes: true });
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = join(at, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.isFile() && DESIRED_FILE.test(e.name)) files.push(full);
    }
  };
  await walk(dir);
  // by code unit, not locale: the order must not depend on the machine's language
  return files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export interface FilesOptions extends LoadOptions {
  cwd?: string;
  /**
   * Called once every file is read and parsed, before any check, with each file's parsed document
   * (unchecked; undefined for a file that could not be read): plan starts its live reads here.
   */
  onRead?: (values: unknown[]) => Promise<void> | void;
  /**
   * A file's bytes that the caller read already, with the reader's checks (plan scans the one file
   * it names before anything else: ../cli/pipeline/early-scan.ts), by absolute path: that file is
   * parsed from these bytes, not read again (./yaml-source.ts).
   */
  read?: { path: string; bytes: Buffer };
}

export interface FilesCheck {
  /** one per file, in reading order; cross-file problems sit in the file of the later declaration */
  checks: FileCheck[];
  /** present when no file has an error */
  desired?: DesiredState;
}

/**
 * Every check of every file, then the cross-file rules; throws for bad input only when the
 * command line's variables do not fit the files (a UserError naming each var file and line).
 */
export async function checkFiles(paths: string[], opts: FilesOptions = {}): Promise<FilesCheck> {
  const files = await expandPaths(paths, opts.cwd, opts.read?.path);
  const sources: YamlSource[] = [];
  // (relative paths are read from the process's directory, as readYamlSource opens them)
  const given = (file: string) =>
    opts.read && resolve(file) === opts.read.path ? opts.read.bytes : undefined;
  for (const file of files) sources.push(await readYamlSource(file, given(file)));
  await opts.onRead?.(sources.map((s) => s.value));
  const varProblems = new Map<string, Diagnostic[]>();
  const fileVars = sharedVariables(sources, (d) => {
    varProblems.set(d.file, [...(varProblems.get(d.file) ?? []), d]);
  });
  // the files' variables (declared, checked against the command line's), under those of the
  // command line (which win): ./declared-vars.ts
  const scheme = declareVariables(sources, opts.vars ?? new Map(), (d) => {
    varProblems.set(d.file, [...(varProblems.get(d.file) ?? []), d]);
  });
  const vars: Variables = new Map([...fileVars, ...scheme.vars]);
  const shared = sources.length > 1 ? sharedOwners(sources.map((s) => s.value)) : undefined;
  const checks: FileCheck[] = [];
  for (const source of sources)
    checks.push(await checkSource(source, { ...opts, vars, declared: scheme.declared, shared }));
  // the cross-file rules hold between the files that loaded, so one run lists every problem; the
  // owners of several files are checked whole only when every file loaded (a part is misjudged)
  const loaded = checks.filter((c) => c.desired).map((c) => c.desired!);
  const merged =
    loaded.length > 1
      ? mergeDesiredStates(loaded, { shared, checkShared: loaded.length === checks.length })
      : undefined;
  const problems = [
    ...targetProblems(loaded),
    ...(merged?.problems ?? []),
    ...[...varProblems.values()].flat(),
  ];
  for (const d of problems) {
    const check = checks.find((c) => c.file === d.file)!;
    check.diagnostics.push(d);
    if (d.severity === 'error') check.desired = undefined;
  }
  if (checks.some((c) => !c.desired)) return { checks };
  return { checks, desired: checks.length === 1 ? checks[0]!.desired : merged!.desired };
}

/** The desired state of all the files; throws ConfigError carrying every problem of every file. */
export async function loadDesiredFiles(
  paths: string[],
  opts: FilesOptions = {},
): Promise<{ desired: DesiredState; warnings: Diagnostic[] }> {
  const { checks, desired } = await checkFiles(paths, opts);
  const diagnostics = checks.flatMap((c) => c.diagnostics);
  if (!desired) throw new ConfigError(diagnostics);
  return { desired, warnings: diagnostics };
}

/**
 * The `vars:` of all files as one map. The same variable with two different values is an error in
 * the later file, naming the earlier; --var and --var-file still win over both.
 */
function sharedVariables(sources: YamlSource[], report: (d: Diagnostic) => void): Variables {
  const out: Variables = new Map();
  // locating a key may re-parse a file: done only for a conflict
  const where = new Map<string, YamlSource>();
  if (sources.length < 2) return out;
  for (const source of sources) {
    const own = (source.value as { vars?: unknown } | undefined)?.vars;
    if (!own || typeof own !== 'object' || Array.isArray(own)) continue; // the file's check says why
    for (const [name, value] of Object.entries(own as Record<string, unknown>)) {
      if (!VAR_NAME.test(name)) continue;
      const earlier = out.get(name);
      if (!earlier) {
        out.set(name, { value, from: source.file });
        where.set(name, source);
      } else if (!isDeepStrictEqual(earlier.value, value)) {
        const earlierAt = where.get(name)!.locations().value(`vars.${name}`);
        report({
          ...source.locations().value(`vars.${name}`),
          path: `vars.${name}`,
          message: `variable \`${name}\` is also defined, with another value, at ${place(earlierAt)}`,
          severity: 'error',
        });
      }
    }
  }
  return out;
}

/** Two different targets: the files of one run share one. */
function targetProblems(states: DesiredState[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const locate = (s: DesiredState, path: string) =>
    s.locations.get(path) ?? { file: s.source.files[0], line: 1, col: 1 };
  const targeted = states.filter((s) => s.target !== undefined);
  for (const s of targeted.slice(1)) {
    if (!isDeepStrictEqual(s.target, targeted[0].target)) {
      out.push({
        ...locate(s, 'target'),
        path: 'target',
        message: `target differs from the one at ${place(locate(targeted[0], 'target'))}; the files of one run share one target`,
        severity: 'error',
      });
    }
  }
  // `version` is 1 in every file that passed its checks, so it agrees already
  return out;
}

const place = (at: SourceLocation) => `${at.file}:${at.line}:${at.col}`;
