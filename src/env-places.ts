/**
 * Which plan steps an `${env:NAME}` value may belong to, from the places it was written at (dotted
 * paths: `zones[0].dns.records[3].content`) and the entry of a step (`zones[0].dns.records[3]`).
 *
 * A place belongs to a step unless it is inside another listed entry (another record, another
 * zone's job: the paths part at a list index). So a place inside the entry counts, however deep (a
 * record's `tags[1]`, an override of the `waf` value a step covers whole), and so does a plain
 * field of an entry around it (a zone's name, which the entry may inherit): masked, the safe side.
 *
 * Said with prefixes: the place belongs when the entry is a prefix of the place, or when the
 * place's innermost listed entry (its path up to its last list index; empty without one) is a
 * prefix of the entry. Both are set lookups, so one value written in 10,000 records costs a few
 * lookups per step, not a walk over 10,000 places.
 */

export interface PlaceIndex {
  /** a place with no list index (`target.url`) or a quoted key: every step may hold it */
  everywhere: boolean;
  /** every prefix of every place, cut at segment ends (`zones`, `zones[0]`, `zones[0].dns`, ...) */
  prefixes: Set<string>;
  /** each place's innermost listed entry (`zones[0].dns.records[3]`, `zones[0]`) */
  listed: Set<string>;
}

const SEGMENT = /\[[^\]]*\]|[^.[]+/g;
const INDEX = /^\[\d+\]$/;

/** The ends of a path's segments (string offsets) and whether each segment is a list index. */
function segmentEnds(path: string): { end: number; index: boolean }[] {
  const out: { end: number; index: boolean }[] = [];
  for (const m of path.matchAll(SEGMENT)) out.push({ end: m.index + m[0].length, index: INDEX.test(m[0]) });
  return out;
}

export function placeIndex(places: Iterable<string>): PlaceIndex {
  const index: PlaceIndex = { everywhere: false, prefixes: new Set(), listed: new Set() };
  for (const place of places) {
    if (place.includes('"')) {
      index.everywhere = true; // quoted keys: do not guess
      continue;
    }
    let listedEnd = 0;
    for (const s of segmentEnds(place)) {
      index.prefixes.add(place.slice(0, s.end));
      if (s.index) listedEnd = s.end;
    }
    if (listedEnd === 0) index.everywhere = true;
    else index.listed.add(place.slice(0, listedEnd));
  }
  return index;
}

/** Whether some place of the index may belong to the step of the entry at `entry`. */
export function belongsToEntry(index: PlaceIndex, entry: string): boolean {
  if (index.everywhere || entry.includes('"') || index.prefixes.has(entry)) return true;
  for (const s of segmentEnds(entry)) {
    if (s.index && index.listed.has(entry.slice(0, s.end))) return true;
  }
  return false;
}
