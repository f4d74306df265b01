/**
 * Several checked files into one DesiredState. Accounts and zones are listed in file order and
 * numbered across the files (the second file's first zone is `zones[N]` when the first holds N), so
 * every dotted path of the merged state is unique; the merged `locations` map such a path back to
 * the file and the index it has there, so a plan-time error still says `b.yaml:4:7`.
 */
import { createHash } from 'node:crypto';
import { rebaseEnvPlaces } from '../redact.js';
import type { DesiredState, SourceLocation } from './model.js';

interface Slot {
  state: DesiredState;
  /** the entry's index in its own file */
  index: number;
}

export function mergeDesiredStates(states: DesiredState[]): DesiredState {
  const slots = { accounts: [] as Slot[], zones: [] as Slot[] };
  const accounts: DesiredState['accounts'] = [];
  const zones: DesiredState['zones'] = [];
  // the places of `${env:}` values were recorded per file: they move with their entries, so a plan
  // still masks an env value only in the steps of the entry that held it
  const rebase = new Map<string, (path: string) => string>();
  for (const state of states) {
    rebase.set(state.source.files[0], movedPath({ accounts: accounts.length, zones: zones.length }));
    state.accounts.forEach((a, index) => {
      renumber(a, 'accounts', index, accounts.length);
      slots.accounts.push({ state, index });
      accounts.push(a);
    });
    state.zones.forEach((z, index) => {
      renumber(z, 'zones', index, zones.length);
      slots.zones.push({ state, index });
      zones.push(z);
    });
  }
  rebaseEnvPlaces(rebase);
  const files = states.flatMap((s) => s.source.files);
  const sha256s = states.flatMap((s) => s.source.sha256s ?? [s.source.sha256]);
  const merged: DesiredState = {
    version: 1,
    source: { files, sha256: combinedHash(files, sha256s), sha256s },
    accounts,
    zones,
    locations: new MergedLocations(states[0], slots),
  };
  const target = states.find((s) => s.target !== undefined)?.target;
  if (target) merged.target = target;
  return merged;
}

/** One hash of all the files (names and contents), for whatever wants a single one. */
export function combinedHash(files: string[], sha256s: string[]): string {
  const h = createHash('sha256');
  files.forEach((f, i) => h.update(`${f}\0${sha256s[i]}\n`));
  return h.digest('hex');
}

const LISTED = /^(accounts|zones)\[(\d+)\](.*)$/s;

/** A path of one file to the merged document's, given how many entries the earlier files hold. */
function movedPath(offset: Record<'accounts' | 'zones', number>): (path: string) => string {
  return (path) => {
    const m = LISTED.exec(path);
    if (!m) return path; // a top-level field (`target`, `vars`): the same path in every file
    return `${m[1]}[${Number(m[2]) + offset[m[1] as 'accounts' | 'zones']}]${m[3]}`;
  };
}

/**
 * Rewrites every `path` of an entry (and of what it lists: records, policies, jobs) from its index
 * in its file to its index across the files. Generic over the entry's shape: any object's string
 * `path` that starts with the entry's own path is moved.
 */
function renumber(entry: object, list: string, from: number, to: number): void {
  if (from === to) return;
  const old = `${list}[${from}]`;
  const now = `${list}[${to}]`;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const v of value) visit(v);
      return;
    }
    if (!value || typeof value !== 'object') return;
    const o = value as Record<string, unknown>;
    for (const key of Object.keys(o)) {
      const v = o[key];
      if (
        key === 'path' &&
        typeof v === 'string' &&
        v.startsWith(old) &&
        /^$|^[.[]/.test(v.slice(old.length))
      )
        o[key] = now + v.slice(old.length);
      else if (v && typeof v === 'object') visit(v);
    }
  };
  visit(entry);
}

class MergedLocations extends Map<string, SourceLocation> {
  constructor(
    private readonly first: DesiredState,
    private readonly slots: Record<'accounts' | 'zones', Slot[]>,
  ) {
    super();
  }

  override get(path: string): SourceLocation | undefined {
    const known = super.get(path);
    if (known) return known;
    const m = LISTED.exec(path);
    if (!m) return this.first.locations.get(path);
    const slot = this.slots[m[1] as 'accounts' | 'zones'][Number(m[2])];
    if (!slot) return undefined;
    const found = slot.state.locations.get(`${m[1]}[${slot.index}]${m[3]}`);
    if (found) super.set(path, found);
    return found;
  }

  override has(path: string): boolean {
    return this.get(path) !== undefined;
  }
}
