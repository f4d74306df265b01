/**
 * Several checked files into one DesiredState (docs/file-format.md, "Many files"). A zone or an
 * account declared in several files becomes one entry (./merge-owner.ts says how); the others are
 * taken as they are. Entries are numbered across the files (the second file's first zone is
 * `zones[N]` when the first holds N other zones), so every dotted path of the merged state is
 * unique; its `locations` map such a path back to the file and the path it has there, so a
 * plan-time error still says `b.yaml:4:7` (./path-moves.ts).
 *
 * The files are merged in the order of their paths, not the order the command line names them:
 * the order of the files never changes the merged state, hence the plan.
 */
import { nodeCrypto } from '../node-crypto.js';
import type { Diagnostic } from '../errors.js';
import { allKinds } from '../kinds/index.js';
import { rebaseEnvPlaces } from '../redact.js';
import type { Entry } from '../rules/shared/values.js';
import { mergeOwner, type Declaration, type MergeContext, type OwnerRules } from './merge-owner.js';
import type { DesiredAccount, DesiredState, DesiredZone } from './model.js';
import { childPath } from './paths.js';
import { checkMergedOwner } from './merge-checks.js';
import { MergedLocations, PathMoves } from './path-moves.js';
import { identityField, ownerKey, type OwnerList, type SharedOwner } from './shared-owners.js';

export interface MergeResult {
  /** present when the files merge without an error */
  desired?: DesiredState;
  /**
   * each conflict in the file of the later declaration, naming the earlier one; then the problems
   * (errors and warnings) of the checks of the owners of several files, each in its own file
   */
  problems: Diagnostic[];
}

export interface MergeOptions {
  /** owners whose kinds' checks each file left to the merged entry (./shared-owners.ts) */
  shared?: SharedOwner;
  /** run those checks: set when `given` holds every file of the run (a part would be misjudged) */
  checkShared?: boolean;
}

export function mergeDesiredStates(given: DesiredState[], opts: MergeOptions = {}): MergeResult {
  // by code unit, not locale, like a directory's files: the same on every machine
  const byPath = (a: DesiredState, b: DesiredState) => {
    const [x, y] = [a.source.files[0]!, b.source.files[0]!];
    return x < y ? -1 : x > y ? 1 : 0;
  };
  const states = [...given].sort(byPath);
  const problems: Diagnostic[] = [];
  const locations = new MergedLocations(states);
  const ctx: MergeContext = { locations, report: (d) => problems.push(d) };
  const moves = new Map(states.map((s) => [s, new PathMoves()]));
  const kinds = (scope: 'zone' | 'account') => allKinds().filter((k) => k.scope === scope && k.key !== '');
  // the owners of several files, to be checked whole once merged
  const toCheck: [Entry, OwnerList][] = [];
  const owners = (list: OwnerList, rules: OwnerRules) =>
    mergeOwners(states, moves, list, ctx, rules, (owner, decls) => {
      if (decls.length > 1 || decls.some((d) => opts.shared?.(list, d.entry))) toCheck.push([owner, list]);
    });
  const accounts = owners('accounts', {
    what: 'account',
    identity: identityField('accounts'),
    kinds: kinds('account'),
    once: new Set(),
  }) as DesiredAccount[];
  const zones = owners('zones', {
    what: 'zone',
    identity: identityField('zones'),
    kinds: kinds('zone'),
    once: new Set(['delete']),
  }) as DesiredZone[];
  if (problems.length > 0) return { problems };
  if (opts.checkShared)
    for (const [owner, list] of toCheck) checkMergedOwner(owner, list, locations, ctx.report);
  if (problems.some((d) => d.severity === 'error')) return { problems };

  // the places of `${env:}` values were recorded per file: they move with their entries, so a plan
  // still masks an env value only in the steps of the entry that held it
  rebaseEnvPlaces(new Map(states.map((s) => [s.source.files[0]!, (path) => moves.get(s)!.move(path)])));
  const files = states.flatMap((s) => s.source.files);
  // the files' hashes, taken when first asked for (./yaml-source.ts)
  const sources = states.map((s) => s.source);
  let sha256s: string[] | undefined;
  let sha256: string | undefined;
  const merged: DesiredState = {
    version: 1,
    source: {
      files,
      get sha256() {
        return (sha256 ??= combinedHash(files, this.sha256s!));
      },
      get sha256s() {
        return (sha256s ??= sources.flatMap((s) => s.sha256s ?? [s.sha256]));
      },
    },
    accounts,
    zones,
    locations,
  };
  const target = states.find((s) => s.target !== undefined)?.target;
  if (target) merged.target = target;
  return { desired: merged, problems };
}

/** The entries of one list (`zones`, `accounts`) of every file, one per identity. */
function mergeOwners(
  states: DesiredState[],
  moves: Map<DesiredState, PathMoves>,
  list: OwnerList,
  ctx: MergeContext,
  rules: OwnerRules,
  merged: (owner: Entry, decls: Declaration[]) => void,
): Entry[] {
  const groups = new Map<string, Declaration[]>();
  for (const state of states) {
    for (const entry of state[list] as Entry[]) {
      const key = ownerKey(list, String(entry[rules.identity]));
      const decl = { state, entry, moves: moves.get(state)! };
      const group = groups.get(key);
      if (group) group.push(decl);
      else groups.set(key, [decl]);
    }
  }
  return [...groups.values()].map((decls, i) => {
    const owner = mergeOwner(decls, childPath(list, i), rules, ctx);
    merged(owner, decls);
    return owner;
  });
}

/** One hash of all the files (names and contents), for whatever wants a single one. */
export function combinedHash(files: string[], sha256s: string[]): string {
  const h = nodeCrypto().createHash('sha256');
  files.forEach((f, i) => h.update(`${f}\0${sha256s[i]}\n`));
  return h.digest('hex');
}
