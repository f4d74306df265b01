/**
 * Zones and accounts declared in several files (docs/file-format.md, "One zone in several files").
 * A kind's checks judge the owner's whole value: a proxied CNAME's target may be a record of
 * another file, and "the zone has no A record" is about the zone, not one file's part of it. So
 * for such an owner they run once, on the merged entry (./merge-checks.ts), not on each part.
 */
import { isObject, type Entry } from '../rules/shared/values.js';

export type OwnerList = 'zones' | 'accounts';

/** The same zone whatever its case or trailing dot; the same account whatever the case of its id. */
export const ownerKey = (list: OwnerList, identity: string): string =>
  list === 'zones' ? identity.toLowerCase().replace(/\.$/, '') : identity.toLowerCase();

export const identityField = (list: OwnerList): string => (list === 'zones' ? 'name' : 'id');

/** Whether an owner entry (as written, or built) is declared in several files. */
export type SharedOwner = (list: OwnerList, owner: Entry) => boolean;

/**
 * From the files' parsed documents, before any check: the owners two files or more declare. A name
 * written as `${var:NAME}` is not resolved yet and counts as written (its zone's checks then also
 * run on each file's part).
 */
export function sharedOwners(documents: unknown[]): SharedOwner {
  const seen = { zones: new Map<string, number>(), accounts: new Map<string, number>() };
  documents.forEach((doc, file) => {
    if (!isObject(doc)) return;
    for (const list of ['zones', 'accounts'] as const) {
      const entries = doc[list];
      if (!Array.isArray(entries)) continue;
      for (const owner of entries) {
        const id = isObject(owner) ? owner[identityField(list)] : undefined;
        if (typeof id !== 'string') continue;
        const key = ownerKey(list, id);
        const first = seen[list].get(key);
        // -1: declared in two files or more
        if (first === undefined) seen[list].set(key, file);
        else if (first !== file) seen[list].set(key, -1);
      }
    }
  });
  return (list, owner) => {
    const id = owner[identityField(list)];
    return typeof id === 'string' && seen[list].get(ownerKey(list, id)) === -1;
  };
}
