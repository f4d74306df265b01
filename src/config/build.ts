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
import { childPath } from './paths.js';

type Entry = Record<string, unknown>;

export function buildDesiredState(
  document: Entry,
  source: { files: string[]; sha256: string },
  locations: Map<string, SourceLocation>,
): DesiredState {
  const accounts = ((document.accounts as Entry[] | undefined) ?? []).map(
    (a, i) => ({ ...a, path: childPath('accounts', i) }) as DesiredAccount,
  );
  const zones = ((document.zones as Entry[] | undefined) ?? []).map((z, i) =>
    buildZone(z, childPath('zones', i)),
  );
  const desired: DesiredState = { version: 1, source, accounts, zones, locations };
  if (document.target) desired.target = document.target as TargetSpec;
  return desired;
}

function buildZone(raw: Entry, path: string): DesiredZone {
  const zone = { ...raw, path } as unknown as DesiredZone;
  if (raw.dns) zone.dns = buildDns(raw.dns as Entry, childPath(path, 'dns'));
  if (raw.page_shield) {
    const ps = { ...(raw.page_shield as Entry) } as unknown as DesiredPageShield;
    if (Array.isArray(ps.policies))
      ps.policies = withPaths(ps.policies, childPath(childPath(path, 'page_shield'), 'policies'));
    zone.page_shield = ps;
  }
  if (raw.logpush) {
    const lp = { ...(raw.logpush as Entry) } as unknown as DesiredLogpush;
    if (Array.isArray(lp.jobs)) lp.jobs = withPaths(lp.jobs, childPath(childPath(path, 'logpush'), 'jobs'));
    zone.logpush = lp;
  }
  return zone;
}

function buildDns(raw: Entry, path: string): DesiredDns {
  const records = ((raw.records as Entry[] | undefined) ?? []).map((r, i) => {
    const record = {
      ...r,
      path: childPath(childPath(path, 'records'), i),
    } as unknown as DesiredDns['records'][number];
    if ((r.ttl as unknown) === 'auto') record.ttl = 1;
    return record;
  });
  return { ...(raw as object), records } as DesiredDns;
}

function withPaths<T extends object>(list: T[], path: string): (T & { path: string })[] {
  return list.map((item, i) => ({ ...item, path: childPath(path, i) }));
}
