/**
 * The checks that need more than the schema: every kind's own `validate` (run only on values the
 * schema accepted, so kinds may trust the shape) and the rules across entries of the document
 * (a zone name or an account id may appear once).
 */
import type { ValidateContext } from '../core/kind.js';
import { allKinds } from '../kinds/index.js';
import { childPath } from './paths.js';
import type { SharedOwner } from './shared-owners.js';
import { isObject, type Entry } from '../rules/shared/values.js';

export type SemanticReport = (path: string, message: string, severity: 'error' | 'warning') => void;

/**
 * Runs the semantic checks. `schemaFailed(path)` says whether the schema reported a problem at or
 * under `path`; such values are skipped. The kinds' checks of the owners `shared` names (declared
 * in several files) are left to the merged entry.
 */
export function checkSemantics(
  document: unknown,
  schemaFailed: (path: string) => boolean,
  report: SemanticReport,
  shared?: SharedOwner,
) {
  if (!isObject(document)) return;
  checkUnique(document.zones, 'zones', 'name', 'zone', (v) => v.toLowerCase().replace(/\.$/, ''), report);
  checkUnique(document.accounts, 'accounts', 'id', 'account', (v) => v.toLowerCase(), report);
  for (const kind of allKinds()) {
    if (!kind.key || !kind.validate) continue;
    const list = kind.scope === 'zone' ? document.zones : document.accounts;
    if (!Array.isArray(list)) continue;
    const listName = kind.scope === 'zone' ? 'zones' : 'accounts';
    list.forEach((owner, i) => {
      if (!isObject(owner) || owner[kind.key] === undefined) return;
      // an owner of several files is checked whole, once merged (./shared-owners.ts)
      if (shared?.(listName, owner)) return;
      const path = childPath(childPath(listName, i), kind.key);
      if (schemaFailed(path) && !kind.validatesPartly) return;
      const ctx = contextFor(path, owner, document, report, schemaFailed);
      try {
        kind.validate!(owner[kind.key], ctx);
      } catch (err) {
        // A crash in a kind's checks is a bug, but the user still gets every other diagnostic.
        const why = err instanceof Error ? err.message : String(err);
        report(path, `internal error in the ${kind.key} checks (please report it): ${why}`, 'error');
      }
    });
  }
}

/**
 * Kinds may report a full path (`zones[0].dns.records[2].ttl`), a path relative to their value
 * (`records[2].ttl`, `.purge`, `[0]`), or '' for the value itself.
 */
export function resolveKindPath(base: string, path: string): string {
  if (!path) return base;
  if (path === base || path.startsWith(base + '.') || path.startsWith(base + '[')) return path;
  if (/^(zones|accounts|target|version)([.[]|$)/.test(path)) return path;
  if (path.startsWith('.') || path.startsWith('[')) return base + path;
  return `${base}.${path}`;
}

function contextFor(
  path: string,
  owner: Entry,
  document: Entry,
  report: SemanticReport,
  schemaFailed: (path: string) => boolean,
): ValidateContext {
  return {
    path,
    owner,
    document,
    error: (p, message) => report(resolveKindPath(path, p), message, 'error'),
    warn: (p, message) => report(resolveKindPath(path, p), message, 'warning'),
    schemaFailed: (p) => schemaFailed(resolveKindPath(path, p)),
  };
}

function checkUnique(
  list: unknown,
  listName: string,
  key: string,
  what: string,
  normalise: (v: string) => string,
  report: SemanticReport,
) {
  if (!Array.isArray(list)) return;
  const first = new Map<string, number>();
  list.forEach((entry, i) => {
    if (!isObject(entry) || typeof entry[key] !== 'string') return;
    const id = normalise(entry[key] as string);
    const earlier = first.get(id);
    if (earlier === undefined) first.set(id, i);
    else {
      const where = childPath(childPath(listName, i), key);
      report(
        where,
        `${what} \`${entry[key] as string}\` is already declared at ${listName}[${earlier}]`,
        'error',
      );
    }
  });
}
