/**
 * Page Shield (CSP) policy fields and the malicious-script rule, shared by the validator and the
 * local API. A policy: `description`, `action`, `expression`, `enabled`, `value`; all five are
 * required on create, any subset on update. `enabled` is accepted as a boolean or the strings
 * "true"/"false" (the spec's examples send a string) and always returned as a boolean.
 */
import { checkCspValue } from './csp.js';
import { checkExpression } from './expression.js';

export interface Violation {
  path: string;
  message: string;
}

export const POLICY_ACTIONS = ['log', 'allow', 'add_reporting_directives'] as const;
export type PolicyAction = (typeof POLICY_ACTIONS)[number];
export const POLICY_FIELDS = ['description', 'action', 'expression', 'enabled', 'value'] as const;
export const MAX_POLICY_DESCRIPTION_LENGTH = 1024;

export interface CspPolicyFields {
  description: string;
  action: PolicyAction;
  expression: string;
  enabled: boolean;
  value: string;
}

/** "true"/"false"/boolean -> boolean; anything else undefined. */
export function parsePolicyEnabled(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

/**
 * Checks a policy body. `partial` (update) allows any subset of the fields. Returns the
 * problems and, when there are none, the normalised fields that were present.
 */
export function validateCspPolicy(
  body: unknown,
  opts: { partial: boolean },
): { violations: Violation[]; fields: Partial<CspPolicyFields> } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { violations: [{ path: '', message: 'the body must be a JSON object' }], fields: {} };
  }
  const input = body as Record<string, unknown>;
  const out: Violation[] = [];
  const fields: Partial<CspPolicyFields> = {};
  for (const key of Object.keys(input)) {
    if (key !== 'id' && !(POLICY_FIELDS as readonly string[]).includes(key)) {
      out.push({ path: key, message: `is not a field of a policy (${POLICY_FIELDS.join(', ')})` });
    }
  }
  for (const field of POLICY_FIELDS) {
    if (input[field] === undefined) {
      if (!opts.partial) out.push({ path: field, message: 'is required' });
      continue;
    }
    const problem = checkField(field, input[field]);
    if (problem) out.push({ path: field, message: problem });
  }
  if (out.length === 0) {
    for (const field of POLICY_FIELDS) {
      if (input[field] === undefined) continue;
      (fields as Record<string, unknown>)[field] =
        field === 'enabled' ? parsePolicyEnabled(input[field]) : input[field];
    }
  }
  return { violations: out, fields };
}

function checkField(field: (typeof POLICY_FIELDS)[number], value: unknown): string | undefined {
  switch (field) {
    case 'description':
      if (typeof value !== 'string') return 'must be a string';
      if (value.length > MAX_POLICY_DESCRIPTION_LENGTH)
        return `is longer than ${MAX_POLICY_DESCRIPTION_LENGTH} characters`;
      return undefined;
    case 'action':
      return typeof value === 'string' && (POLICY_ACTIONS as readonly string[]).includes(value)
        ? undefined
        : `must be one of ${POLICY_ACTIONS.join(', ')}`;
    case 'enabled':
      return parsePolicyEnabled(value) === undefined
        ? 'must be true or false (a boolean or the string "true"/"false")'
        : undefined;
    case 'expression': {
      if (typeof value !== 'string') return 'must be a string such as http.host eq "example.com"';
      const err = checkExpression(value);
      return err ? `at column ${err.column}: ${err.message}` : undefined;
    }
    case 'value': {
      if (typeof value !== 'string') return "must be a CSP directive string such as script-src 'self'";
      const problems = checkCspValue(value);
      return problems.length > 0 ? problems.join('; ') : undefined;
    }
  }
}

/** A script is malicious when its js_integrity_score is below this threshold. */
export const MALICIOUS_SCRIPT_THRESHOLD = 10;

/**
 * True when a detected script counts as malicious: js_integrity_score below 10. A missing (or null)
 * score means "not scored yet", which is unknown, never malicious.
 */
export function isMaliciousScript(script: { js_integrity_score?: number | null }): boolean {
  const score = script.js_integrity_score;
  return typeof score === 'number' && Number.isFinite(score) && score < MALICIOUS_SCRIPT_THRESHOLD;
}
