/**
 * References in the values of a desired-state file, resolved once, at load time:
 * - `${env:NAME}`: a secret from the environment (Logpush destination credentials, ownership
 *   challenges). Every resolved value is registered with src/redact.ts, with the dotted path it
 *   was written at, so whatever prints or writes it later shows `(from env NAME)` instead (a plan
 *   only in the steps of the entries that held the reference: redactForStep; with several files,
 *   once the places are moved to the merged document's paths: rebaseEnvPlaces).
 * - `${var:NAME}`: a typed, non-secret variable (src/config/vars.ts). A scalar that is exactly one
 *   reference takes the variable's value and type (`ttl: ${var:ttl}` is a number); inside a longer
 *   string the value is interpolated. Plans show variables in clear.
 * `$${env:NAME}` and `$${var:NAME}` are the escapes for the literal text.
 * `${env:NAME}` is refused in a field whose value becomes an identifier (./identifiers.ts): an
 * identifier is printed everywhere, so it cannot hold a secret.
 */
import { MIN_SECRET_LENGTH, registerSecret } from '../redact.js';
import { setOwn } from './own-key.js';
import { isIdentifierPath } from './identifiers.js';
import { childPath } from './paths.js';
import { closest } from './suggest.js';
import type { Variables } from './vars.js';

const REFERENCE = /\$(\$?)\{(env|var):([^}]*)\}/g;
const WHOLE_VAR = /^\$\{var:([A-Za-z_][A-Za-z0-9_]*)\}$/;
const VALID_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface ReferenceOptions {
  env: NodeJS.ProcessEnv;
  /** report a missing environment variable as a warning (and leave the reference as written) */
  allowMissing?: boolean;
  /** the variables `${var:NAME}` may name */
  vars?: Variables;
  /** when the files declare their variables: the only names `${var:NAME}` may use */
  declared?: ReadonlySet<string>;
  /** the file the value was read from: the places of env values are moved when files merge */
  file?: string;
}

export type ReferenceReport = (path: string, message: string, severity: 'error' | 'warning') => void;

/** Whether a file's text can hold a reference at all: when not, the document is used as it is. */
export function mayHoldReferences(text: string): boolean {
  return text.includes('{env:') || text.includes('{var:');
}

/**
 * Returns `value` with every reference resolved. Map keys are never resolved. Subtrees without a
 * reference come back as they are (no copy). The data is already depth-bounded by the YAML reader,
 * so the recursion here is bounded too.
 */
export function resolveReferences(
  value: unknown,
  path: string,
  opts: ReferenceOptions,
  report: ReferenceReport,
): unknown {
  if (typeof value === 'string') return resolveString(value, path, opts, report);
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = resolveReferences(value[i], childPath(path, i), opts, report);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  if (value && typeof value === 'object') {
    let out: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(value)) {
      const r = resolveReferences(v, childPath(path, k), opts, report);
      if (r !== v) {
        if (!out) {
          out = {};
          for (const [k2, v2] of Object.entries(value)) setOwn(out, k2, v2);
        }
        setOwn(out, k, r);
      }
    }
    return out ?? value;
  }
  return value;
}

function resolveString(text: string, path: string, opts: ReferenceOptions, report: ReferenceReport): unknown {
  if (!text.includes('{env:') && !text.includes('{var:')) return text;
  const whole = WHOLE_VAR.exec(text);
  if (whole) {
    const v = lookupVar(whole[1], path, opts, report);
    if (v === undefined) return text;
    // a list or map is copied where it is used: each place (each file of a run) gets objects of
    // its own, which the desired state is built from in place (src/kinds/dns/build.ts)
    return v.value !== null && typeof v.value === 'object' ? structuredClone(v.value) : v.value;
  }
  const resolved = text.replace(REFERENCE, (ref, escape: string, source: string, name: string) => {
    if (escape) return ref.slice(1);
    if (!VALID_NAME.test(name)) {
      report(path, `\`${ref}\` is not a valid reference: a variable name is letters, digits and _`, 'error');
      return ref;
    }
    if (source === 'var') {
      const v = lookupVar(name, path, opts, report);
      if (v === undefined) return ref;
      if (v.value !== null && typeof v.value === 'object') {
        report(
          path,
          `variable ${name} is a ${Array.isArray(v.value) ? 'list' : 'map'}: it can only stand alone as a value, not inside a string`,
          'error',
        );
        return ref;
      }
      return String(v.value ?? '');
    }
    if (isIdentifierPath(path)) {
      report(
        path,
        `\`${ref}\` cannot be used here: this value is an identifier, printed in every plan, journal and log, so it cannot be kept secret; write the value itself, or \`\${var:${name}}\` for a value that changes per environment${path === 'target.api_url' ? ' (or set CLOUDFLARE_BASE_URL, or pass --api-url)' : ''}`,
        'error',
      );
      return ref;
    }
    const found = opts.env[name];
    if (found === undefined) {
      const message = `environment variable ${name} is not set (referenced as \`\${env:${name}}\`)`;
      report(path, message, opts.allowMissing ? 'warning' : 'error');
      return ref;
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
    registerSecret(found, `(from env ${name})`, { path, file: opts.file });
    return found;
  });
  // A reference with no closing brace would otherwise be sent to the API as literal text.
  const unclosed = /(^|[^$])\$\{(env|var):[^}]*$/.exec(text);
  if (unclosed) report(path, `a \`\${${unclosed[2]}:\` reference is not closed with \`}\``, 'error');
  return resolved;
}

function lookupVar(name: string, path: string, opts: ReferenceOptions, report: ReferenceReport) {
  if (opts.declared && !opts.declared.has(name)) {
    const near = closest(name, [...opts.declared]);
    report(
      path,
      `variable ${name} is not declared (referenced as \`\${var:${name}}\`); declare it under \`variables:\`${near ? `, or did you mean ${near}?` : ''}`,
      'error',
    );
    return undefined;
  }
  const v = opts.vars?.get(name);
  if (v === undefined) {
    const known = [...(opts.vars?.keys() ?? [])];
    const near = closest(name, known);
    report(
      path,
      `variable ${name} is not defined (referenced as \`\${var:${name}}\`)${near ? `; did you mean ${near}?` : ''}; define it under \`vars:\`, in a --var-file or with --var ${name}=VALUE${known.length ? ` (defined: ${known.sort().join(', ')})` : ''}`,
      'error',
    );
  }
  return v;
}
