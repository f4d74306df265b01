/**
 * Turns a document that passed every check into the typed DesiredState of ./model.ts. Only the
 * spellings the file allows and the reconciler should not see are changed here (`ttl: auto` -> 1);
 * names stay as written (the core normalises them), and every listed entry learns its dotted path.
 */
import type {
  DesiredAccount,
  DesiredDns,
  DesiredLogpush,
  DesiredPageShield,
  DesiredState,
  DesiredZone,
  SourceLocation,
  TargetSpec,
} from './model.js';
import { setOwn } from './own-key.js';
import { childPath } from './paths.js';
import type { Entry } from '../rules/shared/values.js';

export function buildDesiredState(
  document: Entry,
  source: { files: string[]; sha256: string },
  locations: Map<string, SourceLocation>,
): DesiredState {
  const accounts = ((document.accounts as Entry[] | undefined) ?? []).map((a, i) =>
    withPath<DesiredAccount>(a, childPath('accounts', i)),
  );
  const zones = ((document.zones as Entry[] | undefined) ?? []).map((z, i) =>
    buildZone(z, childPath('zones', i)),
  );
  const desired: DesiredState = { version: 1, source, accounts, zones, locations };
  if (document.target) desired.target = document.target as TargetSpec;
  return desired;
}

function buildZone(raw: Entry, path: string): DesiredZone {
  const zone = withPath<DesiredZone>(raw, path);
  if (raw.dns) zone.dns = buildDns(raw.dns as Entry, childPath(path, 'dns'));
  if (raw.page_shield) {
    const ps = copyOf<DesiredPageShield>(raw.page_shield as Entry);
    if (Array.isArray(ps.policies))
      ps.policies = withPaths(ps.policies, childPath(childPath(path, 'page_shield'), 'policies'));
    zone.page_shield = ps;
  }
  if (raw.logpush) {
    const lp = copyOf<DesiredLogpush>(raw.logpush as Entry);
    if (Array.isArray(lp.jobs)) lp.jobs = withPaths(lp.jobs, childPath(childPath(path, 'logpush'), 'jobs'));
    zone.logpush = lp;
  }
  return zone;
}

function buildDns(raw: Entry, path: string): DesiredDns {
  const listPath = childPath(path, 'records');
  const records = ((raw.records as Entry[] | undefined) ?? []).map((r, i) => {
    const record = withPath<DesiredDns['records'][number]>(r, childPath(listPath, i));
    if ((r.ttl as unknown) === 'auto') record.ttl = 1;
    return record;
  });
  const dns = copyOf<DesiredDns>(raw);
  dns.records = records;
  return dns;
}

function withPaths<T extends object>(list: T[], path: string): (T & { path: string })[] {
  return list.map((item, i) => withPath<T & { path: string }>(item as Entry, childPath(path, i)));
}

/**
 * A shallow copy of a checked entry. Not `{ ...entry }`: V8 gives each object spread from one with
 * out-of-object properties (a YAML mapping of 5 keys or more) a hidden class of its own, and a
 * file of 10,000 records in 10,000 shapes makes every later read of a record field megamorphic:
 * planning such a zone took twice as long as planning the same records copied key by key.
 */
function copyOf<T>(entry: Entry): T {
  const out: Entry = {};
  for (const key of Object.keys(entry)) setOwn(out, key, entry[key]);
  return out as T;
}

/** A copy of a listed entry with its dotted path (`zones[0].dns.records[3]`) added last. */
function withPath<T>(entry: Entry, path: string): T {
  const out = copyOf<Entry>(entry);
  out.path = path;
  return out as T;
}
