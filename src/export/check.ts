/**
 * Checks an exported value with the very rules `zoneplan validate` applies (the composed JSON
 * Schema, then the kind's semantic checks), as the only value of a one-owner document. Exporters use
 * it to find what the file format cannot express; the driver uses it on the whole export as a last
 * check. Missing `${env:NAME}` variables are not looked up here: the values stay as written.
 */
import { checkSchema } from '../config/schema-check.js';
import { ProblemPaths } from '../config/paths.js';
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
  if (scope === 'zone' && key === 'dns') return checkDnsRecords(owner, value, full) ?? full(value);
  return full(value);
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
