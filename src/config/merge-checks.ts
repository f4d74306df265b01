/**
 * The kinds' checks of an owner declared in several files, run once on its merged entry: the
 * checks that judge the whole value (a proxied CNAME's target, a CNAME beside another record, "no
 * A record") see the whole zone, and each file's part was not checked alone (./shared-owners.ts).
 * Every problem is reported at its own file's place, under the path the value has in that file, and
 * a listed item a message names by its merged index (`records[3]`) is given its place as well.
 */
import type { KindDefinition } from '../core/kind.js';
import type { Diagnostic } from '../errors.js';
import { allKinds } from '../kinds/index.js';
import { redact, redactUrl } from '../redact.js';
import { isObject, type Entry } from '../rules/shared/values.js';
import { childPath, parentPath } from './paths.js';
import type { MergedLocations } from './path-moves.js';
import { resolveKindPath } from './semantic.js';
import type { OwnerList } from './shared-owners.js';

/** Runs every kind's `validate` on the merged owner entry's values; the problems go to `report`. */
export function checkMergedOwner(
  owner: Entry,
  list: OwnerList,
  locations: MergedLocations,
  report: (d: Diagnostic) => void,
): void {
  const scope = list === 'zones' ? 'zone' : 'account';
  for (const kind of allKinds()) {
    if (kind.scope !== scope || !kind.key || !kind.validate || owner[kind.key] === undefined) continue;
    const base = childPath(owner.path as string, kind.key);
    // as each file's own checks do: secrets (and secret-looking URL parameters) never in a message
    const add = (severity: Diagnostic['severity']) => (p: string, message: string) => {
      const at = located(resolveKindPath(base, p), locations);
      const text = redactUrl(redact(cite(message, kind, base, locations)));
      report({ ...at, path: redact(at.path), message: text, severity });
    };
    try {
      kind.validate(asWritten(owner[kind.key]), {
        path: base,
        owner,
        document: {},
        error: add('error'),
        warn: add('warning'),
        schemaFailed: () => false, // every file passed the schema
      });
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      add('error')('', `internal error in the ${kind.key} checks (please report it): ${why}`);
    }
  }
}

/**
 * The value as `validate` knows it: `build` gave each listed item its `path`, which is no key of
 * the file's (the kinds' checks refuse unknown keys). The items are shallow copies without it.
 */
function asWritten(value: unknown): unknown {
  if (!isObject(value)) return value;
  const out: Entry = { ...value };
  for (const [key, v] of Object.entries(out)) {
    if (!Array.isArray(v)) continue;
    out[key] = v.map((item: unknown) => {
      if (!isObject(item) || !('path' in item)) return item;
      const { path: _path, ...rest } = item;
      return rest;
    });
  }
  return out;
}

/** The file, place and file-local path of a merged path (or of its nearest ancestor with a place). */
function located(
  path: string,
  locations: MergedLocations,
): Pick<Diagnostic, 'file' | 'line' | 'col' | 'path'> {
  for (let p = path; p; p = parentPath(p)) {
    const origin = locations.origin(p);
    const at = origin && origin.state.locations.get(origin.path);
    if (origin && at) return { ...at, path: origin.path + path.slice(p.length) };
  }
  // a merged owner's entry has a place in each of its files: only a bug gets here
  return { file: locations.states[0]!.source.files[0]!, line: 1, col: 1, path };
}

/** `records[3]` of a message, a merged index, as `records[1] at b.yaml:7:11`. */
function cite(message: string, kind: KindDefinition, base: string, locations: MergedLocations): string {
  let out = message;
  for (const list of Object.keys(kind.merge?.lists ?? {})) {
    out = out.replace(new RegExp(`\\b${list}\\[(\\d+)\\]`, 'g'), (token, index: string) => {
      const origin = locations.origin(`${base}.${list}[${index}]`);
      const at = origin && origin.state.locations.get(origin.path);
      if (!origin || !at) return token;
      return `${list}${/\[\d+\]$/.exec(origin.path)![0]} at ${at.file}:${at.line}:${at.col}`;
    });
  }
  return out;
}
