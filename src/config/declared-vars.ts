/**
 * Declared variables, so that a misspelt name or a value of the wrong sort is an error rather than
 * a silent default (docs/file-format.md, "Variables"):
 * - `variables:` at the top of a desired file declares each variable with a `type` (string,
 *   number, bool, list, map or any; default any), an optional `default` and a `description`, as
 *   Terraform's variable blocks do. A variable without a default must be given on the command line.
 * - `vars:` is the short form: name -> default, of type any (a `ttl` of 300 may be `auto` in a var
 *   file, as it always could).
 * - Once any file of the run declares with `variables:`, every `${var:NAME}` must name a declared
 *   variable (src/config/env.ts), even one the command line gives.
 * - Every `--var` and var-file key must be declared or referenced by some file, and a value of a
 *   typed variable must be of its type: else the run is refused naming the var file and line (or
 *   the `--var`), with the closest known name.
 */
import { isObject } from '../rules/shared/values.js';
import { isDeepStrictEqual } from 'node:util';
import { UserError, type Diagnostic } from '../errors.js';
import type { SourceLocation } from './model.js';
import { closest } from './suggest.js';
import { placeOf, VAR_NAME, type Variables } from './vars.js';
import type { YamlSource } from './yaml-source.js';

export const VARIABLE_TYPES = ['string', 'number', 'bool', 'list', 'map', 'any'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];

interface Declaration {
  type: VariableType;
  hasDefault: boolean;
  default?: unknown;
  /** `variables.NAME` or `vars.NAME`, in `source` */
  path: string;
  source: YamlSource;
}

export interface VariableScheme {
  /** the variables the files see: declared defaults under the command line's values */
  vars: Variables;
  /** present when a file declares with `variables:`: the names a reference may use */
  declared?: ReadonlySet<string>;
}

/** A reference that is not an escape (`$${var:NAME}`): the names the files use. */
const USE = /(?<!\$)\$\{var:([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * The files' declarations checked against each other and the command line. Problems in a desired
 * file go to `report` at their place; problems of the command line (an unknown name, a value of the
 * wrong type) are thrown together as one UserError, each naming its var file and line.
 */
export function declareVariables(
  sources: YamlSource[],
  cli: Variables,
  report: (d: Diagnostic) => void,
): VariableScheme {
  const declared = new Map<string, Declaration>();
  let strict = false;
  const at = (source: YamlSource, path: string, message: string) =>
    report({ ...locate(source, path), path, message, severity: 'error' });
  for (const source of sources) {
    const doc = source.value as { vars?: unknown; variables?: unknown } | undefined;
    const long = isMap(doc?.variables) ? doc.variables : undefined;
    const short = isMap(doc?.vars) ? doc.vars : undefined;
    if (long) strict = true;
    for (const [name, spec] of Object.entries(long ?? {})) {
      // a badly shaped entry is the schema's to report
      if (!VAR_NAME.test(name) || !isMap(spec)) continue;
      const type = (VARIABLE_TYPES as readonly string[]).includes(spec.type as string)
        ? (spec.type as VariableType)
        : 'any';
      const path = `variables.${name}`;
      if (short && Object.hasOwn(short, name)) {
        at(source, path, `variable \`${name}\` is also given under \`vars:\` in this file; declare it once`);
        continue;
      }
      const hasDefault = Object.hasOwn(spec, 'default');
      if (hasDefault && !convert(spec.default, type).ok) {
        at(
          source,
          `${path}.default`,
          `the default of \`${name}\` is ${sortOf(spec.default)}, not ${TYPE_NAMES[type]}`,
        );
        continue;
      }
      const d: Declaration = { type, hasDefault, default: spec.default, path, source };
      const earlier = declared.get(name);
      if (!earlier) declared.set(name, d);
      else if (
        earlier.type !== type ||
        earlier.hasDefault !== hasDefault ||
        !isDeepStrictEqual(earlier.default, d.default)
      )
        at(
          source,
          path,
          `variable \`${name}\` is also declared, differently, at ${place(earlier)}; declare it once`,
        );
    }
    for (const [name, value] of Object.entries(short ?? {})) {
      // differing values of one `vars:` name are reported by the files' cross checks
      if (VAR_NAME.test(name) && !declared.has(name))
        declared.set(name, { type: 'any', hasDefault: true, default: value, path: `vars.${name}`, source });
    }
  }

  const vars: Variables = new Map();
  for (const [name, d] of declared) {
    if (d.hasDefault) vars.set(name, { value: convert(d.default, d.type).value, from: d.source.file });
    else if (!cli.has(name))
      at(
        d.source,
        d.path,
        `variable \`${name}\` has no default and is not given: pass --var ${name}=VALUE or set it in a --var-file`,
      );
  }
  const problems: string[] = [];
  const used = cli.size > 0 ? usedNames(sources) : new Set<string>();
  // a file that does not parse may declare or use any name: its own errors come first, and this
  // check runs once every file reads (else a syntax error would show as "not declared or used")
  const unreadable = sources.some((s) => s.diagnostics.some((d) => d.severity === 'error'));
  for (const [name, v] of cli) {
    const d = declared.get(name);
    if (!d && unreadable) {
      vars.set(name, v);
      continue;
    }
    if (!d && !used.has(name)) {
      const near = closest(name, [...new Set([...declared.keys(), ...used])]);
      problems.push(
        `${placeOf(name, v)}: variable ${name} is not declared or used by any desired file` +
          (near ? `; did you mean ${near}?` : ''),
      );
      continue;
    }
    const converted = d ? convert(v.value, d.type) : { ok: true, value: v.value };
    if (!converted.ok) {
      problems.push(
        `${placeOf(name, v)}: variable ${name} is declared as ${TYPE_NAMES[d!.type]} at ${place(d!)}, ` +
          `but this value is ${sortOf(v.value)}`,
      );
      continue;
    }
    vars.set(name, { ...v, value: converted.value });
  }
  if (problems.length > 0)
    throw new UserError(`the variables given do not fit the desired files:\n  ${problems.join('\n  ')}`);
  return { vars, ...(strict ? { declared: new Set(declared.keys()) } : {}) };
}

const TYPE_NAMES: Record<VariableType, string> = {
  string: 'a string',
  number: 'a number',
  bool: 'a boolean',
  list: 'a list',
  map: 'a map',
  any: 'any value',
};

/**
 * `value` as a variable of `type` takes it: a number or a boolean is a fine string (`--var
 * suffix=2024` reads as a number), nothing else is converted.
 */
function convert(value: unknown, type: VariableType): { ok: boolean; value: unknown } {
  switch (type) {
    case 'any':
      return { ok: true, value };
    case 'string':
      if (typeof value === 'string') return { ok: true, value };
      if (typeof value === 'number' || typeof value === 'boolean') return { ok: true, value: String(value) };
      return { ok: false, value };
    case 'number':
      return { ok: typeof value === 'number' && Number.isFinite(value), value };
    case 'bool':
      return { ok: typeof value === 'boolean', value };
    case 'list':
      return { ok: Array.isArray(value), value };
    case 'map':
      return { ok: isMap(value), value };
  }
}

/** `a string ("auto")`, `a list`: what a value is, for messages (scalars shown: they are not secrets). */
function sortOf(value: unknown): string {
  if (value === null || value === undefined) return 'empty';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  const shown = JSON.stringify(value).slice(0, 60);
  if (typeof value === 'string') return `a string (${shown})`;
  if (typeof value === 'number') return `a number (${shown})`;
  if (typeof value === 'boolean') return `a boolean (${shown})`;
  return typeof value;
}

/** The names `${var:NAME}` refers to in the files' values (map keys are never resolved). */
function usedNames(sources: YamlSource[]): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (v.includes('{var:')) for (const m of v.matchAll(USE)) out.add(m[1]!);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const s of sources) if (s.text.includes('{var:')) walk(s.value);
  return out;
}

const isMap = isObject;

/** A declaration's place: its name, or for a default its value. */
function locate(source: YamlSource, path: string): SourceLocation {
  const locator = source.locations();
  return (path.endsWith('.default') ? undefined : locator.key(path)) ?? locator.value(path);
}

function place(d: Declaration): string {
  const at = locate(d.source, d.path);
  return `${at.file}:${at.line}:${at.col}`;
}
