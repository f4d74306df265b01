/**
 * One zone (or account) declared in several files, as one entry of the merged desired state
 * (docs/file-format.md, "Many files"). The rules, the same for every kind, come from the kinds'
 * `merge` member (src/core/kind.ts):
 * - the lists a kind names are united; two items with the same identity are one item when they
 *   are equal, and an error naming both places when they are not;
 * - every other key of a kind's value, and a kind's whole value when the kind names no list, is a
 *   setting: declared in one file only (equal or not, so one team owns it);
 * - the entry's own fields: the identity (`name`, `id`) is what groups the declarations; `delete`
 *   is declared once; any other field (`account`, `type`, fields this code does not know) may be
 *   repeated with the same value, so a team's file can say the account its zone belongs to.
 * The declarations come in the files' order, and the first file's spelling of a field is kept.
 */
import { isDeepStrictEqual } from 'node:util';
import type { KindDefinition } from '../core/kind.js';
import type { Diagnostic } from '../errors.js';
import type { Entry } from '../rules/shared/values.js';
import type { DesiredState, SourceLocation } from './model.js';
import { childPath, parentPath } from './paths.js';
import type { MergedLocations, PathMoves } from './path-moves.js';

/** One file's declaration of the owner: the built entry, whose `path` is its path in that file. */
export interface Declaration {
  state: DesiredState;
  entry: Entry;
  moves: PathMoves;
}

export interface OwnerRules {
  /** `zone` or `account`, as messages name the owner */
  what: string;
  /** the field that identifies the owner across files (`name`, `id`) */
  identity: string;
  /** the kinds whose values sit under the owner (a key of their own, this scope) */
  kinds: KindDefinition[];
  /** the entry's own fields that are declared once, whatever their value (`delete`) */
  once: ReadonlySet<string>;
}

export interface MergeContext {
  locations: MergedLocations;
  report(d: Diagnostic): void;
}

/** The owner's merged entry at `path` (`zones[3]`); conflicts go to `ctx.report`. */
export function mergeOwner(decls: Declaration[], path: string, rules: OwnerRules, ctx: MergeContext): Entry {
  for (const d of decls) {
    d.moves.add(d.entry.path as string, path);
    ctx.locations.addOrigin(path, { state: d.state, path: d.entry.path as string });
  }
  if (decls.length === 1) {
    const only = decls[0]!;
    // nothing to rewrite when the entry keeps its index (the first file's entries, most files)
    if (only.entry.path !== path) movePaths(only.entry, only.moves);
    return only.entry;
  }
  return new OwnerMerger(decls, path, rules, ctx).merge();
}

class OwnerMerger {
  private readonly shown: string;
  /** values taken from a file whose paths are rewritten to merged ones once every move is known */
  private readonly pieces: [unknown, PathMoves][] = [];
  private readonly merged: Entry = {};

  constructor(
    private readonly decls: Declaration[],
    private readonly path: string,
    private readonly rules: OwnerRules,
    private readonly ctx: MergeContext,
  ) {
    const first = decls[0]!.entry;
    this.merged[rules.identity] = first[rules.identity];
    this.shown = `${rules.what} \`${String(first[rules.identity])}\``;
  }

  merge(): Entry {
    const kinds = new Map(this.rules.kinds.map((k) => [k.key, k]));
    const keys = new Set(this.decls.flatMap((d) => Object.keys(d.entry)));
    for (const key of keys) {
      if (key === 'path' || key === this.rules.identity) continue;
      const having = this.decls.filter((d) => d.entry[key] !== undefined);
      const kind = kinds.get(key);
      if (kind?.merge && having.length > 1) this.merged[key] = this.mergeKindValue(kind, having);
      else if (kind || this.rules.once.has(key)) this.merged[key] = this.once(key, having);
      else this.merged[key] = this.agreed(key, having);
    }
    this.merged.path = this.path;
    for (const [value, moves] of this.pieces) movePaths(value, moves);
    return this.merged;
  }

  /** a setting: the first declaration's value; every other one is an error naming the first */
  private once(key: string, having: Declaration[], within = ''): unknown {
    const at = (d: Declaration) => childPath(within ? valuePath(d, within) : (d.entry.path as string), key);
    const first = having[0]!;
    for (const later of having.slice(1))
      this.conflict(
        later,
        at(later),
        `\`${this.relative(at(later), later)}\` of ${this.shown} is also set at ${this.place(first, at(first))}; a setting is declared in one file only`,
      );
    const value = within ? (first.entry[within] as Entry)[key] : first.entry[key];
    this.pieces.push([value, first.moves]);
    return value;
  }

  /** a field of the entry that files may repeat with the same value */
  private agreed(key: string, having: Declaration[]): unknown {
    const first = having[0]!;
    const at = (d: Declaration) => childPath(d.entry.path as string, key);
    for (const later of having.slice(1)) {
      if (isDeepStrictEqual(later.entry[key], first.entry[key])) continue;
      this.conflict(
        later,
        at(later),
        `\`${key}\` of ${this.shown} differs from the one at ${this.place(first, at(first))}; files that repeat it give the same value`,
      );
    }
    return first.entry[key];
  }

  private mergeKindValue(kind: KindDefinition, having: Declaration[]): Entry {
    const value: Entry = {};
    const keys = new Set(having.flatMap((d) => Object.keys(d.entry[kind.key] as Entry)));
    for (const key of keys) {
      const withKey = having.filter((d) => (d.entry[kind.key] as Entry)[key] !== undefined);
      const identity = Object.hasOwn(kind.merge!.lists, key) ? kind.merge!.lists[key] : undefined;
      value[key] = identity
        ? this.unite(kind.key, key, identity, withKey)
        : this.once(key, withKey, kind.key);
    }
    return value;
  }

  /** the items of every file's list, an item with one identity once */
  private unite(
    kindKey: string,
    listKey: string,
    identityOf: (item: Entry, owner: Entry) => string,
    having: Declaration[],
  ): Entry[] {
    const items: Entry[] = [];
    const first = new Map<string, { decl: Declaration; path: string; index: number }>();
    const listPath = childPath(childPath(this.path, kindKey), listKey);
    for (const d of having) {
      const list = (d.entry[kindKey] as Entry)[listKey] as Entry[];
      const inFile = childPath(valuePath(d, kindKey), listKey);
      list.forEach((item, i) => {
        const path = childPath(inFile, i);
        const id = identityOf(item, this.merged);
        const earlier = first.get(id);
        // two items of one file are as the file's own checks left them: both kept
        if (!earlier || earlier.decl === d) {
          const at = childPath(listPath, items.length);
          d.moves.add(path, at);
          this.ctx.locations.addOrigin(at, { state: d.state, path });
          if (!earlier) first.set(id, { decl: d, path, index: items.length });
          items.push(item);
          this.pieces.push([item, d.moves]);
        } else if (sameItem(items[earlier.index]!, item)) {
          // one item declared twice: a `${env:}` value of the second copy is the first's
          d.moves.add(path, childPath(listPath, earlier.index));
        } else {
          this.conflict(
            d,
            path,
            `${this.shown}: this ${kindKey}.${listKey} entry is also declared, with other values, at ${this.place(earlier.decl, earlier.path)}; declare it in one file, or the same in both`,
          );
        }
      });
    }
    return items;
  }

  private conflict(later: Declaration, path: string, message: string): void {
    this.ctx.report({ ...locate(later.state, path), path, message, severity: 'error' });
  }

  private place(d: Declaration, path: string): string {
    const at = locate(d.state, path);
    return `${at.file}:${at.line}:${at.col}`;
  }

  /** `dns.purge` for `zones[2].dns.purge`: the path below the owner entry */
  private relative(path: string, d: Declaration): string {
    return path.slice((d.entry.path as string).length + 1);
  }
}

const valuePath = (d: Declaration, key: string) => childPath(d.entry.path as string, key);

function sameItem(a: Entry, b: Entry): boolean {
  const { path: _a, ...restA } = a;
  const { path: _b, ...restB } = b;
  return isDeepStrictEqual(restA, restB);
}

/** The place of a path in its file, or of its nearest ancestor that has one. */
function locate(state: DesiredState, path: string): SourceLocation {
  for (let p = path; p; p = parentPath(p)) {
    const found = state.locations.get(p);
    if (found) return found;
  }
  return { file: state.source.files[0]!, line: 1, col: 1 };
}

/**
 * Rewrites every `path` of a value taken from a file (an entry's, its records', policies', jobs')
 * to the merged document's. Generic over the value's shape: any object's string `path` is moved.
 */
function movePaths(value: unknown, moves: PathMoves): void {
  const seen = new WeakSet<object>();
  const visit = (v: unknown): void => {
    if (!v || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      for (const item of v) visit(item);
      return;
    }
    const o = v as Entry;
    for (const key of Object.keys(o)) {
      const field = o[key];
      if (key === 'path' && typeof field === 'string') o[key] = moves.move(field);
      else if (field && typeof field === 'object') visit(field);
    }
  };
  visit(value);
}
