/**
 * `renamed_from` on DNS records (docs/kinds/dns.md, "Renaming a record"): which live record a
 * desired record with `renamed_from: OLD` takes over, found before the zone's records are paired.
 *
 * A record's identity is (name, type, value), and a name may hold several records of one type (an
 * A set), so a rename is of one record, not of a name. The desired record (NEW, TYPE, VALUE) with
 * `renamed_from: OLD` takes over the live record of (OLD, TYPE) whose value is VALUE; when none has
 * VALUE, OLD holds exactly one record of TYPE and the file keeps no record of (OLD, TYPE), that one
 * (the rename then changes its value too, in the same PATCH). A set is renamed by giving each of its records `renamed_from`.
 *
 * The pair is taken out of the ordinary pairing (plan.ts) and planned as one in-place update that
 * sets the name: the record keeps its id and never leaves the zone.
 */
import { UserError } from '../../errors.js';
import type { DesiredDns, DesiredRecord } from './desired.js';
import {
  fqdn,
  normDesired,
  relativeName,
  upperType,
  valueOf,
  type LiveRecord,
  type NormRecord,
} from './normalize.js';

export interface RecordRename {
  /** index of the desired record in the file's list */
  index: number;
  want: NormRecord;
  /** the live record as it is (its old name) */
  live: LiveRecord;
  /** the old name, relative to the zone, as the plan shows it */
  from: string;
}

export interface RenameInput {
  zone: string;
  desired: DesiredDns;
  live: LiveRecord[];
  /** the file's records by upper-case type and full name (plan.ts's index) */
  byType: Map<string, Map<string, number>>;
  locate?: (path: string) => string | undefined;
  warn?: (message: string) => void;
}

export interface Renames {
  pairs: RecordRename[];
  /** the desired records that are planned by their pair (indexes in the file's list) */
  taken: Set<number>;
  /** the live records without those of the pairs */
  rest: LiveRecord[];
  /** the live records as they are after the renames (the pairs' records under their new names) */
  after: LiveRecord[];
}

/** The renames of one zone; `undefined` when no record of the file has `renamed_from` (the usual case). */
export function findRenames({ zone, desired, live, byType, locate, warn }: RenameInput): Renames | undefined {
  let pairs: RecordRename[] | undefined;
  const claimed = new Map<string, number>();
  desired.records.forEach((r: DesiredRecord, index) => {
    const oldName = r.renamed_from;
    if (oldName === undefined) return;
    pairs ??= [];
    const want = normDesired(r, zone);
    const value = valueOf(want);
    const type = upperType(r.type);
    const from = fqdn(oldName, zone);
    const at = locate?.(r.path);
    const where = `${at ? `${at}: ` : ''}record ${relativeName(want.name, zone)} ${type} ${value}`;
    const underOld = live.filter((l) => l.type === type && l.name === from);
    // the one record of the old name, whatever its value, only when the file keeps nothing there:
    // a record the file keeps at the old name is that record's, not the renamed one's
    const sole = underOld.length === 1 && !byType.get(type)?.has(from) ? underOld[0] : undefined;
    const old = underOld.find((l) => l.value === value) ?? sole;
    const current = live.find((l) => l.type === type && l.name === want.name && l.value === value);
    if (old && current) {
      throw new UserError(
        `${where}: renamed_from "${oldName}" (id ${old.id}) and the new name (id ${current.id}) both exist live: ` +
          'delete one of them, or remove renamed_from and let the file manage the new one',
      );
    }
    if (!old) {
      warn?.(
        `${where}: renamed_from "${oldName}" matches no live ${type} record` +
          (underOld.length > 1 ? ` of that value (the old name holds ${underOld.length})` : '') +
          ' (already renamed?); it is planned by its new name',
      );
      return;
    }
    const other = claimed.get(old.id);
    if (other !== undefined) {
      throw new UserError(
        `${where}: renamed_from "${oldName}" takes over live record ${old.id}, which ${desired.records[other]!.path} ` +
          'takes over too: give each record the value of the live record it renames',
      );
    }
    claimed.set(old.id, index);
    pairs.push({ index, want, live: old, from: relativeName(from, zone) });
  });
  if (!pairs) return undefined;
  const renamed = new Map(pairs.map((p) => [p.live.id, p]));
  const rest = live.filter((l) => !renamed.has(l.id));
  const after = live.map((l) => {
    const p = renamed.get(l.id);
    return p ? { ...l, name: p.want.name } : l;
  });
  return { pairs, taken: new Set(pairs.map((p) => p.index)), rest, after };
}
