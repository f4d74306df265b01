/**
 * How the `dns` values of one zone declared in several files merge (docs/file-format.md, "Many
 * files"): their records are united. A record is identified as the planner pairs it (./plan.ts):
 * by name and type, and within them by value, so an A record set spread over two files is one set,
 * and a record one file spells `www` and another `www.example.com.` is one record. `purge` and
 * `ignore` are settings of one file.
 */
import type { KindMerge } from '../../core/kind.js';
import type { DesiredRecord } from './desired.js';
import { normDesired, valueOf } from './normalize.js';

export const dnsMerge: KindMerge = {
  lists: {
    records: (record, zone) => {
      const r = normDesired(record as unknown as DesiredRecord, String(zone.name));
      return `${r.name}\u0000${r.type}\u0000${valueOf(r)}`;
    },
  },
};
