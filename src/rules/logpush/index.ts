/**
 * Logpush rules shared by the offline validator (src/kinds/logpush) and the local API
 * (src/server): the filter grammar and its limits, the operator counter, the canonical filter form,
 * datasets, job fields and destinations. Pure functions: no I/O, nothing imported from either side.
 *
 * Every check returns `Violation[]` (`{path, message}`); an empty array means valid.
 */
export type { Violation } from './violation.js';
export {
  ARRAY_OPERATORS,
  FILTER_OPERATORS,
  MAX_FILTER_BYTES,
  MAX_FILTER_OPERATORS,
  canonicalFilterJson,
  countFilterOperators,
  filterByteLength,
  sameFilter,
  validateFilter,
  type FilterCondition,
  type FilterNode,
  type FilterOperator,
  type FilterScalar,
  type LogpushFilter,
} from './filter.js';
export {
  KNOWN_DESTINATION_SCHEMES,
  MAX_DESTINATION_CONF_LENGTH,
  OWNERSHIP_CHALLENGE_SCHEMES,
  destinationSecrets,
  isTokenSegment,
  replaceTokenSegments,
  isCredentialParam,
  maskDestination,
  maskedDestinationParts,
  needsOwnershipChallenge,
  ownershipKey,
  parseDestination,
  validateDestinationConf,
  type ParsedDestination,
} from './destination.js';
export {
  JOB_DEFAULTS,
  JOB_FIELDS,
  JOB_NAME_PATTERN,
  MAX_JOB_NAME_LENGTH,
  MAX_UPLOAD_RANGES,
  OUTPUT_OPTION_TYPES,
  OUTPUT_TYPES,
  STORED_JOB_FIELDS,
  TIMESTAMP_FORMATS,
  UPLOAD_FIELDS,
  ZONE_DATASETS,
  isUploadField,
  validateJobName,
  validateLogpushJob,
  validateMaxUpload,
  validateOutputOptions,
  type JobCheckOptions,
  type StoredJobField,
  type UploadField,
} from './job.js';
