/**
 * Notification rules shared by the reconciler (src/kinds/load-balancing) and the local API
 * (src/server): alert types, notification policy fields and the load_balancing_health_alert
 * filters, which policies a pool health change fires, e-mail syntax, and the pools' legacy
 * comma-separated notification_email. Pure functions: no I/O.
 */
export {
  ALERT_TYPES,
  EVENT_SOURCES,
  HEALTH_VALUES,
  LB_HEALTH_ALERT,
  MECHANISM_TYPES,
  POLICY_FIELDS,
  POLICY_REQUIRED_FIELDS,
  policyMatchesHealthEvent,
  validateFilters,
  validateMechanisms,
  validateNotificationPolicy,
  type PolicyCheckOptions,
  type PoolHealthEvent,
  type Violation,
} from './policy.js';
export { MAX_EMAIL_LENGTH, checkNotificationEmail, isValidEmail, splitNotificationEmail } from './email.js';
