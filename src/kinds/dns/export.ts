/**
 * Export of a zone's DNS records: the live records (service-managed ones were dropped by `read`)
 * as the `dns` value of the file, in the kind's own normal form so that planning the export finds
 * every record already in place. Records are grouped by name (apex first), one line each.
 *
 * A record the file format cannot express (the validator rejects it) is not dropped: it is written
 * as a comment with the reason and an `ignore` entry, so `plan` leaves it alone instead of purging it.
 */
import type { ExportContext, ExportResult, LayoutHint } from '../../core/export/types.js';
import { itemIndex } from '../../core/export/item-index.js';
import { firstUnspellable, spellableGlob } from '../../core/export/escape.js';
import { HOST_DATA_FIELDS, MANAGED_FIELDS, PRIORITY_TYPES } from '../../rules/dns/index.js';
import { exportForm } from './field-forms.js';
import { fqdn, normContent, relativeName, stripDot, type LiveRecord } from './normalize.js';
import type { DnsLive } from './read.js';
import type { Entry } from '../../rules/shared/values.js';

/** Relative name, or the FQDN with its dot when the relative form would read back as another name. */
export function exportedName(name: string, zone: string, rel = relativeName(name, zone)): string {
  return fqdn(rel, zone) === name ? rel : `${name}.`;
}

/**
 * exportedName for the records of one zone, given their relative names: whether `rel` reads back
 * as `name` is decided, for a plain relative name, by comparing the parts of `name` instead of
 * building `rel.zone` for each record; other names go through fqdn itself.
 */
export function exportedNames(zone: string): (name: string, rel: string) => string {
  const z = stripDot(zone.toLowerCase()); // fqdn's own form of the zone
  const dotZ = '.' + z;
  return (name, rel) => {
    const n = rel.trim().toLowerCase();
    // the names fqdn reads as `n.zone`
    const plain =
      n !== '@' && n !== '' && n !== z && !n.endsWith('.') && !n.endsWith(dotZ) && !n.endsWith('.@');
    const readsBack = plain
      ? name.length === n.length + dotZ.length && name.startsWith(n) && name.endsWith(dotZ)
      : fqdn(rel, zone) === name;
    return readsBack ? rel : `${name}.`;
  };
}

/** relativeName for one zone (it keeps the zone's normal form between calls). */
export function relativeNames(zone: string): (full: string) => string {
  return (full) => relativeName(full, zone);
}

/** A live record with its name relative to the zone, computed once (sorting and writing use it). */
interface Named {
  record: LiveRecord;
  rel: string;
  /** what sorts it among names: the relative name, '' for the apex (first) */
  key: string;
}

/** Apex first, then names in order; within a name by type, then value. */
function sortRecords(records: LiveRecord[], zone: string): Named[] {
  const relative = relativeNames(zone);
  const keyed = records.map((record): Named => {
    const rel = relative(record.name);
    return { record, rel, key: rel === '@' ? '' : rel };
  });
  keyed.sort(
    (a, b) =>
      cmp(a.key, b.key) ||
      cmp(a.record.type, b.record.type) ||
      cmp(a.record.value, b.record.value) ||
      cmp(a.record.id, b.record.id),
  );
  return keyed;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Host fields of `data` come normalised without their final dot, so the root name `.` (an HTTPS
 * record's "same name" target) reads back as ''; the file spells it `.`, which normalises the same.
 */
function dataEntry(data: Record<string, unknown>): Record<string, unknown> {
  const out = { ...data };
  for (const k of HOST_DATA_FIELDS) if (out[k] === '') out[k] = '.';
  return out;
}

/**
 * Host content comes normalised the same way: a null MX (RFC 7505, content `.`) reads back as '',
 * which the validator refuses ("needs content"). Where `.` normalises to '' for the type, the
 * file spells it `.`; for other types '' is the value itself.
 */
function contentEntry(type: string, content: string): string {
  return content === '' && normContent(type, '.') === '' ? '.' : content;
}

/**
 * The file form of a live record; only the fields the planner compares, defaults left out. `name`
 * is its name as the file writes it (exportedName).
 */
export function recordEntry(r: LiveRecord, zone: string, name = exportedName(r.name, zone)): Entry {
  const e: Entry = { name, type: r.type };
  if (r.data) e.data = dataEntry(r.data);
  else e.content = contentEntry(r.type, r.content ?? '');
  // the keys in the schema's order (./schema.ts), the one `zoneplan fmt` writes: ttl, proxied, priority
  e.ttl = r.ttl === 1 ? 'auto' : r.ttl;
  if (r.proxied) e.proxied = true;
  // SRV carries its priority inside `data`; MX and URI beside it.
  if (r.priority !== undefined && PRIORITY_TYPES.has(r.type) && !(r.data && 'priority' in r.data)) {
    e.priority = r.priority;
  }
  // the shared fields (the record model's), each only when it says something
  const fields = r as unknown as Record<string, unknown>;
  for (const field of MANAGED_FIELDS) {
    const value = exportForm(field, fields[field.name]);
    if (value !== undefined) e[field.name] = value;
  }
  return e;
}

function describe(r: LiveRecord, zone: string): string {
  const value = r.value === '' ? "''" : r.value.length > 120 ? `${r.value.slice(0, 117)}...` : r.value;
  return `${relativeName(r.name, zone)} ${r.type} ${value}`;
}

/** Splits the records into those the file can hold and those it cannot (with the first reason). */
function partition(records: Named[], zone: string, ctx: ExportContext) {
  // records and their entries side by side, index for index
  let kept: LiveRecord[] = [];
  let entries: Entry[] = [];
  const rejected: { record: LiveRecord; reason: string }[] = [];
  const nameOf = exportedNames(zone);
  for (const { record, rel } of records) {
    const entry = recordEntry(record, zone, nameOf(record.name, rel));
    // `${env:` with no `}` after it cannot be spelled in the file (../../core/export/escape.ts)
    const at = firstUnspellable(entry);
    if (at === undefined) {
      kept.push(record);
      entries.push(entry);
      continue;
    }
    rejected.push({
      record,
      reason: `its ${at.join('.')} holds \`\${env:\` with no closing \`}\`, which the file cannot spell`,
    });
  }
  // A record can fail only because of another (a CNAME beside it); two rounds settle that.
  for (let round = 0; round < 3; round++) {
    const problems = ctx.check({ records: entries });
    const bad = new Map<number, string>();
    for (const p of problems) {
      const i = itemIndex(p.path, 'records');
      if (i !== undefined && !bad.has(i)) bad.set(i, p.message);
    }
    if (bad.size === 0) break;
    // in record order, whatever order the check found them in
    const found = [...bad].sort(([a], [b]) => a - b);
    rejected.push(...found.map(([i, reason]) => ({ record: kept[i], reason })));
    const fine = (_: unknown, i: number) => !bad.has(i);
    [kept, entries] = [kept.filter(fine), entries.filter(fine)];
  }
  return { kept, entries, rejected };
}

/**
 * The `ignore` pattern that keeps one record out of the plan. It must itself validate (a glob is
 * never empty: '' content is left out, so name and type alone match) and be spellable (a `$` of
 * `${env:` becomes the glob's `?`). Name and content are globs, so `*` and `?` in them match
 * themselves and possibly more: an ignore entry can only keep records, never delete one.
 */
export function ignoreEntry(record: LiveRecord, zone: string): Entry {
  const e: Entry = { name: spellableGlob(relativeName(record.name, zone)), type: record.type };
  if (record.value !== '') e.content = spellableGlob(record.value);
  return e;
}

export function exportDns(raw: unknown, ctx: ExportContext): ExportResult {
  const live = raw as DnsLive;
  const zone = ctx.owner.name;
  const { kept, entries: records, rejected } = partition(sortRecords(live.records, zone), zone, ctx);
  const value: Entry = { purge: !ctx.part };
  const layout: LayoutHint[] = [
    ctx.part
      ? { path: ['purge'], comment: 'off: the other files manage the rest of the zone' }
      : { path: ['purge'], comment: 'delete live records this file does not name (ignored ones excepted)' },
  ];
  const notes: string[] = [];

  if (rejected.length > 0) {
    // Ignored records are still planned when the file names their name and type; purging would
    // then delete them, so purge is turned off for such a zone instead.
    const named = new Set(kept.map((r) => `${r.name}\u0000${r.type}`));
    const clash = rejected.some((x) => named.has(`${x.record.name}\u0000${x.record.type}`));
    if (clash && !ctx.part) {
      value.purge = false;
      layout[0] = {
        path: ['purge'],
        comment:
          'off: a record below that zoneplan cannot manage shares its name and type with a managed one',
      };
    }
    value.ignore = rejected.map(({ record }) => ignoreEntry(record, zone));
    rejected.forEach(({ record, reason }, i) => {
      layout.push({
        path: ['ignore', i],
        flow: true,
        commentBefore: `not managed (the file cannot express it): ${describe(record, zone)}\n  ${reason}`,
      });
      notes.push(`${zone}: left out ${describe(record, zone)}: ${reason}`);
    });
    layout.push({
      path: ['ignore'],
      commentBefore: 'live records zoneplan cannot express yet; they are left alone',
    });
  }

  value.records = records;
  const recordsNote =
    live.serviceManaged.length > 0
      ? `${live.serviceManaged.length} record(s) the service manages itself (apex NS, locked or auto-added ones) are left out`
      : undefined;
  if (recordsNote) layout.push({ path: ['records'], commentBefore: recordsNote });
  // one line per record, a blank line between names
  const blankBefore: number[] = [];
  for (let i = 1; i < kept.length; i++) if (kept[i - 1].name !== kept[i].name) blankBefore.push(i);
  layout.push({ path: ['records'], lines: true, blankBefore });
  return {
    value,
    layout,
    notes,
    // every record was looked through (partition); the few ignore entries are looked at here
    spellable: value.ignore === undefined || firstUnspellable(value.ignore) === undefined,
    counts: {
      records: records.length,
      'not managed': rejected.length,
      'service-managed': live.serviceManaged.length,
    },
  };
}
