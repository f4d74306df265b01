/**
 * Typed, non-secret variables: `vars:` and `variables:` at the top of any desired-state file
 * (./declared-vars.ts), `--var-file FILE` (a YAML map; later files win) and `--var NAME=VALUE` (the
 * value read as YAML, so `300` is a number and `true` a boolean), in that order of precedence,
 * lowest first. `${var:NAME}` refers to one (src/config/env.ts resolves references). Variables are
 * not secrets: plans show their values, and a saved plan records those of the command line.
 *
 * A var file's `target:` (a map with `api_url` and/or `accounts`) is not a variable: it says which
 * target the file is for, so staging values are never planned against production
 * (docs/file-format.md, "Variables").
 */
import { UserError } from '../errors.js';
import { readUserText, UserFileError } from '../read-user-file.js';
import { MAX_FILE_BYTES } from './yaml-source.js';

export const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A variable's value and where it was defined, for messages. */
export interface Variable {
  value: unknown;
  /** a file (a desired file, or the var file), `vars`, `--var` or `the saved plan` */
  from: string;
  /** where in a var file the name is written (1-based), for messages */
  line?: number;
  col?: number;
}

export type Variables = Map<string, Variable>;

/** A var file's `target:`: the run's target must be this one. */
export interface VarFileTarget {
  file: string;
  line: number;
  col: number;
  api_url?: string;
  accounts?: string[];
}

/** What the command line gives: the variables, and the targets its var files are for. */
export interface CommandLineVariables {
  vars: Variables;
  targets: VarFileTarget[];
}

/** Variables given on the command line: every `--var-file`, in order, then every `--var`. */
export async function variablesFromCli(varFiles: string[] = [], vars: string[] = []): Promise<Variables> {
  return (await readCommandLineVariables(varFiles, vars)).vars;
}

/** `where` of a `--var` variable in messages: the argument as given. */
export function placeOf(name: string, v: Variable): string {
  if (v.from === '--var') return `--var ${name}=...`;
  return v.line ? `${v.from}:${v.line}:${v.col}` : v.from;
}

/** variablesFromCli, with the targets the var files name. */
export async function readCommandLineVariables(
  varFiles: string[] = [],
  vars: string[] = [],
): Promise<CommandLineVariables> {
  const out: Variables = new Map();
  const targets: VarFileTarget[] = [];
  if (varFiles.length === 0 && vars.length === 0) return { vars: out, targets };
  // `yaml` only when there is something to read: loading it is a good part of a command's start-up
  const { parse, parseDocument, LineCounter, isMap, isScalar } = await import('yaml');
  for (const file of varFiles) {
    let text: string;
    try {
      // normalised as a desired file's text is (a lone CR is a line break)
      text = (await readUserText(file, MAX_FILE_BYTES)).replace(/\r(?!\n)/g, '\n');
    } catch (err) {
      if (err instanceof UserFileError)
        throw new UserError(`--var-file ${file}: cannot read it: ${err.reason}`);
      throw err;
    }
    const lines = new LineCounter();
    const parsed = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
    if (parsed.errors.length > 0)
      throw new UserError(`--var-file ${file}: not YAML: ${parsed.errors[0].message.split('\n')[0]}`);
    const doc: unknown = parsed.toJS();
    if (doc === null || doc === undefined) continue;
    if (typeof doc !== 'object' || Array.isArray(doc) || !isMap(parsed.contents))
      throw new UserError(`--var-file ${file}: expected a map of variable names to values`);
    // each key's line and column, for the messages that name a variable of this file
    const at = new Map<string, { line: number; col: number }>();
    for (const pair of parsed.contents.items) {
      if (isScalar(pair.key) && pair.key.range)
        at.set(String(pair.key.value), lines.linePos(pair.key.range[0]));
    }
    for (const [name, value] of Object.entries(doc as Record<string, unknown>)) {
      const where = at.get(name) ?? { line: 1, col: 1 };
      if (name === 'target') {
        targets.push(varFileTarget(file, where, value));
        continue;
      }
      if (!VAR_NAME.test(name))
        throw new UserError(
          `${file}:${where.line}:${where.col}: "${name}" is not a variable name (letters, digits and _, not first a digit)`,
        );
      out.set(name, { value, from: file, ...where });
    }
  }
  for (const spec of vars) {
    const eq = spec.indexOf('=');
    const name = eq < 0 ? spec : spec.slice(0, eq);
    if (eq < 0 || !VAR_NAME.test(name))
      throw new UserError(`--var ${spec}: expected NAME=VALUE, with a name of letters, digits and _`);
    let value: unknown;
    try {
      value = parse(spec.slice(eq + 1));
    } catch {
      value = spec.slice(eq + 1);
    }
    out.set(name, { value: value ?? '', from: '--var' });
  }
  return { vars: out, targets };
}

/** A var file's `target:` checked for shape: a map with `api_url` (a URL) and/or `accounts` (ids). */
function varFileTarget(file: string, at: { line: number; col: number }, value: unknown): VarFileTarget {
  const refuse = () =>
    new UserError(
      `${file}:${at.line}:${at.col}: target: expected a map with api_url (the API's URL) and/or accounts (a list of account ids), the target this var file is for`,
    );
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw refuse();
  const { api_url, accounts, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || (api_url === undefined && accounts === undefined)) throw refuse();
  if (api_url !== undefined && (typeof api_url !== 'string' || !/^https?:\/\/\S+$/.test(api_url)))
    throw refuse();
  if (
    accounts !== undefined &&
    (!Array.isArray(accounts) ||
      accounts.length === 0 ||
      !accounts.every((a) => typeof a === 'string' && a !== ''))
  )
    throw refuse();
  return {
    file,
    ...at,
    ...(api_url !== undefined ? { api_url: api_url as string } : {}),
    ...(accounts !== undefined ? { accounts: accounts as string[] } : {}),
  };
}

/**
 * The variables a document sees: its own `vars:` map under those given on the command line (which
 * win). `report` gets problems of the `vars:` map itself, at their dotted path.
 */
export function variablesOf(
  document: unknown,
  cli: Variables | undefined,
  report: (path: string, message: string) => void,
): Variables {
  const out: Variables = new Map();
  const own =
    document && typeof document === 'object' ? (document as Record<string, unknown>).vars : undefined;
  if (own !== undefined) {
    if (own === null || typeof own !== 'object' || Array.isArray(own)) {
      report('vars', 'vars is a map of variable names to values');
    } else {
      for (const [name, value] of Object.entries(own as Record<string, unknown>)) {
        if (!VAR_NAME.test(name)) {
          report(
            `vars.${name}`,
            `"${name}" is not a variable name (letters, digits and _, not first a digit)`,
          );
          continue;
        }
        out.set(name, { value, from: 'vars' });
      }
    }
  }
  for (const [name, v] of cli ?? []) out.set(name, v);
  return out;
}
