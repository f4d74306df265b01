/**
 * Typed, non-secret variables: `vars:` at the top of any desired-state file, `--var-file FILE`
 * (a YAML map; later files win) and `--var NAME=VALUE` (the value read as YAML, so `300` is a
 * number and `true` a boolean), in that order of precedence, lowest first. `${var:NAME}` refers to
 * one (src/config/env.ts resolves references). Variables are not secrets: plans show their values.
 */
import { UserError } from '../errors.js';
import { readUserText, UserFileError } from '../read-user-file.js';
import { MAX_FILE_BYTES } from './yaml-source.js';

export const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A variable's value and where it was defined, for messages. */
export interface Variable {
  value: unknown;
  from: string;
}

export type Variables = Map<string, Variable>;

/** Variables given on the command line: every `--var-file`, in order, then every `--var`. */
export async function variablesFromCli(varFiles: string[] = [], vars: string[] = []): Promise<Variables> {
  const out: Variables = new Map();
  if (varFiles.length === 0 && vars.length === 0) return out;
  // `yaml` only when there is something to read: loading it is a good part of a command's start-up
  const { parse } = await import('yaml');
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
    let doc: unknown;
    try {
      doc = parse(text);
    } catch (err) {
      throw new UserError(`--var-file ${file}: not YAML: ${(err as Error).message.split('\n')[0]}`);
    }
    if (doc === null || doc === undefined) continue;
    if (typeof doc !== 'object' || Array.isArray(doc))
      throw new UserError(`--var-file ${file}: expected a map of variable names to values`);
    for (const [name, value] of Object.entries(doc as Record<string, unknown>)) {
      if (!VAR_NAME.test(name))
        throw new UserError(
          `--var-file ${file}: "${name}" is not a variable name (letters, digits and _, not first a digit)`,
        );
      out.set(name, { value, from: file });
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
  return out;
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
