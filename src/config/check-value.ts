/**
 * Checks an exported value with the very rules `zoneplan validate` applies (the composed JSON
 * Schema, then the kind's semantic checks), as the only value of a one-owner document. Exporters use
 * it to find what the file format cannot express, so every value is checked before it is written.
 * Missing `${env:NAME}` variables are not looked up here: the values stay as written.
 */
import { checkSchema } from './schema-check.js';
import { ProblemPaths } from './paths.js';
import { composeSchema } from './schema.js';
import { checkSemantics } from './semantic.js';
import type { ExportProblem } from '../core/export/types.js';
import type { Scope } from '../core/kind.js';
import { allKinds } from '../kinds/index.js';

export interface Problem extends ExportProblem {
  severity: 'error' | 'warning';
}

/** Every problem of a whole document (paths are full: `zones[0].dns.records[2].ttl`). */
export function checkDocument(document: Record<string, unknown>): Problem[] {
  const problems: Problem[] = [];
  const failed = new ProblemPaths();
  for (const p of checkSchema(document)) {
    problems.push({ path: p.path, message: p.message, severity: 'error' });
    failed.add(p.path);
  }
  checkSemantics(
    document,
    (path) => failed.has(path),
    (path, message, severity) => {
      problems.push({ path, message, severity });
    },
  );
  return problems;
}

/**
 * Errors of one kind's value for one owner, with paths relative to the value (`records[3].content`,
 * '' for the value itself). `owner` is the owner entry without the kind's key (name, account, ...).
 * A kind with its own export check (`KindDefinition.export.check`, e.g. a zone's DNS records) gets
 * the value once the owner entry is known to be valid: it finds the same problems (perhaps in another
 * order) at a fraction of the cost, and falls back to the full check when unsure.
 */
export function checkKindValue(
  scope: Scope,
  owner: Record<string, unknown>,
  key: string,
  value: unknown,
): ExportProblem[] {
  const full = (v: unknown) => checkKindValueFully(scope, owner, key, v);
  const fast = allKinds().find((k) => k.scope === scope && k.key === key)?.export?.check;
  if (fast && ownerEntryAccepted(scope, owner)) return fast(owner, value, full) ?? full(value);
  return full(value);
}

type PropertySchema = Record<string, unknown>;
type EntrySchema = { properties: Record<string, PropertySchema>; required: string[] };
const entrySchemas = new Map<Scope, EntrySchema>();
/** Keywords of an owner entry's own keys that simplyAccepted applies; with any other, ajv decides. */
const SIMPLE = new Set(['type', 'pattern', 'enum', 'description', 'default', 'patternErrorMessage']);
const patterns = new Map<string, RegExp>();

/**
 * Whether the owner entry `owner` (without its kinds) has no problem of its own: then any problem
 * of a kind's value beside it is the value's. The full check of the entry alone decides, unless the simple tests below accept the entry: the composed schema
 * is then compiled by ajv only when a value needs it, and a CLI export of plain records never
 * pays for it.
 */
function ownerEntryAccepted(scope: Scope, owner: Record<string, unknown>): boolean {
  if (simplyAccepted(scope, owner)) return true;
  return checkDocument({ version: 1, [listOf(scope)]: [{ ...owner }] }).every((p) => p.severity !== 'error');
}

/**
 * The entry's keys (name, account, type) tested against their schemas in the composed schema
 * itself, where those use only `type: string`, `pattern` (compiled as ajv compiles it, unicode) and
 * `enum`; false when a test fails or cannot be made this way.
 */
function simplyAccepted(scope: Scope, owner: Record<string, unknown>): boolean {
  let entry = entrySchemas.get(scope);
  if (!entry) {
    const list = (composeSchema().properties as Record<string, PropertySchema>)[listOf(scope)];
    const items = list.items as PropertySchema;
    entry = {
      properties: items.properties as Record<string, PropertySchema>,
      required: (items.required as string[] | undefined) ?? [],
    };
    entrySchemas.set(scope, entry);
  }
  if (!entry.required.every((k) => owner[k] !== undefined)) return false;
  for (const k in owner) {
    const schema = entry.properties[k];
    if (!schema || !Object.keys(schema).every((w) => SIMPLE.has(w))) return false;
    const v = owner[k];
    if (v === undefined) continue;
    if (schema.type !== undefined && (schema.type !== 'string' || typeof v !== 'string')) return false;
    if (Array.isArray(schema.enum) && !schema.enum.includes(v)) return false;
    if (typeof schema.pattern === 'string') {
      let re = patterns.get(schema.pattern);
      if (!re) patterns.set(schema.pattern, (re = new RegExp(schema.pattern, 'u')));
      if (typeof v !== 'string' || !re.test(v)) return false;
    }
  }
  return true;
}

/** checkKindValue with the composed schema and every semantic check, whatever the kind. */
export function checkKindValueFully(
  scope: Scope,
  owner: Record<string, unknown>,
  key: string,
  value: unknown,
): ExportProblem[] {
  const list = listOf(scope);
  const document = { version: 1, [list]: [{ ...owner, [key]: value }] };
  const base = `${list}[0].${key}`;
  const out: ExportProblem[] = [];
  for (const p of checkDocument(document)) {
    if (p.severity !== 'error') continue;
    if (p.path === base) out.push({ path: '', message: p.message });
    else if (p.path.startsWith(base + '.') || p.path.startsWith(base + '['))
      out.push({ path: p.path.slice(base.length).replace(/^\./, ''), message: p.message });
    else out.push({ path: '', message: `${p.path}: ${p.message}` });
  }
  return out;
}

const listOf = (scope: Scope) => (scope === 'zone' ? 'zones' : 'accounts');
