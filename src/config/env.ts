/**
 * `${env:NAME}` references in string values: how secrets (Logpush destination credentials,
 * ownership challenges) live in a public repository. They are resolved once, at load time, and
 * every resolved value is registered with src/redact.ts, so whatever prints or writes it later shows
 * `(from env NAME)` instead. `$${env:NAME}` is the escape for a literal `${env:NAME}`.
 */
import { MIN_SECRET_LENGTH, registerSecret } from '../redact.js';
import { setOwn } from './own-key.js';
import { childPath } from './paths.js';

const REFERENCE = /\$(\$?)\{env:([^}]*)\}/g;
const VALID_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface EnvOptions {
  env: NodeJS.ProcessEnv;
  /** report a missing variable as a warning (and leave the reference as written) instead of an error */
  allowMissing?: boolean;
}

export type EnvReport = (path: string, message: string, severity: 'error' | 'warning') => void;

/**
 * Returns `value` with every reference in its strings resolved. Map keys are never resolved.
 * The data is already depth-bounded by the YAML reader, so the recursion here is bounded too.
 */
export function resolveEnvReferences(
  value: unknown,
  path: string,
  opts: EnvOptions,
  report: EnvReport,
): unknown {
  if (typeof value === 'string') return resolveString(value, path, opts, report);
  if (Array.isArray(value))
    return value.map((v, i) => resolveEnvReferences(v, childPath(path, i), opts, report));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      setOwn(out, k, resolveEnvReferences(v, childPath(path, k), opts, report));
    return out;
  }
  return value;
}

function resolveString(text: string, path: string, opts: EnvOptions, report: EnvReport): string {
  if (!text.includes('{env:')) return text;
  const resolved = text.replace(REFERENCE, (whole, escape: string, name: string) => {
    if (escape) return whole.slice(1);
    if (!VALID_NAME.test(name)) {
      report(
        path,
        `\`${whole}\` is not a valid reference: a variable name is letters, digits and _`,
        'error',
      );
      return whole;
    }
    const found = opts.env[name];
    if (found === undefined) {
      const message = `environment variable ${name} is not set (referenced as \`\${env:${name}}\`)`;
      report(path, message, opts.allowMissing ? 'warning' : 'error');
      return whole;
    }
    if (found.length > 0 && found.length < MIN_SECRET_LENGTH) {
      // the redactor replaces values wherever they occur, so it cannot hide "123" without
      // mangling every other "123" in the output: say so instead of pretending
      report(
        path,
        `the value of ${name} is shorter than ${MIN_SECRET_LENGTH} characters, too short to be hidden in output: it will be shown where it is used`,
        'warning',
      );
    }
    registerSecret(found, `(from env ${name})`);
    return found;
  });
  // A reference with no closing brace would otherwise be sent to the API as literal text.
  const unclosed = /(^|[^$])\$\{env:[^}]*$/.exec(text);
  if (unclosed) report(path, 'a `${env:` reference is not closed with `}`', 'error');
  return resolved;
}
