/**
 * The document as the JSON Schema check sees it: each kind may stand in for the parts of its value
 * that its own tests certify (`KindDefinition.schemaView`), so the schema does not walk 10,000
 * plain DNS records key by key before the kind's checks take them as certified. Owner entries and
 * lists are copied only where a kind replaced something; the document itself is never changed, and
 * every path in it means the same place in the view.
 */
import { allKinds } from '../kinds/index.js';
import { copyOf } from './entry-copy.js';
import { isObject, type Entry } from '../rules/shared/values.js';

export function schemaViewOf(document: unknown): unknown {
  if (!isObject(document)) return document;
  let view: Entry | undefined;
  for (const kind of allKinds()) {
    if (!kind.key || !kind.schemaView) continue;
    const listName = kind.scope === 'zone' ? 'zones' : 'accounts';
    const list = (view ?? document)[listName];
    if (!Array.isArray(list)) continue;
    let copy: unknown[] | undefined;
    for (let i = 0; i < list.length; i++) {
      const owner: unknown = list[i];
      if (!isObject(owner) || owner[kind.key] === undefined) continue;
      const value = owner[kind.key];
      const seen = kind.schemaView(value, owner);
      if (seen === value) continue;
      copy ??= list.slice();
      const entry = copyOf<Entry>(owner);
      entry[kind.key] = seen;
      copy[i] = entry;
    }
    if (!copy) continue;
    view ??= copyOf<Entry>(document);
    view[listName] = copy;
  }
  return view ?? document;
}
