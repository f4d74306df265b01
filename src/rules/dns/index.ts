/**
 * The DNS rules of the spec as pure functions, shared by the local API (src/server) and the
 * offline validator. Nothing here does I/O or imports either side.
 *
 * Typical use:
 * - `checkRecord(body, {name: zone, plan})` -> `{record}` (normalised) or `{violations}`;
 * - `conflictWith(record, recordsAtSameName)`, `checkCnameChain(record, zone, lookup)`,
 *   `checkKeepsAddress(before, after, zone)` on the zone's final state;
 * - `fullName` / `relativeName` to move between `@`/relative names and full lower-case names;
 * - `canonicalIpv4` / `canonicalIpv6` / `providerRangeOf` for addresses;
 * - RECORD_MODEL (./model.ts) and MANAGED_FIELDS (./fields.ts): the one description of each type
 *   and of the fields every type shares, from which the rest is derived.
 * Every violation is `{code, message, chain?}` with the real API's codes (violation.ts).
 */
export {
  CODES,
  LOCAL_CODES,
  DNS_VALIDATION_ERROR,
  dnsError,
  isViolation,
  violationText,
  type ChainItem,
  type Violation,
} from './violation.js';
export {
  PROVIDER_IPV4_CIDRS,
  PROVIDER_IPV6_CIDRS,
  parseIpv4,
  parseIpv6,
  formatIpv4,
  formatIpv6,
  canonicalIpv4,
  canonicalIpv6,
  providerRangeOf,
  isNonRoutable,
  ipv4Value,
  canonicalIpv6Top,
} from './ip.js';
export {
  MAX_NAME_LENGTH,
  MAX_LABEL_LENGTH,
  HOST_NAMED_TYPES,
  normaliseZoneName,
  fullName,
  relativeName,
  isInZone,
  checkRecordName,
  isHostname,
  normaliseHostname,
} from './names.js';
export {
  RECORD_TYPES,
  RETIRED_TYPES,
  PROXIABLE_TYPES,
  PRIORITY_TYPES,
  SERVICE_MANAGED_TYPES,
  TTL_AUTO,
  TTL_AUTO_SECONDS,
  TTL_MAX,
  isRecordType,
  isProxiable,
  checkType,
  minTtl,
  checkTtl,
  effectiveTtl,
  checkProxied,
  withArticle,
  type RecordType,
} from './types.js';
export {
  DATA_FIELDS,
  HOST_DATA_FIELDS,
  hasData,
  hasOpenTail,
  tokenize,
  formatContent,
  parseContent,
  checkValue,
  type RecordValue,
} from './content.js';
export { canonicalValue, canonicalTags } from './normal-form.js';
export {
  RECORD_MODEL,
  DATA_FIELD_HELP,
  modelOf,
  typesWhere,
  type RecordTypeModel,
  type ContentKind,
  type DataFieldKind,
} from './model.js';
export {
  MANAGED_FIELDS,
  MANAGED_FIELD_NAMES,
  TAG_PATTERN,
  checkTags,
  managedFieldOf,
  misappliedSetting,
  isDefaultStored,
  type ManagedField,
  type ManagedFieldModel,
  type ManagedFieldName,
  type SettingModel,
  type StoredFields,
  type GivenFields,
} from './fields.js';
export { recordBody, BODY_FIELDS } from './body.js';
export { checkRecord, type NormalisedRecord, type ZoneContext, type RecordCheck } from './record.js';
export {
  conflictWith,
  conflictsIn,
  sameValue,
  checkCnameChain,
  indexByName,
  hasAddressRecord,
  checkKeepsAddress,
  type ZoneRecord,
} from './zone-rules.js';
export {
  PLAN_LIMITS,
  FREE_OLDER_ZONES,
  COMMENT_LENGTH_ANY_PLAN,
  QUOTA_CODES,
  RECORD_QUOTA_MESSAGE,
  limitsOf,
  recordQuotaOf,
  planFieldViolation,
  recordQuotaViolation,
  tagQuotaViolation,
  type PlanLimits,
  type PlanName,
} from './plan-limits.js';
