/**
 * Offline checks of a zone's `dns` value (docs/reference/design.md section 3), run by src/config/ after the schema
 * passed and before any request. The rules themselves live once in src/rules/dns/ (shared with the
 * local API); this file applies them to a desired state and says which key each problem is about.
 */
import { parentPath } from '../../config/paths.js';
import type { ValidateContext } from '../../core/kind.js';
import {
  CODES,
  LOCAL_CODES,
  PRIORITY_TYPES,
  checkCnameChain,
  checkRecord,
  conflictsIn,
  hasAddressRecord,
  hasData,
  indexByName,
  managedFieldOf,
  minTtl,
  misappliedSetting,
  violationText,
  type NormalisedRecord,
  type Violation,
  type ZoneRecord,
} from '../../rules/dns/index.js';
import { fqdn, normContent, normData, valueOf } from './normalize.js';
import { certify, fullNameOf, keyOf, zoneOf, type Checked as Certified, type Zone } from './certify.js';
import { certifiedVerdicts } from './schema-view.js';
import { isObject } from '../../rules/shared/values.js';
import { checkRenames } from '../shared/renames.js';
import { NameHints } from './name-hints.js';
import { HELD_MARKER_MESSAGE, holdsTextMarker, MARKER_WORD } from '../shared/owners.js';

type Raw = Record<string, unknown>;

/** "MX, SRV and URI": the types with a priority, as a message names them */
const PRIORITY_LIST = [...PRIORITY_TYPES].join(', ').replace(/, ([^,]+)$/, ' and $1');

/**
 * A record that passed the per-record rules, with what the zone-wide rules need. Its `content` is
 * its identity, and its `name` the name's key (certify.ts's `Checked.key`: the labels before the
 * zone's), as conflictsIn compares them: for equality only, so no copy of each record is made for
 * that, and no full name is built (nor hashed) per record; fullNameOf gives one where a message or
 * a proxied CNAME's chain needs it.
 */
export interface Checked extends ZoneRecord {
  index: number;
  /** identity value: normalised content, or normalised data for structured types */
  identity: string;
  target: string;
}

/**
 * Runs even where the schema refused parts of the value (`validatesPartly`): a record the schema
 * refused is skipped like one the per-record rules refused, so one misspelt key does not hide the
 * rule violations of every other record.
 */
export function validateDns(value: unknown, ctx: ValidateContext): void {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return;
  const dns = value as Raw;
  const namePath = `${parentPath(ctx.path)}.name`;
  const zone = typeof ctx.owner.name === 'string' && !ctx.schemaFailed(namePath) ? ctx.owner.name : undefined;
  const records = (Array.isArray(dns.records) ? dns.records : []) as Raw[];
  if (!zone) return; // the zone name itself is wrong; the schema said so
  const checked: Checked[] = [];
  // the names of refused records (undefined: one has no usable name, so any name may be involved)
  let refusedNames: Set<string> | undefined = new Set();
  // one look for the whole list: when the schema refused nothing in it, no record needs a look of its own
  const someFailed = ctx.schemaFailed('records');
  const forms = zoneOf(zone);
  // certify's verdicts, when the schema's view of this list made them (./schema-view.ts)
  const verdicts = certifiedVerdicts(records, zone);
  let renames = false;
  // what the later rules look at, gathered in this one pass over the records: the records the
  // name hints may be about, and those with a comment or tags (which may not hold a marker)
  const hints = new NameHints(zone);
  const annotated: number[] = [];
  for (let i = 0; i < records.length; i++) {
    let raw = records[i];
    let known = verdicts;
    if (isObject(raw)) {
      hints.see(raw, i);
      if (raw.comment !== undefined || raw.tags !== undefined) annotated.push(i);
      if (raw.renamed_from !== undefined) {
        // the file's key, never the API's: the record rules check the record as it is sent
        renames = true;
        const { renamed_from: _renamedFrom, ...record } = raw;
        raw = record;
        known = undefined;
      }
    }
    const refused = someFailed && ctx.schemaFailed(`records[${i}]`);
    const ok = refused
      ? undefined
      : (plainRecord(raw, i, forms, known) ?? checkOne(raw, `records[${i}]`, i, zone, ctx));
    if (ok) checked.push(ok);
    else if (typeof raw?.name === 'string') refusedNames?.add(fqdn(raw.name, zone));
    else refusedNames = undefined;
  }
  const partial = checked.length < records.length || ctx.schemaFailed('');
  checkZoneWide(checked, zone, forms, dns, ctx, partial, refusedNames);
  hints.report(records, ctx);
  if (renames) checkRecordRenames(checked, records, zone, ctx);
  // only a comment or tags may hold an owner's marker (most records have neither)
  for (const i of annotated) {
    for (const field of fieldsHoldingMarker(records[i]!))
      ctx.error(`records[${i}].${field}`, HELD_MARKER_MESSAGE);
  }
}

/**
 * The fields of a record (as the file writes it) whose text would read back as an owner's marker
 * (docs/sharing-a-zone.md): the user's comment and tags never may hold one.
 */
function fieldsHoldingMarker(record: Raw): ('comment' | 'tags')[] {
  const { comment, tags } = record;
  const fields: ('comment' | 'tags')[] = [];
  if (typeof comment === 'string' && holdsTextMarker(comment)) fields.push('comment');
  if (
    Array.isArray(tags) &&
    tags.some((t) => typeof t === 'string' && t.toLowerCase().startsWith(TAG_MARKER))
  ) {
    fields.push('tags');
  }
  return fields;
}

const TAG_MARKER = `${MARKER_WORD}:`;

/**
 * `renamed_from` (./renames.ts): a record is identified by its name within its type and value, so
 * the old name must differ from the new one and must not be kept by another record of the same
 * type and value, nor be taken over by two of them.
 */
function checkRecordRenames(checked: Checked[], records: Raw[], zone: string, ctx: ValidateContext): void {
  checkRenames(
    checked.map((c) => {
      const raw = records[c.index]!;
      return {
        identity: String(raw.name),
        path: `${ctx.path}.records[${c.index}]`,
        group: `${c.type}\u0000${c.identity}`,
        ...(typeof raw.renamed_from === 'string' ? { renamedFrom: raw.renamed_from } : {}),
      };
    }),
    'record',
    ctx,
    (name) => fqdn(name, zone),
  );
}

const FREE_MIN_TTL = minTtl('free');

/**
 * A plain record (./certify.ts) as checkOne would return it, without the general rules; undefined
 * when it is not certainly valid with nothing to say, and then checkOne decides. Most records of
 * most files are plain, and the general rules cost several times the reading of the file.
 * `verdicts`: certify's verdicts on the list, by index, when they were made already.
 */
export function plainRecord(
  raw: Raw,
  index: number,
  zone: Zone,
  verdicts?: readonly (Certified | undefined)[],
): Checked | undefined {
  if (!isObject(raw)) return undefined;
  // a TTL under a free zone's minimum is valid, with checkOne's warning
  const ttl = raw.ttl;
  if (typeof ttl === 'number' && ttl !== 1 && ttl < FREE_MIN_TTL) return undefined;
  const c = verdicts ? verdicts[index] : certify(raw, zone, index);
  if (!c) return undefined;
  return {
    index,
    name: c.key,
    type: c.type,
    content: c.identity,
    proxied: c.proxied,
    identity: c.identity,
    target: c.target,
  };
}

/** Per-record rules; returns the normalised record when it is valid. */
export function checkOne(
  raw: Raw,
  path: string,
  index: number,
  zone: string,
  ctx: ValidateContext,
): Checked | undefined {
  const type = String(raw.type);
  let valid = true;
  const error = (key: string, message: string) => {
    ctx.error(key ? `${path}.${key}` : path, message);
    valid = false;
  };
  if (hasData(type) && raw.content !== undefined && raw.data !== undefined) {
    error('content', `give either \`content\` or \`data\` for a ${type} record, not both`);
  }
  if (!hasData(type) && raw.data !== undefined) {
    error(
      'data',
      `\`data\` is only for structured types (SRV, CAA, HTTPS, ...); a ${type} record takes \`content\``,
    );
  }
  if (raw.priority !== undefined && !PRIORITY_TYPES.has(type)) {
    error('priority', `\`priority\` is used only by ${PRIORITY_LIST} records, not ${type}`);
  }
  const misapplied = misappliedSetting(raw, type);
  if (misapplied) error(misapplied.key, misapplied.message);
  const ttl = raw.ttl === 'auto' ? 1 : (raw.ttl as number | undefined);
  if (raw.proxied === true && ttl !== undefined && ttl !== 1) {
    error('ttl', `a proxied record's TTL is always Auto (300 s); remove \`ttl\` or write \`ttl: auto\``);
  } else if (typeof ttl === 'number' && ttl !== 1 && ttl < minTtl('free')) {
    ctx.warn(`${path}.ttl`, `a TTL under ${minTtl('free')} seconds is accepted only on Enterprise zones`);
  }
  // Offline the zone's plan is unknown, so the most permissive plan's limits apply here.
  const result = checkRecord(raw.ttl === ttl ? raw : { ...raw, ttl }, { name: zone, plan: 'enterprise' });
  if ('violations' in result) {
    for (const v of result.violations) error(fieldOf(v, raw), messageOf(v));
    return undefined;
  }
  if (!valid) return undefined;
  const r = result.record;
  const identity = identityOf(r);
  return {
    index,
    name: keyOf(r.name, zoneOf(zone)),
    type: r.type,
    content: identity,
    proxied: r.proxied,
    identity,
    target: r.content,
  };
}

/** Which key of the record a violation of the shared rules is about, from its code. */
function fieldOf(v: Violation, raw: Raw): string {
  const code = v.chain?.[0]?.code ?? v.code;
  const text = violationText(v);
  switch (code) {
    case CODES.badName:
      return 'name';
    case LOCAL_CODES.badType:
    case LOCAL_CODES.locked:
      return 'type';
    case CODES.notProxiable:
      return 'proxied';
    case CODES.badTtl:
      return 'ttl';
    case LOCAL_CODES.badPriority:
      return raw.priority !== undefined || raw.data === undefined ? 'priority' : 'data';
    case LOCAL_CODES.badTags:
    case LOCAL_CODES.badComment:
      // a shared field's check (the record model's), which names the field
      return managedFieldOf(code, text) ?? 'content';
    case LOCAL_CODES.badData: {
      const field = /\bdata\.([a-z_]+)/.exec(text);
      if (raw.data === undefined) return 'content';
      return field && (raw.data as Raw)[field[1]] !== undefined ? `data.${field[1]}` : 'data';
    }
    default:
      return 'content';
  }
}

/** The shared rules speak to API clients in sentences; a diagnostic reads better without the period. */
export function messageOf(v: Violation): string {
  return violationText(v).replace(/\.$/, '');
}

/**
 * Identity per docs/reference/design.md section 2: normalised content, or normalised data for structured types.
 * The shared rules' form (what the API compares) goes through the planner's own normalisation
 * (./normalize.ts) as well, so records either side sees as one value are one here. A TXT `"text"`
 * and `text` are one to the planner: both would be planned as creates of the same content, the
 * API refuses the second (81058), and apply would never converge.
 */
export function identityOf(r: Pick<NormalisedRecord, 'type' | 'content' | 'data'>): string {
  return valueOf({
    type: r.type,
    content: normContent(r.type, r.content),
    data: normData(r.data),
  });
}

/** Rules across the zone's records: duplicates, a CNAME beside others, proxied chains, addresses. */
function checkZoneWide(
  checked: Checked[],
  zone: string,
  forms: Zone,
  dns: Raw,
  ctx: ValidateContext,
  partial: boolean,
  refusedNames: Set<string> | undefined,
) {
  // conflictsIn compares content, which is the identity here: its "identical" is our duplicate rule.
  for (const { record, violation } of conflictsIn(checked)) {
    const r = record as Checked;
    const other = checked.find((c) => c.index < r.index && c.name === r.name && clash(c, r, violation));
    ctx.error(`records[${r.index}]`, conflictMessage(violation, other, fullNameOf(r.name, forms)));
  }
  // A proxied CNAME's chain is judged when every name it passes through holds only well-formed
  // records: with a refused record on the way, the chain would be judged on a zone without it
  // ("the CNAME's target is missing") and be wrong. So one bad record elsewhere does not hide it.
  // (most zones have no proxied CNAME, and then no index is made)
  const proxiedCnames = checked.filter((c) => c.type === 'CNAME' && c.proxied);
  if ((!partial || refusedNames) && proxiedCnames.length > 0) {
    // (the chain rule follows full names)
    const index = indexByName(
      checked.map((r) => ({ ...r, name: fullNameOf(r.name, forms), content: r.target })),
    );
    for (const c of proxiedCnames) {
      let touchesRefused = false;
      const lookup = (name: string) => {
        if (refusedNames?.has(name)) touchesRefused = true;
        return index(name);
      };
      const v = checkCnameChain({ ...c, name: fullNameOf(c.name, forms), content: c.target }, zone, lookup);
      if (v && !touchesRefused) ctx.error(`records[${c.index}].content`, messageOf(v));
    }
  }
  // the zone as a whole ("no A record") is judged once every record is valid
  if (partial) return;
  if (dns.purge !== false && !hasAddressRecord(checked)) {
    ctx.warn(
      'records',
      'the zone has no A or AAAA record; the service requires at least one per zone, and apply will not remove the last one',
    );
  }
}

/** A record as the rules across records see it (here and in the export's fast check). */
interface Identified {
  index: number;
  type: string;
  identity: string;
}

/** Whether `earlier` is the record that `later`'s conflict (duplicate or CNAME beside others) is with. */
export function clash(earlier: Identified, later: Identified, violation: Violation): boolean {
  if (violation.code === CODES.identical)
    return earlier.type === later.type && earlier.identity === later.identity;
  return earlier.type === 'CNAME' || later.type === 'CNAME';
}

/** The message for a record's conflict with `other` (the earlier record it clashes with, if found). */
export function conflictMessage(violation: Violation, other: Identified | undefined, name: string): string {
  const at = other ? `records[${other.index}]` : 'another record';
  return violation.code === CODES.identical
    ? `duplicate record: ${at} already has this name, type and value`
    : `a CNAME must be the only record at its name, and ${at} (${other?.type ?? 'a record'}) is also at ${name}`;
}
