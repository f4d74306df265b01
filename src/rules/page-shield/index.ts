/**
 * Page Shield rules shared by the offline validator (src/kinds/page-shield) and the local API
 * (src/server): CSP policy fields (action, rule expression, CSP directive value, enabled) and the
 * malicious-script classification. Pure functions: no I/O, nothing imported from either side.
 */
export {
  MALICIOUS_SCRIPT_THRESHOLD,
  MAX_POLICY_DESCRIPTION_LENGTH,
  POLICY_ACTIONS,
  POLICY_FIELDS,
  isMaliciousScript,
  parsePolicyEnabled,
  validateCspPolicy,
  type CspPolicyFields,
  type PolicyAction,
  type Violation,
} from './policy.js';
export { MAX_EXPRESSION_LENGTH, checkExpression, type ExpressionError } from './expression.js';
export { CSP_KEYWORDS, FETCH_DIRECTIVES, checkCspValue, checkSource } from './csp.js';
