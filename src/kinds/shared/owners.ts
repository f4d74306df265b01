/**
 * Owners (docs/sharing-a-zone.md): a zone or account entry with `owner: NAME` marks every object
 * zoneplan writes for it, in the object itself, so that several repositories can share one zone
 * without a state file. Each kind keeps the marker in a field the API stores (the table of
 * docs/sharing-a-zone.md); this file holds what the kinds share: the owner settings of an entry,
 * the text marker that comments and descriptions carry, and the one rule that decides which live
 * objects a plan may touch.
 *
 * The rule, for the objects of one kind and owner:
 * - an object with this owner's marker is the plan's own: paired, updated, purged as without owners;
 * - an object with another owner's marker is never touched; a desired object with its identity is a
 *   plan error naming that owner;
 * - an unmarked object the file names (same identity, or a `renamed_from`) is taken over only with
 *   `adopt: true` (and marked then); without it the plan stops, since taking it silently could
 *   steal what another tool (certbot, a dashboard edit) manages; an unmarked object the file does
 *   not name is left alone, purge or not.
 * Without `owner`, markers are invisible: objects are matched on the user's text and a write keeps
 * the marker an object has (so an export, which strips markers, plans to zero changes).
 */
import type { StepDraft } from '../../core/runtime.js';

/** An owner name: letters, digits, `-`, `_` (what a DNS tag name allows, so it fits every marker). */
export const OWNER_NAME_PATTERN = '^[A-Za-z0-9_-]+$';

export interface OwnerSettings {
  name: string;
  /** take over unmarked live objects the file names (and mark them) */
  adopt: boolean;
}

/** The owner settings of a zone or account entry; undefined when it has no `owner`. */
export function ownerSettingsOf(entry: Record<string, unknown> | undefined): OwnerSettings | undefined {
  const name = entry?.owner;
  if (typeof name !== 'string' || name === '') return undefined;
  return { name, adopt: entry?.adopt === true };
}

/** The word the markers carry: in a comment `[zoneplan-owner:NAME]`, as a DNS tag `zoneplan-owner:NAME`. */
export const MARKER_WORD = 'zoneplan-owner';

/** A stored text split into the user's part and the owner whose marker it carries. */
export interface MarkedText {
  text: string;
  owner?: string;
}

const TEXT_MARKER = /(?:^| )\[zoneplan-owner:([A-Za-z0-9_-]+)\]$/;

/** The marker a comment or description ends with: ` [zoneplan-owner:NAME]` after the user's text. */
export function textMarker(owner: string): string {
  return `[${MARKER_WORD}:${owner}]`;
}

/** The stored text for the user's `text` and `owner` (the marker last, after one space). */
export function encodeText(text: string, owner: string | undefined): string {
  if (owner === undefined) return text;
  return text === '' ? textMarker(owner) : `${text} ${textMarker(owner)}`;
}

/** The user's text and the owner of a stored comment or description (a marker only at the end counts). */
export function decodeText(stored: string): MarkedText {
  const m = TEXT_MARKER.exec(stored);
  if (!m) return { text: stored };
  return { text: stored.slice(0, m.index), owner: m[1]! };
}

/** Whether user text holds something a reader of the stored text would take for a marker. */
export function holdsTextMarker(text: string): boolean {
  return text.includes(`[${MARKER_WORD}:`);
}

/** The message for user text that holds a marker (validation, at the field). */
export const HELD_MARKER_MESSAGE =
  `holds a "${MARKER_WORD}" marker, which zoneplan writes itself for the entry's owner ` +
  '(docs/sharing-a-zone.md); remove it and set owner: on the entry instead';

/** How many characters the marker adds to user text of this length (one space unless it is empty). */
export function textMarkerLength(text: string, owner: string): number {
  return textMarker(owner).length + (text === '' ? 0 : 1);
}

/** A live object as the owner rule sees it: its id, its marker's owner and how messages name it. */
export interface Claimable {
  id: string;
  owner: string | undefined;
  /** `policy "x" (id 1f2e...)`, as a plan error names it (made only for an error) */
  label(): string;
}

export interface Claims {
  /** ids of the live objects the plan may pair, update and purge (own and adopted) */
  planned: Set<string>;
  /** ids of the unmarked objects taken over with `adopt: true` (their writes add the marker) */
  adopted: Set<string>;
  /** one line per desired object that names another owner's object or, without adopt, an unmarked one */
  problems: string[];
}

/**
 * The owner rule for one kind and owner. `named(object)` gives the desired object that names the
 * live one (by identity or `renamed_from`) as `{where, what}`, or undefined: `where` is the
 * `file:line:col` of that desired object, `what` how the plan error names it.
 */
export function claimLive(
  live: Claimable[],
  owner: OwnerSettings,
  named: (object: Claimable) => { where?: string; what: string } | undefined,
): Claims {
  const claims: Claims = { planned: new Set(), adopted: new Set(), problems: [] };
  for (const object of live) {
    if (object.owner === owner.name) {
      claims.planned.add(object.id);
      continue;
    }
    const by = named(object);
    if (!by) continue;
    const at = by.where ? `${by.where}: ` : '';
    if (object.owner !== undefined) {
      claims.problems.push(
        `${at}${by.what} collides with ${object.label()}, which belongs to owner ${object.owner}: ` +
          `owner ${owner.name} may not change it; rename this one, or let ${object.owner} remove theirs`,
      );
    } else if (owner.adopt) {
      claims.planned.add(object.id);
      claims.adopted.add(object.id);
    } else {
      claims.problems.push(
        `${at}${by.what} names ${object.label()}, which exists live without an owner marker: ` +
          `set adopt: true on the entry to take it over for owner ${owner.name} (it is then marked), ` +
          'or remove it from the file if another tool manages it',
      );
    }
  }
  return claims;
}

/**
 * What an adopted object's step shows: its fields plus `owner`, so the plan says `owner: (unset)
 * -> NAME` and never a change of the user's text.
 */
export function withOwnerField(value: unknown, owner: string | null): unknown {
  if (value === null || typeof value !== 'object') return value;
  return { ...(value as Record<string, unknown>), owner };
}

export interface MarkWritesInput {
  owner: OwnerSettings | undefined;
  /** the marker owner of each live object the plan saw, by id (undefined: unmarked) */
  liveOwners: Map<string, string | undefined>;
  adopted: Set<string>;
  /** the step's apply data with the marker of `owner` (none when undefined) in the kind's field */
  mark(data: unknown, owner: string | undefined): unknown;
  /** the update that only marks an adopted object the plan does not otherwise change */
  markOnly(id: string): StepDraft;
}

/**
 * Puts the markers into the writes of a plan made on the user's text: a create gets the plan's
 * owner, an update the owner the object keeps (the plan's, or with no owner in the file the one
 * it has), and an adopted object is marked in its update or in an update of its own.
 */
export function markWrites(drafts: StepDraft[], input: MarkWritesInput): StepDraft[] {
  const { owner, liveOwners, adopted } = input;
  const touched = new Set<string>();
  const out = drafts.map((d) => {
    if (d.liveId !== undefined) touched.add(d.liveId);
    if (d.action === 'create') return { ...d, data: input.mark(d.data, owner?.name) };
    if (d.action !== 'update' || d.liveId === undefined || !liveOwners.has(d.liveId)) return d;
    const keeps = owner?.name ?? liveOwners.get(d.liveId);
    const marked = { ...d, data: input.mark(d.data, keeps) };
    if (!adopted.has(d.liveId)) return marked;
    return {
      ...marked,
      before: withOwnerField(d.before, null),
      after: withOwnerField(d.after, keeps ?? null),
    };
  });
  for (const id of adopted) if (!touched.has(id)) out.push(input.markOnly(id));
  return out;
}
