/**
 * Owners of DNS records (docs/sharing-a-zone.md). The marker is a tag `zoneplan-owner:NAME` where
 * the zone's plan allows tags (paid plans), else the end of the comment (` [zoneplan-owner:NAME]`,
 * Free). Either is read back on any plan, so a zone that changes plan keeps its owners and no record
 * is rewritten for it. The marker is taken off before pairing and before a step shows a record, so
 * the user's `comment` and `tags` compare as written, and put back on every write; which live
 * records the plan may touch is ../shared/owners.ts's rule, with a record's identity (name, type,
 * value). A record another owner or nobody keeps at a name still counts for the CNAME rule.
 */
import type { StepDraft } from '../../core/runtime.js';
import { UserError } from '../../errors.js';
import { conflictWith } from '../../rules/dns/index.js';
import { limitsOf } from '../../rules/dns/plan-limits.js';
import {
  claimLive,
  decodeText,
  encodeText,
  markWrites,
  MARKER_WORD,
  type OwnerSettings,
} from '../shared/owners.js';
import { fqdn, normDesired, relativeName, valueOf, type LiveRecord } from './normalize.js';
import { planDns, type DnsPlanInput, type DnsStepData } from './plan.js';
import { planOfZone } from './plan-limits.js';

const TAG_PREFIX = `${MARKER_WORD}:`;

export type MarkerPlace = 'tags' | 'comment';

/** A live record as the user wrote it, the owner its marker names and where the marker is. */
export interface DecodedRecord {
  user: LiveRecord;
  owner?: string;
  place?: MarkerPlace;
}

/** Splits the marker off a live record (tags first); an unmarked record comes back as it is. */
export function decodeRecord(l: LiveRecord): DecodedRecord {
  const tags = l.tags ?? [];
  for (let i = 0; i < tags.length; i++) {
    if (!tags[i]!.startsWith(TAG_PREFIX)) continue;
    const user = { ...l, tags: tags.filter((_, j) => j !== i) };
    return { user, owner: tags[i]!.slice(TAG_PREFIX.length), place: 'tags' };
  }
  if (typeof l.comment !== 'string') return { user: l };
  const { text, owner } = decodeText(l.comment);
  if (owner === undefined) return { user: l };
  return { user: { ...l, comment: text === '' ? null : text }, owner, place: 'comment' };
}

/** Whether a live record carries a marker (decodeRecord without the copy). */
function hasMarker(l: LiveRecord): boolean {
  if (l.tags?.some((t) => t.startsWith(TAG_PREFIX))) return true;
  return (
    typeof l.comment === 'string' && l.comment.endsWith(']') && decodeText(l.comment).owner !== undefined
  );
}

/** The tag that marks a record for `owner`. */
export const markerTag = (owner: string): string => `${TAG_PREFIX}${owner}`;

export interface OwnedDnsInput extends DnsPlanInput {
  owner: OwnerSettings | undefined;
}

/** The plan of a zone's records under the owner rule; without markers and owner, planDns itself. */
export function planOwnedDns(input: OwnedDnsInput): StepDraft[] {
  const { owner, zone, desired, locate } = input;
  const problems: string[] = [];
  // the usual zone, with no owner and no marker, is planned as it is (no copy per record)
  if (!owner && !input.live.some(hasMarker)) return planDns(input);
  const decoded = input.live.map(decodeRecord);
  const byId = new Map(decoded.map((d) => [d.user.id, d]));
  let planned = decoded.map((d) => d.user);
  let kept: DecodedRecord[] = [];
  let adopted = new Set<string>();
  if (owner) {
    // the file's identities, made only when a record of another owner or of none is met
    let named: Map<string, { path: string; what: string }> | undefined;
    const namedIn = () => {
      if (named) return named;
      named = new Map();
      for (const r of desired.records) {
        const want = normDesired(r, zone);
        const what = `zone ${zone}: ${r.path}: ${relativeName(want.name, zone)} ${want.type} ${valueOf(want)}`;
        named.set(`${want.type} ${want.name} ${valueOf(want)}`, { path: r.path, what });
        if (r.renamed_from !== undefined) {
          named.set(`${want.type} ${fqdn(r.renamed_from, zone)} ${valueOf(want)}`, { path: r.path, what });
        }
      }
      return named;
    };
    const claims = claimLive(
      decoded.map(({ user, owner: marked }) => ({
        id: user.id,
        owner: marked,
        label: () => `the record ${relativeName(user.name, zone)} ${user.type} ${user.value} (id ${user.id})`,
      })),
      owner,
      (object) => {
        const { user } = byId.get(object.id)!;
        const d = namedIn().get(`${user.type} ${user.name} ${user.value}`);
        return d && { where: locate?.(d.path), what: d.what };
      },
    );
    problems.push(...claims.problems);
    planned = planned.filter((r) => claims.planned.has(r.id));
    kept = decoded.filter((d) => !claims.planned.has(d.user.id));
    adopted = claims.adopted;
    problems.push(...keptConflicts(input, kept, owner));
  }
  if (problems.length > 0) throw new UserError(problems.join('\n'));
  const drafts = planDns({ ...input, live: planned, otherRecords: kept.length });
  const plan = planOfZone(input.zoneInfo);
  // tags where the plan allows them (a paid plan); a zone of an unknown plan gets the comment marker
  const newPlace: MarkerPlace = plan !== undefined && limitsOf(plan).tagsPerRecord !== 0 ? 'tags' : 'comment';
  // A tag marker on a zone whose plan allows no tags (a paid plan that ended) moves to the comment
  // with the record's next write: the API refuses every write of a record that still holds a tag.
  const tagsRefused = plan !== undefined && limitsOf(plan).tagsPerRecord === 0;
  const placeOf = (id: string | undefined): MarkerPlace => {
    const live = id ? byId.get(id)?.place : undefined;
    return live === 'tags' && tagsRefused ? 'comment' : (live ?? newPlace);
  };
  const marked = markWrites(drafts, {
    owner,
    liveOwners: new Map(decoded.map((d) => [d.user.id, d.owner])),
    adopted,
    mark(data, markOwner) {
      const d = data as DnsStepData;
      if (markOwner === undefined || d.op === 'delete') return d;
      if (d.op === 'post') return { ...d, record: withMarker(d.record, markOwner, newPlace, true) };
      const user = byId.get(d.id)!.user;
      const fields = { ...d.fields };
      const place = placeOf(d.id);
      const livePlace = byId.get(d.id)!.place;
      const moved = livePlace !== undefined && livePlace !== place;
      // an adopted (or moved) marker goes beside the user's live value of the field that holds it,
      // and a moved one leaves the tags as the user wrote them
      if ((adopted.has(d.id) || moved) && fields[place] === undefined) fields[place] = user[place] ?? null;
      if (moved && fields.tags === undefined) fields.tags = user.tags ?? [];
      return { ...d, fields: withMarker(fields, markOwner, place) };
    },
    markOnly(id) {
      const { user } = byId.get(id)!;
      const place = placeOf(id);
      const shown = { name: user.name, type: user.type, value: user.value };
      return {
        key: id,
        action: 'update',
        address: `${relativeName(user.name, zone)} ${user.type} ${user.value}`,
        before: { ...shown, owner: null },
        after: { ...shown, owner: owner?.name ?? null },
        liveId: id,
        summary: `mark ${relativeName(user.name, zone)} ${user.type} as owner ${owner?.name}`,
        data: {
          op: 'patch',
          id,
          fields: withMarker({ [place]: user[place] ?? null }, owner!.name, place),
        } satisfies DnsStepData,
      };
    },
  });
  const tooLong =
    plan === undefined ? [] : commentLengthProblems(marked, input, limitsOf(plan).commentLength);
  if (tooLong.length > 0) throw new UserError(tooLong.join('\n'));
  return marked;
}

/**
 * A POST body (`always`) or PATCH fields with the owner's marker in `place`. PATCH fields without
 * the field are left alone: the live record keeps its marker there.
 */
function withMarker(
  body: Record<string, unknown>,
  owner: string,
  place: MarkerPlace,
  always = false,
): Record<string, unknown> {
  if (!always && !(place in body)) return body;
  if (place === 'tags') {
    const tags = Array.isArray(body.tags) ? (body.tags as string[]) : [];
    return { ...body, tags: [...tags, markerTag(owner)] };
  }
  const text = typeof body.comment === 'string' ? body.comment : '';
  return { ...body, comment: encodeText(text, owner) };
}

/** Comments that are over the zone's limit once the marker is added, at the comment's place. */
function commentLengthProblems(drafts: StepDraft[], input: OwnedDnsInput, limit: number): string[] {
  const problems: string[] = [];
  for (const d of drafts) {
    const data = d.data as DnsStepData;
    const comment =
      data.op === 'post' ? data.record.comment : data.op === 'patch' ? data.fields.comment : null;
    if (typeof comment !== 'string' || comment.length <= limit) continue;
    const { text } = decodeText(comment);
    const path = d.source ?? `${input.path ?? 'dns'}.records`;
    const at = input.locate?.(`${path}.comment`) ?? input.locate?.(path);
    problems.push(
      `${at ? `${at}: ` : ''}zone ${input.zone}: ${path}: the comment is ${text.length} characters, and with ` +
        `the owner marker (${comment.length - text.length} more) ${comment.length}; the zone's plan allows ` +
        `${limit}: shorten it`,
    );
  }
  return problems;
}

/**
 * Records the plan may not touch that stand in the way of one it writes: a CNAME beside them, or
 * them beside a CNAME (the API refuses both). The same identity is claimLive's, not repeated here.
 */
function keptConflicts(input: OwnedDnsInput, kept: DecodedRecord[], owner: OwnerSettings): string[] {
  if (kept.length === 0) return [];
  const { zone } = input;
  const byName = new Map<string, DecodedRecord[]>();
  for (const k of kept) byName.set(k.user.name, [...(byName.get(k.user.name) ?? []), k]);
  const problems: string[] = [];
  for (const r of input.desired.records) {
    const want = normDesired(r, zone);
    for (const k of byName.get(want.name) ?? []) {
      if (k.user.type === want.type && want.type !== 'CNAME') continue;
      if (k.user.type === want.type && k.user.value === valueOf(want)) continue;
      const violation = conflictWith({ name: want.name, type: want.type, content: '' }, [
        { name: k.user.name, type: k.user.type, content: k.user.content ?? '' },
      ]);
      if (!violation) continue;
      const at = input.locate?.(r.path);
      const name = relativeName(want.name, zone);
      const whose = k.owner === undefined ? 'unmarked' : `owner ${k.owner}'s`;
      problems.push(
        `${at ? `${at}: ` : ''}zone ${zone}: ${r.path}: ${name} ${want.type} collides with ${whose} record ` +
          `${name} ${k.user.type} ${k.user.value} (id ${k.user.id}), which owner ${owner.name} may not change, and ` +
          `${want.type === 'CNAME' ? 'a CNAME must be alone at its name' : 'no other record may sit beside a CNAME'} ` +
          `(the API refuses it with ${violation.code})`,
      );
    }
  }
  return problems;
}

/** The live state export writes from: every record as its user wrote it (`zoneplan export`). */
export function withoutRecordMarkers(live: unknown): unknown {
  const dns = live as { records?: LiveRecord[] } | undefined;
  if (!dns?.records?.some(hasMarker)) return live;
  return { ...dns, records: dns.records.map((r) => decodeRecord(r).user) };
}
