/**
 * CSP policies: normalisation and the pure pairing of desired and live policies. Identity is the
 * description (docs/reference/design.md section 2). No I/O here; the runtime turns the changes into steps.
 */
import type { DesiredCspPolicy } from './desired.js';
import { parsePolicyEnabled } from '../../rules/page-shield/index.js';
import { resolveRename } from '../shared/renames.js';

/** The fields of a policy that the file manages, normalised so equal meanings compare equal. */
export interface PolicyFields {
  description: string;
  action: string;
  expression: string;
  value: string;
  enabled: boolean;
}

export interface LivePolicy extends PolicyFields {
  id: string;
}

export type PolicyChange =
  | { action: 'create'; description: string; after: PolicyFields; path?: string }
  | {
      action: 'update';
      description: string;
      id: string;
      before: PolicyFields;
      after: PolicyFields;
      /** names of the fields that differ, in a stable order */
      changed: (keyof PolicyFields)[];
      path?: string;
      /** the live description, when the update renames the policy (`renamed_from`) */
      renamedFrom?: string;
    }
  | { action: 'delete'; description: string; id: string; before: PolicyFields; duplicate?: boolean };

const FIELDS: (keyof PolicyFields)[] = ['description', 'action', 'expression', 'value', 'enabled'];

/** What planning needs beside the two lists: where a policy is in the file, and the warning channel. */
export interface PolicyPlanOptions {
  locate?: (path: string) => string | undefined;
  warn?: (message: string) => void;
}

/**
 * The API documents `enabled` of a policy as a string with the text true, the OpenAPI as a boolean;
 * both are read (the shared rule), and anything else is false (off is the safe reading).
 */
export function parseEnabled(raw: unknown): boolean {
  return parsePolicyEnabled(typeof raw === 'string' ? raw.trim().toLowerCase() : raw) ?? false;
}

/** Whitespace runs inside a CSP value carry no meaning, nor does a trailing `;`. */
export function normaliseCspValue(value: string): string {
  return value
    .split(';')
    .map((directive) => directive.trim().split(/\s+/).join(' '))
    .filter((directive) => directive !== '')
    .join('; ');
}

/** Whitespace outside quoted strings carries no meaning in a rule expression. */
export function normaliseExpression(expression: string): string {
  let out = '';
  let quoted = false;
  let pendingSpace = false;
  for (let i = 0; i < expression.length; i++) {
    const ch = expression[i];
    if (quoted) {
      out += ch;
      if (ch === '\\' && i + 1 < expression.length) out += expression[++i];
      else if (ch === '"') quoted = false;
      continue;
    }
    if (/\s/.test(ch)) {
      pendingSpace = out !== '';
      continue;
    }
    if (pendingSpace) out += ' ';
    pendingSpace = false;
    out += ch;
    if (ch === '"') quoted = true;
  }
  return out;
}

export function desiredPolicyFields(p: DesiredCspPolicy): PolicyFields {
  return {
    description: p.description,
    action: p.action,
    expression: normaliseExpression(p.expression),
    value: normaliseCspValue(p.value),
    enabled: p.enabled ?? true,
  };
}

/** Reads one policy of a list or get response defensively; a policy without an id is skipped. */
export function livePolicyFromApi(raw: unknown): LivePolicy | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.id !== 'string' || r.id === '') return undefined;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    id: r.id,
    description: str(r.description),
    action: str(r.action),
    expression: normaliseExpression(str(r.expression)),
    value: normaliseCspValue(str(r.value)),
    enabled: parseEnabled(r.enabled),
  };
}

/**
 * Pairs desired and live policies by description. Live policies are taken in id order so the
 * pairing is stable when the API holds several with one description: the first pairs, the others
 * are deleted as duplicates when purging. With `desired` undefined, no policy is managed at all.
 */
export function planPolicies(
  desired: DesiredCspPolicy[] | undefined,
  live: LivePolicy[],
  purge = true,
  options: PolicyPlanOptions = {},
): PolicyChange[] {
  if (desired === undefined) return [];
  const byDescription = new Map<string, LivePolicy[]>();
  for (const p of [...live].sort((a, b) => a.id.localeCompare(b.id))) {
    const list = byDescription.get(p.description) ?? [];
    list.push(p);
    byDescription.set(p.description, list);
  }
  const changes: PolicyChange[] = [];
  const named = new Set<string>();
  for (const d of desired) {
    const after = desiredPolicyFields(d);
    named.add(after.description);
    let match = byDescription.get(after.description)?.[0];
    let renamedFrom: string | undefined;
    if (d.renamed_from !== undefined) {
      const old = resolveRename({
        current: match,
        old: byDescription.get(d.renamed_from)?.[0],
        what: `policy "${after.description}"`,
        from: d.renamed_from,
        at: options.locate?.(d.path),
        warn: options.warn,
      });
      if (old) {
        match = old;
        renamedFrom = d.renamed_from;
        // the old description's other live policies are its duplicates, deleted with purge
        named.add(d.renamed_from);
      }
    }
    if (!match) {
      changes.push({ action: 'create', description: after.description, after, path: d.path });
      continue;
    }
    const { id, ...before } = match;
    const changed = FIELDS.filter((f) => before[f] !== after[f]);
    if (changed.length > 0) {
      changes.push({
        action: 'update',
        description: after.description,
        id,
        before,
        after,
        changed,
        path: d.path,
        ...(renamedFrom !== undefined ? { renamedFrom } : {}),
      });
    }
  }
  if (!purge) return changes;
  for (const [description, list] of byDescription) {
    const extra = named.has(description) ? list.slice(1) : list;
    for (const { id, ...before } of extra) {
      changes.push({ action: 'delete', description, id, before, duplicate: named.has(description) });
    }
  }
  return changes;
}

/**
 * The body of a POST or PUT: every field, `enabled` a boolean as the published schema and the official
 * SDK send it (the docs' examples show the string "true"; reads accept both, see parseEnabled).
 */
export function policyBody(fields: PolicyFields): Record<string, unknown> {
  return {
    description: fields.description,
    action: fields.action,
    expression: fields.expression,
    value: fields.value,
    enabled: fields.enabled,
  };
}
