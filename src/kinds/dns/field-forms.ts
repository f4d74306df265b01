/**
 * The reconciler's side of the record fields every type shares (`comment`, `tags`, `settings`:
 * src/rules/dns/fields.ts MANAGED_FIELDS). Each field has a kind, and each kind one form per use:
 * the planner's normal form of a file value and of a live one, the comparison, the `before` a
 * step shows, the fast check's test (./certify.ts), and the form export and fixtures write. The
 * planner, certify and export loop over MANAGED_FIELDS and call these, so a new field of an
 * existing kind needs nothing here.
 */
import { canonicalJson } from '../../core/canonical.js';
import { HOST_DATA_FIELDS } from '../../rules/dns/content.js';
import { canonicalTags } from '../../rules/dns/normal-form.js';
import {
  MANAGED_FIELDS,
  NOTE_LINE_BREAK,
  TAG_PATTERN,
  type ManagedField,
  type SettingModel,
} from '../../rules/dns/fields.js';
import type { Entry } from '../../rules/shared/values.js';

export function stripDot(s: string): string {
  return s.endsWith('.') ? s.slice(0, -1) : s;
}

/** Whether an object has any own key, without allocating a key list. */
export function hasKeys(o: unknown): o is Record<string, unknown> {
  if (!o || typeof o !== 'object') return false;
  for (const k in o) if (Object.prototype.hasOwnProperty.call(o, k)) return true;
  return false;
}

/**
 * Canonical data object: keys sorted, host-name fields (the model's, by name: a URI `target` too)
 * lower case without the dot.
 */
export function normData(data: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(data).sort()) {
    const v = data[k];
    if (v === undefined || v === null) continue;
    out[k] = HOST_DATA_FIELDS.has(k) && typeof v === 'string' ? stripDot(v.toLowerCase()) : v;
  }
  return out;
}

export const normComment = (c: unknown): string | null => (typeof c === 'string' && c !== '' ? c : null);
const NO_TAGS: string[] = [];
/**
 * Tags as the API stores them (names lower case, deduplicated: the shared rules), sorted; the
 * empty list is one shared array (one fewer allocation per live record).
 */
export const normTags = (t: unknown): string[] =>
  Array.isArray(t) && t.length > 0 ? (canonicalTags(t) ?? [...(t as string[])].sort()) : NO_TAGS;

/** The planner's form of a value the file sets. */
export function desiredForm(field: ManagedField, value: unknown): unknown {
  if (field.kind === 'note') return normComment(value);
  if (field.kind === 'tags') return normTags(value);
  return normData(value as Record<string, unknown>);
}

/**
 * The planner's form of a live value, for each shared field, chosen once in the model's order (a
 * note null when empty, tags [], settings undefined): normLive runs it for every live record of
 * every plan, where a branch on the kind per field and record is measurable.
 */
export const LIVE_FORMS: readonly { name: string; form: (value: unknown) => unknown }[] = MANAGED_FIELDS.map(
  (field) => ({
    name: field.name,
    form:
      field.kind === 'note'
        ? normComment
        : field.kind === 'tags'
          ? normTags
          : (value: unknown) => (hasKeys(value) ? normData(value) : undefined),
  }),
);

/** Live settings restricted to the keys the file sets (the API adds defaults for the others). */
export function settingsView(live: unknown, want: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const have = (live ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(want ?? {})) out[k] = have[k] ?? null;
  return out;
}

/** The live value as a step's `before` shows it beside a desired value `want` sets. */
export function beforeForm(field: ManagedField, live: unknown, want: unknown): unknown {
  return field.kind === 'settings' ? settingsView(live, want) : live;
}

/** Whether a live value says nothing (a delete's `before` leaves it out). */
export function isEmptyLive(field: ManagedField, live: unknown): boolean {
  if (field.kind === 'note') return live === null;
  if (field.kind === 'tags') return Array.isArray(live) && live.length === 0;
  return false;
}

const sameList = (a: string[] | undefined, b: string[] | undefined) =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((x, i) => x === (b ?? [])[i]);

/** Whether the live value already is the desired one (both in the planner's form). */
export function sameValue(field: ManagedField, want: unknown, live: unknown): boolean {
  if (field.kind === 'note') return want === live;
  if (field.kind === 'tags') return sameList(want as string[], live as string[]);
  return canonicalJson(want) === canonicalJson(settingsView(live, want));
}

/**
 * The planner's quick look at a file value as it is (no normal form made): true when it certainly
 * equals the live value, false to look closer. Only notes are compared here; tags and settings
 * always go the long way.
 */
export function quickSame(field: ManagedField, value: unknown, live: unknown): boolean {
  return field.kind === 'note' ? normComment(value) === live : false;
}

/** What export writes for a live value, or undefined when the value says nothing (the default). */
export function exportForm(field: ManagedField, live: unknown): unknown {
  if (field.kind === 'note') return live ? live : undefined;
  if (field.kind === 'tags') return Array.isArray(live) && live.length > 0 ? live : undefined;
  // settings left at their defaults say nothing; written, they would only add noise
  const settings = live as Record<string, unknown> | undefined;
  const set = settings && Object.values(settings).some((v) => v !== false && v !== null && v !== undefined);
  return set ? settings : undefined;
}

/** What a fixtures export writes for a live value (settings as read, whatever their values). */
export function fixtureForm(field: ManagedField, live: unknown): unknown {
  return field.kind === 'settings' ? live : exportForm(field, live);
}

/** the schema's own tag pattern, compiled as ajv compiles patterns (unicode) */
const TAG = new RegExp(TAG_PATTERN, 'u');

function tagsFine(tags: unknown): boolean {
  if (!Array.isArray(tags)) return false;
  for (const t of tags) if (typeof t !== 'string' || !TAG.test(t)) return false;
  return new Set(tags).size === tags.length;
}

function settingsFine(
  keys: Readonly<Record<string, SettingModel>>,
  settings: unknown,
  type: string,
): boolean {
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return false;
  for (const k in settings) {
    const v = (settings as Entry)[k];
    const model = Object.prototype.hasOwnProperty.call(keys, k) ? keys[k] : undefined;
    if (!model || !(v === undefined || typeof v === 'boolean')) return false;
    if (v !== undefined && model.types !== undefined && !model.types.includes(type)) return false;
  }
  return true;
}

/**
 * The fast check (./certify.ts): whether a file value the schema and the rules certainly accept
 * as it is; false sends the record to the full check.
 */
export function plainValue(field: ManagedField, value: unknown, type: string): boolean {
  if (value === undefined) return true;
  if (field.kind === 'note') {
    // the rules count UTF-16 units, the schema code points: up to the limit in units passes both
    if (value === null) return true;
    if (typeof value !== 'string' || value.length > field.maxLength) return false;
    return !(field.oneLine && NOTE_LINE_BREAK.test(value));
  }
  if (field.kind === 'tags') return tagsFine(value);
  return settingsFine(field.keys, value, type);
}
