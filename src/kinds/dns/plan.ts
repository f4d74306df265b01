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
  if (want === undefined) {
    if (v.comment === null) delete v.comment;
    if (v.tags && v.tags.length === 0) delete v.tags;
  }
  return v;
}

/** Request body fields for a desired record (what POST and PATCH send). */
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

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Fields of `want` that differ from `have` (both normalised); empty when nothing changes. */
function changedFields(want: NormRecord, have: NormRecord): Record<string, unknown> {
  const b = body(want);
  const h = body(have);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(b)) if (!sameJson(v, h[k])) out[k] = v;
  if ('content' in out || 'data' in out) Object.assign(out, { type: want.type });
  return out;
}

function addr(r: NormRecord, zone: string, value: string): string {
  const shown = value.length > 60 ? value.slice(0, 57) + '...' : value;
  return `${relativeName(r.name, zone)} ${r.type} ${shown}`;
}

function createKey(r: NormRecord, n: number): string {
  return `create:${r.name}/${r.type}/${valueOf(r)}${n > 0 ? '#' + n : ''}`;
}

export interface DnsPlanInput {
  zone: string;
  desired: DesiredDns;
  /** live records, service-managed ones already removed */
  live: LiveRecord[];
}

export function planDns({ zone, desired, live }: DnsPlanInput): StepDraft[] {
  const purge = desired.purge !== false;
  const ignore = desired.ignore ?? [];
  const want = desired.records.map((r) => normDesired(r, zone));
  const groups = new Map<string, { want: NormRecord[]; live: LiveRecord[] }>();
  const group = (name: string, type: string) => {
    const k = `${name}\u0000${type}`;
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { want: [], live: [] }));
    return g;
  };
  for (const w of want) group(w.name, w.type).want.push(w);
  for (const l of live) {
    // ignored live records are left alone unless the file names their (name, type)
    if (isIgnored(l, zone, ignore) && !groups.has(`${l.name}\u0000${l.type}`)) continue;
    group(l.name, l.type).live.push(l);
  }

  const drafts: StepDraft[] = [];
  const createKeys = new Map<string, number>();
  const keys = [...groups.keys()].sort();
  for (const k of keys) {
    const g = groups.get(k)!;
    const liveLeft = [...g.live].sort((a, b) => byValue(a, b) || (a.id < b.id ? -1 : 1));
    const pairs: [NormRecord, LiveRecord][] = [];
    const wantLeft: NormRecord[] = [];
    for (const w of g.want) {
      const i = liveLeft.findIndex((l) => l.value === valueOf(w));
      if (i >= 0) pairs.push([w, liveLeft.splice(i, 1)[0]]);
      else wantLeft.push(w);
    }
    wantLeft.sort((a, b) => (valueOf(a) < valueOf(b) ? -1 : valueOf(a) > valueOf(b) ? 1 : 0));
    while (wantLeft.length && liveLeft.length) pairs.push([wantLeft.shift()!, liveLeft.shift()!]);

    for (const [w, l] of pairs) {
      const fields = changedFields(w, managedView(l, w));
      if (Object.keys(fields).length === 0) continue;
      drafts.push({
        key: l.id,
        action: 'update',
        address: addr(w, zone, valueOf(l)),
        before: managedView(l, w),
        after: w,
        liveId: l.id,
        data: { op: 'patch', id: l.id, fields } satisfies DnsStepData,
      });
    }
    for (const w of wantLeft) {
      const base = createKey(w, 0);
      const n = createKeys.get(base) ?? 0;
      createKeys.set(base, n + 1);
      drafts.push({
        key: createKey(w, n),
        action: 'create',
        address: addr(w, zone, valueOf(w)),
        before: null,
        after: w,
        data: { op: 'post', record: body(w) } satisfies DnsStepData,
      });
    }
    if (!purge) continue;
    for (const l of liveLeft) {
      if (isIgnored(l, zone, ignore)) continue;
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
  const dep = (d: StepDraft, on: StepDraft) => {
    if (d === on) return;
    const deps = (d.dependsOn ??= []);
    if (!deps.includes(on.key)) deps.push(on.key);
  };
  for (const c of creates) {
    const r = recOf(c);
    if (r.type === 'CNAME' && r.content) {
      for (const t of creates) if (recOf(t).name === r.content) dep(c, t);
    }
    // a CNAME cannot share its name with other records: clear the name first
    for (const d of deletes) {
      const x = recOf(d);
      if (x.name === r.name && (x.type === 'CNAME') !== (r.type === 'CNAME')) dep(c, d);
    }
  }
  for (const d of deletes) {
    const r = recOf(d);
    for (const c of deletes) {
      const x = recOf(c);
      if (x.type === 'CNAME' && x.content === r.name) dep(d, c);
    }
  }
  const deletedIds = new Set(deletes.map((d) => d.liveId));
  const keptAddress = live.some((l) => ADDRESS_TYPES.has(l.type) && !deletedIds.has(l.id));
  if (!keptAddress) {
    const addressCreates = creates.filter((c) => ADDRESS_TYPES.has(recOf(c).type));
    for (const d of deletes) if (ADDRESS_TYPES.has(recOf(d).type)) for (const c of addressCreates) dep(d, c);
  }
}
