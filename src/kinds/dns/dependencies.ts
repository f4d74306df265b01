/**
 * The order of a zone's DNS writes (docs/reference/design.md section 4), as dependencies between the drafts of one plan.
 */
import type { StepDraft } from '../../core/runtime.js';
import { ADDRESS_TYPES, type LiveRecord, type NormRecord } from './normalize.js';

const recOf = (d: StepDraft) => (d.after ?? d.before) as NormRecord;

/**
 * Ordering inside a zone (docs/reference/design.md section 4): a CNAME is created after its target and deleted before it; a
 * record that conflicts with a CNAME at the same name is deleted first; address records are created
 * before address records are deleted when nothing else would keep the zone resolvable.
 */
export function addDependencies(drafts: StepDraft[], live: LiveRecord[]): void {
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
