/**
 * Checks an exported value with the very rules `zoneplan validate` applies (the composed JSON
 * Schema, then the kind's semantic checks), as the only value of a one-owner document. Exporters use
 * it to find what the file format cannot express, so every value is checked before it is written.
 * Missing `${env:NAME}` variables are not looked up here: the values stay as written.
 */
import { checkSchema } from '../config/schema-check.js';
import { ProblemPaths } from '../config/paths.js';
import { composeSchema } from '../config/schema.js';
import { checkSemantics } from '../config/semantic.js';
import type { Scope } from '../core/kind.js';
import { checkDnsRecords } from './dns-check.js';
import type { ExportProblem } from './types.js';

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
 * A zone's DNS records go through ./dns-check.ts, which finds the same problems (perhaps in
 * another order) at a fraction of the cost and falls back to the full check when unsure.
 */
export function checkKindValue(
  scope: Scope,
  owner: Record<string, unknown>,
  key: string,
  value: unknown,
): ExportProblem[] {
  const full = (v: unknown) => checkKindValueFully(scope, owner, key, v);
  if (scope === 'zone' && key === 'dns' && zoneEntryAccepted(owner, full)) {
    return checkDnsRecords(owner, value, full) ?? full(value);
  }
  return full(value);
}

type PropertySchema = Record<string, unknown>;
let zoneEntry: { properties: Record<string, PropertySchema>; required: string[] } | undefined;
/** Keywords of a zone entry's own keys that simplyAccepted applies; with any other, ajv decides. */
const SIMPLE = new Set(['type', 'pattern', 'enum', 'description', 'default', 'patternErrorMessage']);
const patterns = new Map<string, RegExp>();

/**
 * Whether the zone entry `owner` (without its kinds) has no problem of its own: then any problem
 * of a `dns` value beside it is the value's. The full check of an empty `dns` value (which has no
 * error of its own) decides, unless the simple tests below accept the entry: the composed schema
 * is then compiled by ajv only when a record needs it, and a CLI export of plain records never
 * pays for it.
 */
function zoneEntryAccepted(owner: Record<string, unknown>, full: (v: unknown) => ExportProblem[]): boolean {
  return simplyAccepted(owner) || full({ records: [] }).length === 0;
}

/**
 * The entry's keys (name, account, type) tested against their schemas in the composed schema
 * itself, where those use only `type: string`, `pattern` (compiled as ajv compiles it, unicode) and
 * `enum`; false when a test fails or cannot be made this way.
 */
function simplyAccepted(owner: Record<string, unknown>): boolean {
  if (!zoneEntry) {
    const zones = (composeSchema().properties as Record<string, PropertySchema>).zones;
    const items = zones.items as PropertySchema;
    zoneEntry = {
      properties: items.properties as Record<string, PropertySchema>,
      required: (items.required as string[] | undefined) ?? [],
    };
  }
  if (!zoneEntry.required.every((k) => owner[k] !== undefined)) return false;
  for (const k in owner) {
    const schema = zoneEntry.properties[k];
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
  const list = scope === 'zone' ? 'zones' : 'accounts';
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

/** The index of the list item a relative path is about: `records[3].ttl` -> 3 for list `records`. */
export function itemIndex(path: string, list: string): number | undefined {
  const m = new RegExp(`^${list.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\[(\\d+)\\]`).exec(path);
  return m ? Number(m[1]) : undefined;
}
