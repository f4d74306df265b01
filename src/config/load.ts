/**
 * Loading a desired-state file: read (bounded) -> YAML with positions -> `${env:NAME}` ->
 * JSON Schema -> every kind's semantic checks -> typed DesiredState. Every problem of every stage is
 * collected as a located Diagnostic and reported at once, sorted by file, line and column.
 */
import { ConfigError, type Diagnostic } from '../errors.js';
import { allKinds } from '../kinds/index.js';
import { redact, redactUrl } from '../redact.js';
import { buildDesiredState } from './build.js';
import { mayHoldReferences, resolveReferences } from './env.js';
import type { DesiredState } from './model.js';
import { checkSchema } from './schema-check.js';
import { checkSemantics } from './semantic.js';
import { schemaViewOf } from './schema-view.js';
import { LazyLocations } from './locations.js';
import type { SharedOwner } from './shared-owners.js';
import { ProblemPaths } from './paths.js';
import { locatorOfText, readYamlSource, sha256Of, type YamlSource } from './yaml-source.js';
import { variablesOf, type Variables } from './vars.js';
import { declareVariables } from './declared-vars.js';

/** How many errors, and how many warnings, one file lists at most (the rest are counted). */
export const MAX_DIAGNOSTICS = 1000;

export interface LoadOptions {
  /** where `${env:NAME}` is looked up; default process.env */
  env?: NodeJS.ProcessEnv;
  /** a missing variable is a warning instead of an error (for `validate` in CI without secrets) */
  allowMissingEnv?: boolean;
  /** variables from --var-file and --var; they win over a file's own `vars:` */
  vars?: Variables;
  /** when the files declare with `variables:`, the names a `${var:NAME}` may use (./declared-vars.ts) */
  declared?: ReadonlySet<string>;
  /**
   * Awaited between the stages of a check (after the references, the schema, the kinds' checks),
   * so that work waiting on the network (the early live reads of plan) moves on meanwhile.
   */
  between?: () => Promise<void>;
  /** owners declared in several files: their kinds' checks wait for the merged entry */
  shared?: SharedOwner;
}

export interface FileCheck {
  file: string;
  /** errors and warnings, sorted by line and column, secrets redacted */
  diagnostics: Diagnostic[];
  /** present when there is no error */
  desired?: DesiredState;
}

/** Runs every stage on one file and returns what it found; never throws for bad input. */
export async function checkFile(file: string, opts: LoadOptions = {}): Promise<FileCheck> {
  const source = await readYamlSource(file);
  // the file's own declarations, as for several files (./desired-files.ts)
  const problems: Diagnostic[] = [];
  const scheme = declareVariables([source], opts.vars ?? new Map(), (d) => problems.push(d));
  const check = await checkSource(source, { ...opts, vars: scheme.vars, declared: scheme.declared });
  if (problems.length === 0) return check;
  return { file, diagnostics: [...check.diagnostics, ...problems], desired: undefined };
}

/** checkFile on a source already read (several files share their `vars:` before any is checked). */
export async function checkSource(source: YamlSource, opts: LoadOptions = {}): Promise<FileCheck> {
  const between = opts.between ?? (() => Promise.resolve());
  const { file } = source;
  const diagnostics = [...source.diagnostics];
  // a file can hold hundreds of thousands of mistakes: the first MAX_DIAGNOSTICS of each severity
  // are listed (locating one costs a walk of the YAML tree), the rest only counted
  const listed = { error: 0, warning: 0 };
  const omitted = { error: 0, warning: 0 };
  const finish = (desired?: DesiredState): FileCheck => ({
    file,
    diagnostics: [...tidy(diagnostics), ...omittedLines(file, omitted)],
    desired,
  });
  if (source.value === undefined || diagnostics.some((d) => d.severity === 'error')) return finish();

  // where the reading stages (env references, schema) failed; the kinds' checks skip those places
  const failed = new ProblemPaths();
  let reading = true;
  const add = (path: string, message: string, severity: Diagnostic['severity'], atKey = false) => {
    if (severity === 'error' && reading) failed.add(path);
    if (listed[severity] >= MAX_DIAGNOSTICS) {
      omitted[severity]++;
      return;
    }
    listed[severity]++;
    const locator = source.locations();
    const where = (atKey && locator.key(path)) || locator.value(path);
    diagnostics.push({ ...where, path, message, severity });
  };

  const env = opts.env ?? process.env;
  const vars = variablesOf(source.value, opts.vars, (path, message) => add(path, message, 'error'));
  // most files hold no reference: their document is used as read, without a walk or a copy
  const document = mayHoldReferences(source.text)
    ? resolveReferences(
        source.value,
        '',
        { env, allowMissing: opts.allowMissingEnv, vars, file, declared: opts.declared },
        add,
      )
    : source.value;
  await between();
  for (const p of checkSchema(schemaViewOf(document))) add(p.path, p.message, 'error', p.atKey);
  reading = false;
  await between();
  checkSemantics(document, (path) => failed.has(path), add, opts.shared);
  await between();

  if (listed.error > 0) return finish();
  const { text } = source;
  const sha256 = sha256Of(source);
  const locations = new LazyLocations(() => locatorOfText(file, text));
  const desired = buildDesiredState(
    document as Record<string, unknown>,
    {
      files: [file],
      // taken when asked for (./yaml-source.ts)
      get sha256() {
        return sha256();
      },
    },
    locations,
  );
  return finish(desired);
}

/** The closing lines that count what was not listed, one per severity (after the sorted list). */
function omittedLines(file: string, omitted: Record<Diagnostic['severity'], number>): Diagnostic[] {
  return (['error', 'warning'] as const)
    .filter((severity) => omitted[severity] > 0)
    .map((severity) => ({
      file,
      line: 1,
      col: 1,
      path: '',
      message: `and ${omitted[severity]} more ${severity === 'error' ? 'problem(s)' : 'warning(s)'} not listed: the first ${MAX_DIAGNOSTICS} are above${severity === 'error' ? '; fix them and validate again' : ''}`,
      severity,
    }));
}

/**
 * Loads one desired-state file for plan/apply/drift. Throws ConfigError carrying every problem when
 * there is any error; warnings come back beside the state.
 */
export async function loadDesiredState(
  file: string,
  opts: LoadOptions = {},
): Promise<{ desired: DesiredState; warnings: Diagnostic[] }> {
  const result = await checkFile(file, opts);
  if (!result.desired) throw new ConfigError(result.diagnostics);
  return { desired: result.desired, warnings: result.diagnostics };
}

export interface FileValidation {
  file: string;
  ok: boolean;
  diagnostics: Diagnostic[];
  /** counts of what the file declares (0 when it has errors) */
  zones: number;
  records: number;
}

/** Checks several files independently (each as its own desired state). */
export async function validateFiles(files: string[], opts: LoadOptions = {}): Promise<FileValidation[]> {
  const results: FileValidation[] = [];
  for (const file of files) results.push(validationOf(await checkFile(file, opts)));
  return results;
}

/** What `validate` reports of one file's check. */
export function validationOf({ file, diagnostics, desired }: FileCheck): FileValidation {
  return {
    file,
    ok: desired !== undefined,
    diagnostics,
    zones: desired?.zones.length ?? 0,
    records: desired ? countRecords(desired) : 0,
  };
}

/** What the kinds count as records in every owner entry (the dns records of each zone). */
function countRecords(desired: DesiredState): number {
  let n = 0;
  for (const kind of allKinds()) {
    if (!kind.countRecords) continue;
    const owners = kind.scope === 'zone' ? desired.zones : desired.accounts;
    for (const owner of owners) n += kind.countRecords(owner[kind.key]);
  }
  return n;
}

/** Sorted by line and column (one file here), duplicates removed, secrets redacted. */
function tidy(list: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const d of list) {
    // registered secrets, and secret-looking URL parameters of values the messages quote
    const clean = { ...d, path: redact(d.path), message: redactUrl(redact(d.message)) };
    const key = `${clean.line}:${clean.col}:${clean.path}:${clean.severity}:${clean.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(clean);
  }
  return out.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col);
}
