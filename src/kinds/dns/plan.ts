/**
 * Pure DNS planning: pair desired and live records per (name, type) as docs/reference/design.md section 2 says,
 * then emit create / update / delete drafts with the dependencies that keep a zone resolvable.
 *
 * Pairing within one (name, type): exact value matches first; the remaining desired and live
 * records, each sorted by value (live ties by id), pair in order as in-place updates; only the
 * surplus is created (desired) or deleted (live, when purge is on). A changed value is therefore
 * one PATCH, never a delete plus a create.
 */
import type { DesiredDns, DesiredRecord } from './desired.js';
import type { StepDraft } from '../../core/runtime.js';
import { addDependencies } from './dependencies.js';
import { UserError } from '../../errors.js';
import { isIgnored } from './ignore.js';
import { liveConflicts } from './live-conflicts.js';
import { planLimitProblems } from './plan-limits.js';
import {
  type LiveRecord,
  type NormRecord,
  fqdn,
  contentMatches,
  normDesired,
  relativeName,
  upperType,
  valueOf,
} from './normalize.js';
import { MANAGED_FIELDS, recordBody } from '../../rules/dns/index.js';
import { beforeForm, isEmptyLive, quickSame, sameValue } from './field-forms.js';
import { findRenames, type RecordRename } from './renames.js';

/** What apply needs for one draft. */
export type DnsStepData =
  | { op: 'post'; record: Record<string, unknown> }
  | { op: 'patch'; id: string; fields: Record<string, unknown> }
  | { op: 'delete'; id: string };

/** A record's fields by name (the shared fields are looked up by the model's names). */
const fieldsOf = (r: NormRecord | LiveRecord | DesiredRecord) => r as unknown as Record<string, unknown>;

const byValue = <T extends { value: string }>(a: T, b: T) =>
  a.value < b.value ? -1 : a.value > b.value ? 1 : 0;

/**
 * The live record restricted to the fields the desired record manages (the step's `before`); for
 * a delete (`want` undefined), every field the live record has that says something.
 */
function managedView(live: LiveRecord, want: NormRecord | undefined): NormRecord {
  const v: NormRecord = { name: live.name, type: live.type, ttl: live.ttl, proxied: live.proxied };
  if (live.data) v.data = live.data;
  else v.content = live.content;
  if (want === undefined ? live.priority !== undefined : want.priority !== undefined) {
    v.priority = live.priority;
  }
  const have = fieldsOf(live);
  const view = fieldsOf(v);
  for (const field of MANAGED_FIELDS) {
    const value = have[field.name];
    if (want === undefined) {
      if (value !== undefined && !isEmptyLive(field, value)) view[field.name] = value;
    } else {
      const wanted = fieldsOf(want)[field.name];
      if (wanted !== undefined) view[field.name] = beforeForm(field, value, wanted);
    }
  }
  return v;
}

/**
 * The PATCH fields that would make `have` what `want` says, or undefined when nothing differs.
 * Plain comparisons (no serialisation): this runs once per record of the zone on every plan.
 */
function changedFields(
  want: NormRecord,
  wantValue: string,
  have: LiveRecord,
): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  const set = (k: string, v: unknown) => ((out ??= {})[k] = v);
  if (wantValue !== have.value) {
    if (want.data) set('data', want.data);
    else set('content', want.content);
    set('type', want.type);
  }
  if (want.ttl !== have.ttl) set('ttl', want.ttl);
  if (want.proxied !== have.proxied) set('proxied', want.proxied);
  if (want.priority !== undefined && want.priority !== have.priority) set('priority', want.priority);
  // the shared fields (the record model's), each only when the file sets it
  const wanted = fieldsOf(want);
  const live = fieldsOf(have);
  for (const field of MANAGED_FIELDS) {
    const value = wanted[field.name];
    if (value !== undefined && !sameValue(field, value, live[field.name])) set(field.name, value);
  }
  return out;
}

/** The record as a reviewer reads it: name, type and the whole value (renderers wrap, never cut). */
function addr(r: NormRecord, zone: string, value: string): string {
  return `${relativeName(r.name, zone)} ${r.type} ${value}`;
}

function createKey(r: NormRecord, value: string, n: number): string {
  return `create:${r.name}/${r.type}/${value}${n > 0 ? '#' + n : ''}`;
}

/**
 * Pairing within one (name, type): exact value matches first, then the rest in value order (live
 * ties by id) as in-place updates; what is left over on either side is created or deleted.
 */
function pairUp(want: NormRecord[], live: LiveRecord[]) {
  const pairs: [NormRecord, LiveRecord][] = [];
  const liveLeft = [...live].sort((a, b) => byValue(a, b) || (a.id < b.id ? -1 : 1));
  const wantLeft: NormRecord[] = [];
  for (const w of want) {
    const v = valueOf(w);
    const i = liveLeft.findIndex((l) => l.value === v);
    if (i >= 0) pairs.push([w, liveLeft.splice(i, 1)[0]]);
    else wantLeft.push(w);
  }
  const vs = new Map(wantLeft.map((w) => [w, valueOf(w)]));
  wantLeft.sort((a, b) => (vs.get(a)! < vs.get(b)! ? -1 : vs.get(a)! > vs.get(b)! ? 1 : 0));
  while (wantLeft.length && liveLeft.length) pairs.push([wantLeft.shift()!, liveLeft.shift()!]);
  return { pairs, wantLeft, liveLeft };
}

export interface DnsPlanInput {
  zone: string;
  desired: DesiredDns;
  /** live records, service-managed ones already removed */
  live: LiveRecord[];
  /** the dns entry's dotted path (`zones[3].dns`) and its locator, for plan-time refusals */
  path?: string;
  locate?: (path: string) => string | undefined;
  /** the live zone object (its plan and creation time decide the plan limits), when read */
  zoneInfo?: Record<string, unknown>;
  /** the plan's warnings (a `renamed_from` that matches nothing live) */
  warn?: (message: string) => void;
  /** live records of the zone left out of `live` (another owner's: ./owners.ts), for the quota */
  otherRecords?: number;
}

/**
 * The desired side of a zone, indexed by (type, name). Records are referred to by their index in
 * the file's list and normalised only when a plan needs their normalised form: a plan with nothing
 * to change compares the file's own values (see matchesLive) and allocates nothing per record.
 */
interface Prepared {
  records: DesiredRecord[];
  /** upper-case type -> normalised name -> index of the first record of that (type, name) */
  byType: Map<string, Map<string, number>>;
  /** the index of the next record of the same (type, name), or -1 */
  next: Int32Array;
  /** the first record of each (type, name), in file order */
  heads: number[];
  /** normalised records, by index, made when first needed */
  norm: Map<number, NormRecord>;
}

/**
 * One Prepared per (desired value, zone), reused by every plan of the run (the plan, the re-plan of
 * a saved plan, the read-back), and built while the zone's records are still on the wire (see
 * read.ts). Planning reads it and fills its cache of normalised records; nothing else changes it.
 */
const preparedCache = new WeakMap<DesiredDns, Map<string, Prepared>>();

export function prepareDesired(desired: DesiredDns, zone: string): Prepared {
  let perZone = preparedCache.get(desired);
  if (!perZone) preparedCache.set(desired, (perZone = new Map()));
  const cached = perZone.get(zone);
  if (cached) return cached;
  const records = desired.records;
  const byType = new Map<string, Map<string, number>>();
  const next = new Int32Array(records.length).fill(-1);
  const tail = new Int32Array(records.length); // the last record of each chain, on its head
  const heads: number[] = [];
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    // the same keys as normDesired gives (type upper case, fqdn name)
    const type = upperType(r.type);
    const name = fqdn(r.name, zone);
    let names = byType.get(type);
    if (!names) byType.set(type, (names = new Map()));
    const head = names.get(name);
    if (head === undefined) {
      names.set(name, i);
      heads.push(i);
      tail[i] = i;
    } else {
      next[tail[head]!] = i;
      tail[head] = i;
    }
  }
  const prepared: Prepared = { records, byType, next, heads, norm: new Map() };
  perZone.set(zone, prepared);
  return prepared;
}

/**
 * Whether a desired record certainly equals its live counterpart of the same (type, name), checked
 * on the file's values as they are. `false` only means "look closer": the record is then normalised
 * and changedFields decides, so this may be conservative but never says equal when it is not.
 */
function matchesLive(r: DesiredRecord, l: LiveRecord): boolean {
  if (r.data !== undefined) return false;
  const proxied = r.proxied === true;
  if (proxied !== l.proxied) return false;
  if ((proxied || r.ttl === undefined ? 1 : r.ttl) !== l.ttl) return false;
  if (r.priority !== undefined && r.priority !== l.priority) return false;
  const given = fieldsOf(r);
  const live = fieldsOf(l);
  for (let f = 0; f < MANAGED_FIELDS.length; f++) {
    const field = MANAGED_FIELDS[f]!;
    const value = given[field.name];
    if (value !== undefined && !quickSame(field, value, live[field.name])) return false;
  }
  return contentMatches(l.type, r.content, l.value);
}

export function planDns({
  zone,
  desired,
  live: asRead,
  path,
  locate,
  warn,
  zoneInfo,
  otherRecords = 0,
}: DnsPlanInput): StepDraft[] {
  const prepared = prepareDesired(desired, zone);
  // renamed records are paired first (./renames.ts); the rest of the zone is paired as always, and
  // the checks below see the zone as it will be, the renamed records under their new names
  const renames = findRenames({ zone, desired, live: asRead, byType: prepared.byType, locate, warn });
  const zonePlan = new ZonePlan(zone, desired, prepared, renames?.rest ?? asRead, renames?.taken);
  const drafts = zonePlan.drafts();
  for (const pair of renames?.pairs ?? []) zonePlan.rename(pair);
  const live = renames?.after ?? asRead;
  const purge = desired.purge !== false;
  // only a live record that stays unnamed can conflict: with purge on and nothing ignored, every
  // live record is paired or deleted, and the walk over the zone's records finds nothing
  const staysUnnamed = !purge || (desired.ignore ?? []).length > 0;
  const conflicts = staysUnnamed
    ? liveConflicts({ zone, index: prepared, live, drafts, purge, path, locate })
    : [];
  const overLimits = planLimitProblems({
    zone,
    zoneInfo,
    drafts,
    liveCount: live.length + otherRecords,
    locate,
  });
  const problems = [...conflicts, ...overLimits];
  if (problems.length > 0) throw new UserError(problems.join('\n'));
  addDependencies(drafts, live);
  return drafts;
}

/** One plan of one zone: live records attached to the file's (type, name) pairs, then drafts. */
class ZonePlan {
  private readonly out: StepDraft[] = [];
  private readonly createKeys = new Map<string, number>();
  private readonly sources = new Map<NormRecord, string>();
  private readonly purge: boolean;
  private readonly ignore: NonNullable<DesiredDns['ignore']>;
  /** the live records no desired record pairs with (what purge would delete, ignore aside) */
  readonly unpaired: LiveRecord[] = [];

  constructor(
    private readonly zone: string,
    desired: DesiredDns,
    private readonly p: Prepared,
    private readonly live: LiveRecord[],
    /** desired records planned by their rename (indexes), left out of the pairing */
    private readonly taken?: Set<number>,
  ) {
    this.purge = desired.purge !== false;
    this.ignore = desired.ignore ?? [];
  }

  drafts(): StepDraft[] {
    const { p, live, zone, ignore } = this;
    // the first live record of each (type, name) the file names, by the index of its first record
    // (a typed array: no object per record), and any further ones
    const firstLive = new Int32Array(p.records.length).fill(-1);
    const moreLive = new Map<number, LiveRecord[]>();
    // live records of a (type, name) the file does not name, grouped in the API's order (a type
    // has no space, so `type name` keys one pair)
    const liveOnly = new Map<string, LiveRecord[]>();
    for (let li = 0; li < live.length; li++) {
      const l = live[li]!;
      const head = p.byType.get(l.type)?.get(l.name);
      if (head !== undefined) {
        if (firstLive[head] === -1) firstLive[head] = li;
        else pushTo(moreLive, head, l);
        continue;
      }
      // ignored live records are left alone unless the file names their (name, type)
      if (ignore.length > 0 && isIgnored(l, zone, ignore)) continue;
      pushTo(liveOnly, `${l.type} ${l.name}`, l);
    }
    // groups in the file's order, then the API's: deterministic where it matters (create keys)
    for (let h = 0; h < p.heads.length; h++) {
      const i = p.heads[h]!;
      const li = firstLive[i]!;
      const more = moreLive.size > 0 ? moreLive.get(i) : undefined;
      if (p.next[i] === -1 && li >= 0 && !more && !this.taken?.has(i)) {
        // the common case: one record a side
        const l = live[li]!;
        if (!matchesLive(p.records[i]!, l)) this.update(this.norm(i), l);
        continue;
      }
      const wants: NormRecord[] = [];
      for (let j = i; j !== -1; j = p.next[j]!) if (!this.taken?.has(j)) wants.push(this.norm(j));
      this.group(wants, li < 0 ? [] : more ? [live[li]!, ...more] : [live[li]!]);
    }
    for (const lives of liveOnly.values()) this.group([], lives);
    return this.out;
  }

  private norm(i: number): NormRecord {
    let r = this.p.norm.get(i);
    if (!r) this.p.norm.set(i, (r = normDesired(this.p.records[i]!, this.zone)));
    // the record's place in the file, so a plan masks its `${env:}` values only in its own step
    const path = (this.p.records[i] as { path?: unknown }).path;
    if (typeof path === 'string') this.sources.set(r, path);
    return r;
  }

  private update(w: NormRecord, l: LiveRecord): void {
    const fields = changedFields(w, valueOf(w), l);
    if (!fields) return;
    this.out.push({
      key: l.id,
      action: 'update',
      address: addr(w, this.zone, l.value),
      before: managedView(l, w),
      after: w,
      liveId: l.id,
      source: this.sources.get(w),
      data: { op: 'patch', id: l.id, fields } satisfies DnsStepData,
    });
  }

  /**
   * A renamed record (./renames.ts): one PATCH of the live record that sets its new name and
   * whatever else differs, so it keeps its id. Shown as `rename old -> new TYPE VALUE`.
   */
  rename({ index, want: w, live: l, from }: RecordRename): void {
    const value = valueOf(w);
    const to = relativeName(w.name, this.zone);
    this.out.push({
      key: l.id,
      action: 'update',
      address: `${from} -> ${addr(w, this.zone, value)}`,
      rename: { from, to },
      // the live record under its old name: the name shows as a changed field
      before: managedView(l, w),
      after: w,
      liveId: l.id,
      source: this.p.records[index]!.path,
      data: {
        op: 'patch',
        id: l.id,
        fields: { ...changedFields(w, value, l), name: w.name },
      } satisfies DnsStepData,
    });
  }

  /** One (type, name) with any number of records a side. */
  private group(want: NormRecord[], live: LiveRecord[]): void {
    const { pairs, wantLeft, liveLeft } = pairUp(want, live);
    for (const [w, l] of pairs) this.update(w, l);
    this.unpaired.push(...liveLeft);
    for (const w of wantLeft) {
      const value = valueOf(w);
      const base = createKey(w, value, 0);
      const n = this.createKeys.get(base) ?? 0;
      this.createKeys.set(base, n + 1);
      this.out.push({
        key: createKey(w, value, n),
        action: 'create',
        address: addr(w, this.zone, value),
        before: null,
        after: w,
        source: this.sources.get(w),
        data: { op: 'post', record: recordBody(w) } satisfies DnsStepData,
      });
    }
    if (!this.purge) return;
    for (const l of liveLeft) {
      if (this.ignore.length > 0 && isIgnored(l, this.zone, this.ignore)) continue;
      this.out.push({
        key: l.id,
        action: 'delete',
        address: addr(l, this.zone, l.value),
        before: managedView(l, undefined),
        after: null,
        liveId: l.id,
        data: { op: 'delete', id: l.id } satisfies DnsStepData,
      });
    }
  }
}

/**
 * The live records the file's records do not pair with, as planDns pairs them (renames included):
 * `export --unmanaged-by` writes these. A record an `ignore` entry matches is not paired either.
 */
export function unpairedLiveRecords(zone: string, desired: DesiredDns, live: LiveRecord[]): LiveRecord[] {
  const prepared = prepareDesired(desired, zone);
  const renames = findRenames({ zone, desired, live, byType: prepared.byType });
  const whole = { ...desired, purge: false, ignore: [] };
  const zonePlan = new ZonePlan(zone, whole, prepared, renames?.rest ?? live, renames?.taken);
  zonePlan.drafts();
  return zonePlan.unpaired;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
