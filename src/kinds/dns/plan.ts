/**
 * Pure DNS planning: pair desired and live records per (name, type) as DESIGN section 2 says,
 * then emit create / update / delete drafts with the dependencies that keep a zone resolvable.
 *
 * Pairing within one (name, type): exact value matches first; the remaining desired and live
 * records, each sorted by value (live ties by id), pair in order as in-place updates; only the
 * surplus is created (desired) or deleted (live, when purge is on). A changed value is therefore
 * one PATCH, never a delete plus a create.
 */
import type { DesiredDns } from '../../config/model.js';
import type { StepDraft } from '../../core/runtime.js';
import {
  ADDRESS_TYPES,
  type LiveRecord,
  type NormRecord,
  canonicalJson,
  normDesired,
  relativeName,
  valueOf,
} from './normalize.js';
import { isIgnored } from './ignore.js';

/** What apply needs for one draft. */
export type DnsStepData =
  | { op: 'post'; record: Record<string, unknown> }
  | { op: 'patch'; id: string; fields: Record<string, unknown> }
  | { op: 'delete'; id: string };

/** Fields compared on every record; the optional ones only when the desired record sets them. */
const OPTIONAL_FIELDS = ['priority', 'comment', 'tags', 'settings'] as const;

const byValue = <T extends { value: string }>(a: T, b: T) =>
  a.value < b.value ? -1 : a.value > b.value ? 1 : 0;

/** Live settings restricted to the keys the file sets (the API adds defaults for the others). */
function settingsView(live: LiveRecord, want: NormRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(want.settings ?? {})) out[k] = live.settings?.[k] ?? null;
  return out;
}

/** The live record restricted to the fields the desired record manages (the step's `before`). */
function managedView(live: LiveRecord, want: NormRecord | undefined): NormRecord {
  const v: NormRecord = { name: live.name, type: live.type, ttl: live.ttl, proxied: live.proxied };
  if (live.data) v.data = live.data;
  else v.content = live.content;
  for (const f of OPTIONAL_FIELDS) {
    if (want === undefined ? live[f] !== undefined : want[f] !== undefined) {
      (v as unknown as Record<string, unknown>)[f] = live[f];
    }
  }
  if (want?.settings) v.settings = settingsView(live, want);
  if (want === undefined) {
    if (v.comment === null) delete v.comment;
    if (v.tags && v.tags.length === 0) delete v.tags;
  }
  return v;
}

/** Request body fields for a desired record (what POST sends). */
function body(want: NormRecord): Record<string, unknown> {
  const b: Record<string, unknown> = {
    name: want.name,
    type: want.type,
    ttl: want.ttl,
    proxied: want.proxied,
  };
  if (want.data) b.data = want.data;
  else b.content = want.content;
  for (const f of OPTIONAL_FIELDS) if (want[f] !== undefined) b[f] = want[f];
  return b;
}

const sameList = (a: string[] | undefined, b: string[] | undefined) =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((x, i) => x === (b ?? [])[i]);

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
  if (want.comment !== undefined && want.comment !== have.comment) set('comment', want.comment);
  if (want.tags !== undefined && !sameList(want.tags, have.tags)) set('tags', want.tags);
  if (
    want.settings !== undefined &&
    canonicalJson(want.settings) !== canonicalJson(settingsView(have, want))
  ) {
    set('settings', want.settings);
  }
  return out;
}

function addr(r: NormRecord, zone: string, value: string): string {
  const shown = value.length > 60 ? value.slice(0, 57) + '...' : value;
  return `${relativeName(r.name, zone)} ${r.type} ${shown}`;
}

function createKey(r: NormRecord, value: string, n: number): string {
  return `create:${r.name}/${r.type}/${value}${n > 0 ? '#' + n : ''}`;
}

/**
 * One (name, type). The first record of each side is held inline and arrays are made only for a
 * second one: most groups hold one record a side, and a 10,000-record plan then allocates a third
 * of the objects (the plan's time is mostly allocation and GC).
 */
interface Group {
  w0?: NormRecord;
  wMore?: NormRecord[];
  l0?: LiveRecord;
  lMore?: LiveRecord[];
}

const all = <T>(first: T | undefined, more: T[] | undefined): T[] =>
  first === undefined ? [] : more ? [first, ...more] : [first];

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
}

/** The desired side of a zone, normalised and indexed by type, then name. */
interface Prepared {
  byType: Map<string, Map<string, Group>>;
  groups: Group[];
}

/**
 * One Prepared per (desired value, zone), reused by every plan of the run (the plan, the re-plan of
 * a saved plan, the read-back), and built while the zone's records are still on the wire (see
 * read.ts). Its groups get the live records attached during planDns and cleared before it returns,
 * so planDns stays pure from the outside.
 */
const preparedCache = new WeakMap<DesiredDns, Map<string, Prepared>>();

export function prepareDesired(desired: DesiredDns, zone: string): Prepared {
  let perZone = preparedCache.get(desired);
  if (!perZone) preparedCache.set(desired, (perZone = new Map()));
  const cached = perZone.get(zone);
  if (cached) return cached;
  const byType = new Map<string, Map<string, Group>>();
  const groups: Group[] = [];
  for (const r of desired.records) {
    const rec = normDesired(r, zone);
    let names = byType.get(rec.type);
    if (!names) byType.set(rec.type, (names = new Map()));
    let g = names.get(rec.name);
    if (!g) {
      names.set(rec.name, (g = {}));
      groups.push(g);
    }
    if (!g.w0) g.w0 = rec;
    else (g.wMore ??= []).push(rec);
  }
  const prepared = { byType, groups };
  perZone.set(zone, prepared);
  return prepared;
}

export function planDns({ zone, desired, live }: DnsPlanInput): StepDraft[] {
  const prepared = prepareDesired(desired, zone);
  try {
    return planPrepared(zone, desired, prepared, live);
  } finally {
    for (const g of prepared.groups) g.l0 = g.lMore = undefined;
  }
}

function planPrepared(
  zone: string,
  desired: DesiredDns,
  prepared: Prepared,
  live: LiveRecord[],
): StepDraft[] {
  const purge = desired.purge !== false;
  const ignore = desired.ignore ?? [];
  // live records of a (name, type) the file does not name, in the API's order
  const liveOnly = new Map<string, Map<string, Group>>();
  const extra: Group[] = [];
  for (const l of live) {
    let g = prepared.byType.get(l.type)?.get(l.name);
    if (!g) {
      // ignored live records are left alone unless the file names their (name, type)
      if (ignore.length > 0 && isIgnored(l, zone, ignore)) continue;
      let names = liveOnly.get(l.type);
      if (!names) liveOnly.set(l.type, (names = new Map()));
      g = names.get(l.name);
      if (!g) {
        names.set(l.name, (g = {}));
        extra.push(g);
      }
    }
    if (!g.l0) g.l0 = l;
    else (g.lMore ??= []).push(l);
  }
  const groups = extra.length > 0 ? [...prepared.groups, ...extra] : prepared.groups;

  const drafts: StepDraft[] = [];
  const createKeys = new Map<string, number>();
  const update = (w: NormRecord, l: LiveRecord) => {
    const fields = changedFields(w, valueOf(w), l);
    if (!fields) return;
    drafts.push({
      key: l.id,
      action: 'update',
      address: addr(w, zone, l.value),
      before: managedView(l, w),
      after: w,
      liveId: l.id,
      data: { op: 'patch', id: l.id, fields } satisfies DnsStepData,
    });
  };
  // groups are in the file's order, then the API's: deterministic where it matters (create keys)
  for (const g of groups) {
    if (g.w0 && g.l0 && !g.wMore && !g.lMore) {
      update(g.w0, g.l0); // the common case: one record a side
      continue;
    }
    const { pairs, wantLeft, liveLeft } = pairUp(all(g.w0, g.wMore), all(g.l0, g.lMore));
    for (const [w, l] of pairs) update(w, l);
    for (const w of wantLeft) {
      const value = valueOf(w);
      const base = createKey(w, value, 0);
      const n = createKeys.get(base) ?? 0;
      createKeys.set(base, n + 1);
      drafts.push({
        key: createKey(w, value, n),
        action: 'create',
        address: addr(w, zone, value),
        before: null,
        after: w,
        data: { op: 'post', record: body(w) } satisfies DnsStepData,
      });
    }
    if (!purge) continue;
    for (const l of liveLeft) {
      if (ignore.length > 0 && isIgnored(l, zone, ignore)) continue;
      drafts.push({
        key: l.id,
        action: 'delete',
        address: addr(l, zone, l.value),
        before: managedView(l, undefined),
        after: null,
        liveId: l.id,
        data: { op: 'delete', id: l.id } satisfies DnsStepData,
      });
    }
  }
  addDependencies(drafts, live);
  return drafts;
}

const recOf = (d: StepDraft) => (d.after ?? d.before) as NormRecord;

/**
 * Ordering inside a zone (DESIGN 4): a CNAME is created after its target and deleted before it; a
 * record that conflicts with a CNAME at the same name is deleted first; address records are created
 * before address records are deleted when nothing else would keep the zone resolvable.
 */
function addDependencies(drafts: StepDraft[], live: LiveRecord[]): void {
  const creates = drafts.filter((d) => d.action === 'create');
  const deletes = drafts.filter((d) => d.action === 'delete');
  if (creates.length === 0 && deletes.length === 0) return;
  const dep = (d: StepDraft, on: StepDraft) => {
    if (d === on) return;
    const deps = (d.dependsOn ??= []);
    if (!deps.includes(on.key)) deps.push(on.key);
  };
  // indexes by name, so a zone of 100,000 changes is not a quadratic walk
  const index = (list: StepDraft[], keyOf: (r: NormRecord) => string | undefined) => {
    const m = new Map<string, StepDraft[]>();
    for (const d of list) {
      const k = keyOf(recOf(d));
      if (k === undefined) continue;
      const arr = m.get(k);
      if (arr) arr.push(d);
      else m.set(k, [d]);
    }
    return m;
  };
  const createsByName = index(creates, (r) => r.name);
  const deletesByName = index(deletes, (r) => r.name);
  const cnameDeletesByTarget = index(deletes, (r) => (r.type === 'CNAME' ? r.content : undefined));
  for (const c of creates) {
    const r = recOf(c);
    if (r.type === 'CNAME' && r.content) for (const t of createsByName.get(r.content) ?? []) dep(c, t);
    // a CNAME cannot share its name with other records: clear the name first
    for (const d of deletesByName.get(r.name) ?? []) {
      if ((recOf(d).type === 'CNAME') !== (r.type === 'CNAME')) dep(c, d);
    }
  }
  for (const d of deletes) for (const c of cnameDeletesByTarget.get(recOf(d).name) ?? []) dep(d, c);
  const deletedIds = new Set(deletes.map((d) => d.liveId));
  const keptAddress = live.some((l) => ADDRESS_TYPES.has(l.type) && !deletedIds.has(l.id));
  if (!keptAddress) {
    // one address record created first is enough for the zone never to drop to zero
    const first = creates.find((c) => ADDRESS_TYPES.has(recOf(c).type));
    if (first) for (const d of deletes) if (ADDRESS_TYPES.has(recOf(d).type)) dep(d, first);
  }
}
