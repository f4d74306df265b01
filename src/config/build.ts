/**
 * Turns a document that passed every check into the typed DesiredState of ./model.ts. Each kind's
 * value is built by the kind (`KindDefinition.build`: the spellings the file allows and the
 * reconciler should not see, such as a record's `ttl: auto` -> 1, and the dotted paths of listed
 * entries); a kind without `build` gets its value as written. Names stay as written (the core
 * normalises them), and every owner entry learns its dotted path.
 */
import type { KindDefinition } from '../core/kind.js';
import { allKinds } from '../kinds/index.js';
import { withPath } from './entry-copy.js';
import type { DesiredAccount, DesiredState, DesiredZone, SourceLocation, TargetSpec } from './model.js';
import { childPath } from './paths.js';
import type { Entry } from '../rules/shared/values.js';

export function buildDesiredState(
  document: Entry,
  source: { files: string[]; sha256: string },
  locations: Map<string, SourceLocation>,
): DesiredState {
  const builders = allKinds().filter((k) => k.build && k.key !== '');
  const accounts = ((document.accounts as Entry[] | undefined) ?? []).map((a, i) =>
    buildOwner<DesiredAccount>(
      a,
      childPath('accounts', i),
      builders.filter((k) => k.scope === 'account'),
    ),
  );
  const zones = ((document.zones as Entry[] | undefined) ?? []).map((z, i) =>
    buildOwner<DesiredZone>(
      z,
      childPath('zones', i),
      builders.filter((k) => k.scope === 'zone'),
    ),
  );
  const desired: DesiredState = { version: 1, source, accounts, zones, locations };
  if (document.target) desired.target = document.target as TargetSpec;
  return desired;
}

function buildOwner<T extends Entry>(raw: Entry, path: string, builders: KindDefinition[]): T {
  const owner = withPath<T>(raw, path);
  for (const kind of builders) {
    const value = raw[kind.key];
    if (value) (owner as Entry)[kind.key] = kind.build!(value as Entry, childPath(path, kind.key));
  }
  return owner;
}
