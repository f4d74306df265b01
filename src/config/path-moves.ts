/**
 * Where the dotted paths of each file land in the merged document (src/config/merge.ts), and back.
 * An entry moves as a whole: a zone `zones[2]` of b.yaml becomes `zones[0]` of the merged state,
 * and a record `zones[2].dns.records[1]` of it becomes `zones[0].dns.records[7]` when the zone's
 * records of a.yaml come first. So a move is kept per entry (a path ending at a list index), and a
 * path is moved by its longest such prefix: `zones[2].dns.records[1].content` follows its record.
 */
import type { DesiredState, SourceLocation } from './model.js';

/** The ends of a path's prefixes that end at a list index, longest first. */
function entryEnds(path: string): number[] {
  const ends: number[] = [];
  for (let i = path.length - 1; i >= 0; i--) {
    if (path.charCodeAt(i) !== 93 /* ] */) continue;
    const next = path[i + 1];
    if (next === undefined || next === '.' || next === '[') ends.push(i + 1);
  }
  return ends;
}

/** The moves of one file's entries into the merged document. */
export class PathMoves {
  private readonly moves = new Map<string, string>();

  /** `from` (an entry of the file: `zones[2]`) is `to` in the merged document */
  add(from: string, to: string): void {
    this.moves.set(from, to);
  }

  /** whether some entry moves (when none does, every path of the file stays as it is) */
  get moving(): boolean {
    for (const [from, to] of this.moves) if (from !== to) return true;
    return false;
  }

  /** A path of the file as a path of the merged document; a top-level field (`target`) stays. */
  move(path: string): string {
    // an entry's own `path` (a record's) is a move itself: one lookup, no scan
    const own = this.moves.get(path);
    if (own !== undefined) return own;
    for (const end of entryEnds(path)) {
      const to = this.moves.get(path.slice(0, end));
      if (to !== undefined) return to + path.slice(end);
    }
    return path;
  }
}

/** One place a merged entry came from: the file's state and the entry's path there. */
export interface Origin {
  state: DesiredState;
  path: string;
}

/**
 * The merged state's `locations`: a merged path is looked up in the file its entry came from. A
 * zone declared in three files has three origins: a path below it (`zones[0].dns.purge`) is in
 * whichever of them holds it (a setting is declared in one file only); a listed entry below it
 * (`zones[0].dns.records[7]`) has the one origin of its own. A path outside every entry (`target`)
 * is looked up in the files in order.
 */
export class MergedLocations extends Map<string, SourceLocation> {
  private readonly origins = new Map<string, Origin[]>();

  /** `states`: the files' states, in the order of the merge */
  constructor(readonly states: DesiredState[]) {
    super();
  }

  /** the merged entry at `path` came from `origin` (an entry declared in several files: each) */
  addOrigin(path: string, origin: Origin): void {
    const list = this.origins.get(path);
    if (list) list.push(origin);
    else this.origins.set(path, [origin]);
  }

  override get(path: string): SourceLocation | undefined {
    const known = super.get(path);
    if (known) return known;
    const found = this.lookUp(path);
    if (found) super.set(path, found);
    return found;
  }

  override has(path: string): boolean {
    return this.get(path) !== undefined;
  }

  private lookUp(path: string): SourceLocation | undefined {
    const origin = this.origin(path);
    return origin && origin.state.locations.get(origin.path);
  }

  /**
   * The file and the path there of a merged path (`zones[0].dns.records[7]` is b.yaml's
   * `zones[2].dns.records[1]`): the first origin whose file holds it. Undefined when no file does.
   */
  origin(path: string): Origin | undefined {
    for (const end of entryEnds(path)) {
      const origins = this.origins.get(path.slice(0, end));
      if (!origins) continue;
      const rest = path.slice(end);
      for (const o of origins) {
        if (o.state.locations.get(o.path + rest)) return { state: o.state, path: o.path + rest };
      }
      return undefined; // the entry is known and none of its files has the path: no location
    }
    const state = this.states.find((s) => s.locations.get(path));
    return state && { state, path };
  }
}
