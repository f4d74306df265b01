/**
 * The export's check of a zone's DNS records, with the verdict of `zoneplan validate` and a
 * fraction of its cost. The full check (the composed JSON Schema through ajv, then the kind's
 * semantic rules) costs 10-20 microseconds a record: for a zone of 10,000 records, several times
 * the time it takes to read them. Exported records are plain: A, AAAA, CNAME, TXT, MX, NS, PTR with
 * lower-case names and canonical content, built by the exporter from live records. For those, a
 * record is certified by direct tests that imply both the schema and the per-record rules
 * (`certify`, ./certify.ts); anything else (another type, `data`, an unusual name or address) is decided by the
 * full check itself, run on those records only. The rules across records (duplicates, a CNAME
 * beside others, proxied CNAME chains) then run once over every record, with the shared rule
 * functions, as src/kinds/dns/validate.ts runs them.
 *
 * The result is the full check's problems, same paths and messages (order aside); nothing here
 * may accept what `validate` refuses. test/export/dns-check.test.ts compares the two on generated
 * zones, valid and invalid, field by field. Where this cannot be sure, it returns undefined and
 * the caller runs the full check.
 */
import { fqdn } from './normalize.js';
import { clash, conflictMessage, identityOf, messageOf } from './validate.js';
import { certify, fullNameOf, keyOf, zoneOf, type Checked, type Zone } from './certify.js';
import {
  checkCnameChain,
  checkRecord,
  conflictWith,
  indexByName,
  type ZoneRecord,
} from '../../rules/dns/index.js';
import type { ExportProblem } from '../../core/export/types.js';
import { isObject, type Entry } from '../../rules/shared/values.js';

type FullCheck = (value: unknown) => ExportProblem[];

/** A record the full check accepted, normalised exactly as validate.ts's checkOne does. */
function normalised(e: Entry, zone: Zone, index: number): Checked | undefined {
  const ttl = e.ttl === 'auto' ? 1 : e.ttl;
  const result = checkRecord({ ...e, ttl }, { name: zone.raw, plan: 'enterprise' });
  if ('violations' in result) return undefined;
  const r = result.record;
  const identity = identityOf(r);
  // valid names are in the zone; another gets a key no labels can have
  return { index, key: keyOf(r.name, zone), type: r.type, target: r.content, proxied: r.proxied, identity };
}

// ---- the rules across records, as validate.ts's checkZoneWide applies them ----

/** A checked record as the shared rules take it, with `content` the value they compare. */
const asRecord = (c: Checked, name: string, content: string): ZoneRecord => ({
  name,
  type: c.type,
  content,
  proxied: c.proxied,
});

/**
 * Duplicates and CNAME conflicts (a name's earlier records, compared with the shared
 * `conflictWith`), then, when every record passed its own rules (`partial` false), proxied CNAME
 * chains with the shared `checkCnameChain`, as validate.ts's checkZoneWide applies them.
 */
/**
 * `refused`: the names of the records that failed their own rules (undefined: one has no usable
 * name), as validate has them; a proxied CNAME's chain through one of those is not judged.
 */
export function checkAcross(
  checked: Checked[],
  zone: Zone,
  partial: boolean,
  refused: Set<string> | undefined = new Set(),
): ExportProblem[] {
  const out: ExportProblem[] = [];
  for (const group of groupsOfOneName(checked)) {
    // within a name, `key` stands for the name (conflictWith compares names for equality only)
    const earlier: ZoneRecord[] = [asRecord(group[0], group[0].key, group[0].identity)];
    for (let i = 1; i < group.length; i++) {
      const c = group[i];
      const violation = conflictWith(asRecord(c, c.key, c.identity), earlier);
      if (violation) {
        const other = group.slice(0, i).find((o) => clash(o, c, violation));
        out.push({
          path: `records[${c.index}]`,
          message: conflictMessage(violation, other, fullNameOf(c.key, zone)),
        });
      }
      earlier.push(asRecord(c, c.key, c.identity));
    }
  }
  if ((partial && !refused) || !checked.some((c) => c.type === 'CNAME' && c.proxied)) return out;
  const index = indexByName(checked.map((c) => asRecord(c, fullNameOf(c.key, zone), c.target)));
  for (const c of checked) {
    if (c.type !== 'CNAME' || !c.proxied) continue;
    let touchesRefused = false;
    const lookup = (name: string) => {
      if (partial && refused?.has(name)) touchesRefused = true;
      return index(name);
    };
    const v = checkCnameChain(asRecord(c, fullNameOf(c.key, zone), c.target), zone.raw, lookup);
    if (v && !touchesRefused) out.push({ path: `records[${c.index}].content`, message: messageOf(v) });
  }
  return out;
}

/**
 * The records of each name that has more than one, in order. An export lists records sorted by
 * name, so a name's records are side by side and one comparison per record finds them; in any
 * other order a map of names does.
 */
function groupsOfOneName(checked: Checked[]): Checked[][] {
  const groups: Checked[][] = [];
  let sorted = true;
  for (let i = 1; i < checked.length && sorted; i++) sorted = checked[i - 1].key <= checked[i].key;
  if (sorted) {
    for (let start = 0, i = 1; i <= checked.length; i++) {
      if (i < checked.length && checked[i].key === checked[start].key) continue;
      if (i - start > 1) groups.push(checked.slice(start, i));
      start = i;
    }
    return groups;
  }
  const byKey = new Map<string, Checked[]>();
  for (const c of checked) {
    const same = byKey.get(c.key);
    if (same) same.push(c);
    else byKey.set(c.key, [c]);
  }
  for (const same of byKey.values()) if (same.length > 1) groups.push(same);
  return groups;
}

// ---- the whole check ----

/** Records failing the full check on their own are looked at one by one up to this many. */
const ALONE_LIMIT = 64;

const RECORD_PATH = /^records\[(\d+)\]/;

/**
 * The problems the full check (`full`, as ExportContext.check) finds in `value`, the `dns` value of
 * the zone `owner` (its entry without `dns`, which must have no problem of its own: the caller
 * makes sure); undefined when the value is not `{ records: [...] }` or the answer is not certain:
 * the caller runs the full check.
 */
export function checkDnsRecords(owner: Entry, value: unknown, full: FullCheck): ExportProblem[] | undefined {
  if (!isObject(value) || !Array.isArray(value.records) || Object.keys(value).length !== 1) return undefined;
  if (typeof owner.name !== 'string') return undefined;
  const zone = zoneOf(owner.name);
  const entries = value.records as unknown[];
  const checked: (Checked | undefined)[] = new Array(entries.length);
  const unsure: number[] = [];
  for (let index = 0; index < entries.length; index++) {
    const e = entries[index];
    const c = isObject(e) ? certify(e, zone, index) : undefined;
    if (c) checked[index] = c;
    else unsure.push(index);
  }
  const problems: ExportProblem[] = [];
  if (unsure.length > 0) {
    // the per-record verdicts of the others from the full check; a problem there may also come
    // from the rules across records, judged on this subset only, so such records are checked alone
    const failing = new Set<number>();
    for (const p of full({ records: unsure.map((i) => entries[i]) })) {
      const m = RECORD_PATH.exec(p.path);
      if (!m) return undefined;
      failing.add(Number(m[1]));
    }
    if (failing.size > ALONE_LIMIT) return undefined;
    for (let k = 0; k < unsure.length; k++) {
      const index = unsure[k];
      const e = entries[index];
      if (failing.has(k)) {
        // alone, a proxied CNAME can still fail the chain rule (its target is missing): undecided
        if (isObject(e) && e.proxied === true && String(e.type).trim().toUpperCase() === 'CNAME')
          return undefined;
        const alone = full({ records: [e] });
        if (alone.length > 0) {
          for (const p of alone) {
            if (!p.path.startsWith('records[0]')) return undefined;
            problems.push({
              path: `records[${index}]${p.path.slice('records[0]'.length)}`,
              message: p.message,
            });
          }
          continue;
        }
      }
      const c = isObject(e) ? normalised(e, zone, index) : undefined;
      if (!c) return undefined;
      checked[index] = c;
    }
  }
  const valid = unsure.length === 0 ? (checked as Checked[]) : checked.filter((c) => c !== undefined);
  let refused: Set<string> | undefined = new Set();
  for (let index = 0; index < entries.length && refused; index++) {
    if (checked[index]) continue;
    const name = (entries[index] as Entry | undefined)?.name;
    if (typeof name === 'string') refused.add(fqdn(name, zone.raw));
    else refused = undefined;
  }
  problems.push(...checkAcross(valid, zone, valid.length < entries.length, refused));
  return problems;
}
