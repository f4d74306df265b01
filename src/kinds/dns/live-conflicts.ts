/**
 * Conflicts with live records that stay: a record the file does not name is kept when `purge:
 * false` (or when it matches `dns.ignore`), and a CNAME must be alone at its name. The API would
 * refuse such a create halfway through apply (81053 a CNAME beside other records, 81054 a record
 * beside a CNAME); this finds it at plan time, from the live state already read, with the same rule
 * the local API enforces (src/rules/dns). Conflicts among the file's own records are validate's.
 */
import type { StepDraft } from '../../core/runtime.js';
import { conflictWith } from '../../rules/dns/index.js';
import type { LiveRecord } from './normalize.js';
import { relativeName } from './normalize.js';

/** What the check needs of the prepared desired side (see plan.ts). */
interface DesiredIndex {
  /** upper-case type -> full name -> index of the first record of that (type, name) */
  byType: Map<string, Map<string, number>>;
}

export interface LiveConflictInput {
  zone: string;
  index: DesiredIndex;
  live: LiveRecord[];
  drafts: StepDraft[];
  purge: boolean;
  /** `zones[3].dns`: record i is `${path}.records[i]` */
  path?: string;
  locate?: (path: string) => string | undefined;
}

/** One line per conflict, in the order of the live records; empty when there is none. */
export function liveConflicts(input: LiveConflictInput): string[] {
  const { zone, index, live, drafts } = input;
  const deleted = new Set<string>();
  for (const d of drafts) if (d.action === 'delete' && d.liveId) deleted.add(d.liveId);
  const problems: string[] = [];
  for (const l of live) {
    // the live records the file names are paired, updated or deleted by the plan itself
    if (deleted.has(l.id) || index.byType.get(l.type)?.has(l.name)) continue;
    for (const [type, names] of index.byType) {
      const i = names.get(l.name);
      if (i === undefined) continue;
      const violation = conflictWith({ name: l.name, type, content: '' }, [
        { name: l.name, type: l.type, content: l.content ?? '' },
      ]);
      if (!violation) continue;
      const recordPath = `${input.path ?? 'dns'}.records[${i}]`;
      const at = input.locate?.(recordPath);
      const name = relativeName(l.name, zone);
      const kept = input.purge
        ? 'it matches dns.ignore'
        : 'purge: false keeps records the file does not name';
      const rule =
        type === 'CNAME' ? 'a CNAME must be alone at its name' : 'no other record may sit beside a CNAME';
      problems.push(
        `${at ? `${at}: ` : ''}zone ${zone}: ${recordPath}: ${name} ${type} cannot be created: the live ` +
          `${l.type} record ${name} ${l.value.length > 60 ? l.value.slice(0, 57) + '...' : l.value} stays ` +
          `(${kept}), and ${rule} (the API refuses it with ${violation.code}); delete that record, ` +
          `add it to the file${input.purge ? '' : ' or set purge: true'}, or rename this one`,
      );
    }
  }
  return problems;
}
