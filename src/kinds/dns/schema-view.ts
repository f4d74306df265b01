/**
 * The DNS value as the JSON Schema check sees it (KindDefinition.schemaView), and the verdicts it
 * leaves for validate.ts: each record is certified once (./certify.ts), before the schema. A record
 * certify accepts is valid under the schema, so the schema is given a small stand-in for it, and
 * none for those after the last record it must see (the list itself has no rule of its length or
 * content, ./schema.ts): a file of plain records leaves the schema nothing to do per record. The
 * verdicts are kept beside the list they were made for, and validate.ts takes them instead of
 * certifying each record again.
 */
import { copyOf } from '../../config/entry-copy.js';
import { isObject, type Entry } from '../../rules/shared/values.js';
import { certify, zoneOf, type Checked } from './certify.js';

/** What the schema sees in place of a certified record: a record it accepts at once. */
const STAND_IN: Readonly<Entry> = Object.freeze({ name: '@', type: 'A' });

/** certify's verdict on each record of a list (undefined: not certified), and the zone it was made for */
interface Verdicts {
  zone: string;
  verdicts: (Checked | undefined)[];
}

/** the verdicts of the lists the schema view was made of, by list (the checked document's own) */
const verdictsOfList = new WeakMap<readonly unknown[], Verdicts>();

export function dnsSchemaView(value: unknown, owner: Entry): unknown {
  if (!isObject(value) || !Array.isArray(value.records) || typeof owner.name !== 'string') return value;
  const zone = zoneOf(owner.name);
  const records = value.records as unknown[];
  const verdicts = new Array<Checked | undefined>(records.length);
  let seen: unknown[] | undefined;
  let certified = false;
  for (let i = records.length - 1; i >= 0; i--) {
    const e = records[i];
    const c = isObject(e) ? certify(e, zone, i) : undefined;
    verdicts[i] = c;
    if (c) {
      certified = true;
      if (seen) seen[i] = STAND_IN;
    } else seen ??= records.slice(0, i + 1);
  }
  verdictsOfList.set(records, { zone: owner.name, verdicts });
  if (!certified) return value;
  const view = copyOf<Entry>(value);
  view.records = seen ?? [];
  return view;
}

/**
 * certify's verdicts on `records` in the zone `zone` (as the owner entry spells it), when the
 * schema view was made of this very list; undefined otherwise (then each record is certified).
 * They are given once: the desired state's build then changes the records (./build.ts), and a
 * later check of the same list certifies them as they are then.
 */
export function certifiedVerdicts(
  records: readonly unknown[],
  zone: string,
): readonly (Checked | undefined)[] | undefined {
  const found = verdictsOfList.get(records);
  verdictsOfList.delete(records);
  return found?.zone === zone ? found.verdicts : undefined;
}
