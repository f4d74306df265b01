/**
 * Acting on a subset of the owners of a desired state: `--zone NAME` and `--account ID` (repeatable,
 * `*` and `?` glob patterns) and `--shard i/n`. Applied to the loaded state before the target is
 * chosen, so nothing is read, planned or applied for an owner that is not selected.
 *
 * A shard is chosen by a hash of the owner's name alone (sha256 of the lower-cased zone name or
 * account id, first 8 bytes as an integer, modulo n): the n shards are disjoint, together they are
 * every owner, and adding a zone never moves another to another shard.
 */
import { nodeCrypto } from '../node-crypto.js';
import type { DesiredState } from '../config/model.js';
import { UserError } from '../errors.js';

export interface Selection {
  /** zone names or glob patterns; empty with `accounts` empty means every owner */
  zones: string[];
  /** account ids or glob patterns */
  accounts: string[];
  shard?: Shard;
}

export interface Shard {
  /** 1-based */
  index: number;
  count: number;
}

/** The API's budget per user (requests per 300 s), which the shards of one run share. */
export const API_BUDGET = { requests: 1200, perSeconds: 300 };

export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || !(count >= 1) || !(index >= 1) || index > count || !Number.isSafeInteger(count))
    throw new UserError(`--shard ${JSON.stringify(text)}: expected I/N with 1 <= I <= N, e.g. 2/4`);
  return { index, count };
}

export const formatShard = (s: Shard) => `${s.index}/${s.count}`;

/** Whether a selection restricts anything at all. */
export function isSelective(s: Selection): boolean {
  return s.zones.length > 0 || s.accounts.length > 0 || s.shard !== undefined;
}

/** The 1-based shard of `count` an owner falls in. */
export function shardOf(ownerName: string, count: number): number {
  const digest = nodeCrypto().createHash('sha256').update(ownerName.toLowerCase()).digest();
  return Number(digest.readBigUInt64BE(0) % BigInt(count)) + 1;
}

const zoneKey = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** `*` any run of characters (dots too), `?` one character; case-insensitive. */
export function globToRegExp(pattern: string): RegExp {
  const body = pattern
    .split('')
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 'i');
}

/**
 * The desired state restricted to the selected owners. A name or pattern that matches no owner of
 * the file is an error (a typo would otherwise plan nothing and pass).
 */
export function selectOwners(desired: DesiredState, selection: Selection): DesiredState {
  if (!isSelective(selection)) return desired;
  const byName = selection.zones.length > 0 || selection.accounts.length > 0;
  const matcher = (patterns: string[], key: (s: string) => string, flag: string, owners: string[]) => {
    const tests = patterns.map((p) => ({ p, re: globToRegExp(key(p)), used: false }));
    return {
      matches(name: string) {
        let hit = false;
        for (const t of tests)
          if (t.re.test(key(name))) {
            t.used = true;
            hit = true;
          }
        return hit;
      },
      check() {
        const unused = tests.filter((t) => !t.used).map((t) => t.p);
        if (unused.length > 0) {
          throw new UserError(
            `${unused.map((p) => `${flag} ${p}`).join(', ')}: matches no ${flag === '--zone' ? 'zone' : 'account'} of the desired state` +
              (owners.length > 0
                ? ` (it has ${owners.slice(0, 5).join(', ')}${owners.length > 5 ? ', ...' : ''})`
                : ''),
          );
        }
      },
    };
  };
  const zones = matcher(
    selection.zones,
    zoneKey,
    '--zone',
    desired.zones.map((z) => z.name),
  );
  const accounts = matcher(
    selection.accounts,
    (s) => s.toLowerCase(),
    '--account',
    desired.accounts.map((a) => a.id),
  );
  const inShard = (name: string) =>
    !selection.shard || shardOf(name, selection.shard.count) === selection.shard.index;
  const pickedZones = desired.zones.filter(
    (z) => (!byName || zones.matches(z.name)) && inShard(zoneKey(z.name)),
  );
  const pickedAccounts = desired.accounts.filter(
    (a) => (!byName || accounts.matches(a.id)) && inShard(a.id.toLowerCase()),
  );
  zones.check();
  accounts.check();
  // same object otherwise: the locations, target and source stay those of the file(s)
  return { ...desired, zones: pickedZones, accounts: pickedAccounts };
}
