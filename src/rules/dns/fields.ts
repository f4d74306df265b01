/**
 * The record fields every type shares beside its value, described once: `comment`, `tags` and
 * `settings`. Each is "managed only when set": a file that leaves it out leaves the live value
 * alone. A field is one entry of MANAGED_FIELDS with a `kind`, and the kind brings everything
 * else: its check and stored form (here), its JSON Schema (src/kinds/dns/schema.ts), the planner's
 * normal form and comparison, its fast check and its export form (src/kinds/dns/field-forms.ts),
 * and its place in the local API's record (src/server/areas/dns). Adding a comment-like field is
 * one line here (docs/kinds/dns.md, "Record types").
 */
import { COMMENT_LENGTH_ANY_PLAN } from './plan-limits.js';
import { LOCAL_CODES, dnsError, isViolation, type Violation } from './violation.js';

/** A per-record setting: which types it applies to (all when absent) and what it means. */
export interface SettingModel {
  readonly description: string;
  readonly types?: readonly string[];
}

/** `note`: a free-text string (null or '' clears it); `tags`: `name:value` strings; `settings`: flags. */
export type ManagedFieldModel = {
  readonly name: string;
  readonly description: string;
  /** the local API stamps `<name>_modified_on` when the value changes (as the real API does) */
  readonly stamped?: boolean;
} & (
  | { readonly kind: 'note'; readonly maxLength: number; readonly oneLine: boolean }
  | { readonly kind: 'tags' }
  | { readonly kind: 'settings'; readonly keys: Readonly<Record<string, SettingModel>> }
);

/** The shared fields, in the order a record body lists them. */
export const MANAGED_FIELDS = [
  {
    name: 'comment',
    kind: 'note',
    // the longest any plan takes; a zone's own plan may allow less (./plan-limits.ts)
    maxLength: COMMENT_LENGTH_ANY_PLAN,
    // the API refuses a newline or carriage return in a comment
    oneLine: true,
    stamped: true,
    description: 'managed only when set; null clears it',
  },
  { name: 'tags', kind: 'tags', stamped: true, description: 'managed only when set; `name:value` or `name`' },
  {
    name: 'settings',
    kind: 'settings',
    description: 'per-record settings',
    keys: {
      ipv4_only: { description: 'A/AAAA proxied: answer with IPv4 only' },
      ipv6_only: { description: 'A/AAAA proxied: answer with IPv6 only' },
      flatten_cname: { description: 'CNAME: flatten this record', types: ['CNAME'] },
    },
  },
] as const satisfies readonly ManagedFieldModel[];

export type ManagedField = (typeof MANAGED_FIELDS)[number];
export type ManagedFieldName = ManagedField['name'];

/** A stored value of each kind (what the local API keeps and returns). */
interface StoredOfKind {
  note: string | null;
  tags: string[];
  settings: Record<string, unknown>;
}

/** The shared fields of a record as stored: every one present, at its default when not sent. */
export type StoredFields = { [F in ManagedField as F['name']]: StoredOfKind[F['kind']] };

/** The shared fields as a file or a request may give them (each optional). */
export type GivenFields = { [F in ManagedField as F['name']]?: StoredOfKind[F['kind']] };

export const MANAGED_FIELD_NAMES: readonly ManagedFieldName[] = MANAGED_FIELDS.map((f) => f.name);

/** The tag pattern of the schema and the fast checks (a name, then `:value` or nothing). */
export const TAG_PATTERN = '^[A-Za-z0-9_-]+(:.*)?$';

export function checkTags(tags: unknown): string[] | Violation {
  if (tags === undefined || tags === null) return [];
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string')) {
    return dnsError(LOCAL_CODES.badTags, '"tags" must be an array of strings such as "name:value".');
  }
  const out: string[] = [];
  for (const t of tags as string[]) {
    const tag = t.trim();
    const colon = tag.indexOf(':');
    const name = colon < 0 ? tag : tag.slice(0, colon);
    if (!/^[A-Za-z0-9_-]+$/.test(name)) {
      return dnsError(
        LOCAL_CODES.badTags,
        `The tag "${t}" must be "name:value" (or "name") with a name of letters, digits, underscores and hyphens.`,
      );
    }
    const norm = colon < 0 ? name.toLowerCase() : name.toLowerCase() + tag.slice(colon);
    if (!out.includes(norm)) out.push(norm);
  }
  return out.sort();
}

/** The line breaks a one-line note may not hold (the API refuses them in a comment). */
export const NOTE_LINE_BREAK = /[\r\n]/;

function checkNote(
  name: string,
  maxLength: number,
  oneLine: boolean,
  value: unknown,
): string | null | Violation {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return dnsError(LOCAL_CODES.badComment, `"${name}" must be a string.`);
  if (value.length > maxLength) {
    return dnsError(LOCAL_CODES.badComment, `"${name}" is longer than ${maxLength} characters.`);
  }
  if (oneLine && NOTE_LINE_BREAK.test(value)) {
    return dnsError(LOCAL_CODES.badComment, `"${name}" may not hold a newline or a carriage return.`);
  }
  return value === '' ? null : value;
}

type Checked = { value: unknown } | { violation: Violation };

function checkSettings(name: string, value: unknown): Checked {
  if (value === undefined || value === null) return { value: {} };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { violation: dnsError(LOCAL_CODES.badContent, `"${name}" must be an object.`) };
  }
  return { value };
}

/** A string, list or null is never a violation; a violation is one. */
const apart = (v: string | string[] | null | Violation): Checked =>
  isViolation(v) ? { violation: v } : { value: v };

/** Whether a stored value is its kind's default (what a record that never set it has). */
export function isDefaultStored(field: ManagedFieldModel, value: unknown): boolean {
  if (field.kind === 'note') return value === null || value === undefined;
  if (field.kind === 'tags') return !Array.isArray(value) || value.length === 0;
  return typeof value !== 'object' || value === null || Object.keys(value).length === 0;
}

/**
 * A shared field's value as sent, checked: the value to store, or the violation (apart, so that
 * no stored value, a settings object among them, is ever taken for one).
 */
export function checkManagedField(field: ManagedFieldModel, value: unknown): Checked {
  switch (field.kind) {
    case 'note':
      return apart(checkNote(field.name, field.maxLength, field.oneLine, value));
    case 'tags':
      return apart(checkTags(value));
    default:
      return checkSettings(field.name, value);
  }
}

/**
 * The shared field a violation of checkManagedField is about (its message names it), so a
 * diagnostic points at that key; undefined for any other violation.
 */
export function managedFieldOf(code: number, message: string): ManagedFieldName | undefined {
  if (code === LOCAL_CODES.badTags) return MANAGED_FIELDS.find((f) => f.kind === 'tags')?.name;
  if (code !== LOCAL_CODES.badComment) return undefined;
  const quoted = /^"([a-z_]+)"/.exec(message)?.[1];
  return MANAGED_FIELDS.find((f) => f.kind === 'note' && f.name === quoted)?.name;
}

/** A setting given for a type it does not apply to: its key and the message, else undefined. */
export function misappliedSetting(
  record: Record<string, unknown>,
  type: string,
): { key: string; message: string } | undefined {
  for (const field of MANAGED_FIELDS) {
    if (field.kind !== 'settings') continue;
    const settings = (record[field.name] ?? {}) as Record<string, unknown>;
    for (const [key, model] of Object.entries(field.keys) as [string, SettingModel][]) {
      if (settings[key] === undefined || model.types === undefined || model.types.includes(type)) continue;
      return {
        key: `${field.name}.${key}`,
        message: `\`${key}\` applies only to ${model.types.join(', ')} records, not ${type}`,
      };
    }
  }
  return undefined;
}
