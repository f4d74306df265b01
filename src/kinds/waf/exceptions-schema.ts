import { ID32_ANY_CASE_PATTERN } from '../../rules/shared/values.js';
import type { JsonSchema } from '../../config/json-schema.js';
import { OVERRIDE_ACTIONS } from '../../rules/waf/index.js';
import { PARANOIA_LEVELS, RULESET_SHORT_NAMES, SCORE_LEVELS, SENSITIVITY_LEVELS } from './exceptions.js';

/**
 * JSON Schema fragment for `waf.managed_rulesets`: the exceptions of each managed ruleset the zone
 * executes (docs/kinds/waf.md, "Exceptions"). Which rule ids and categories exist is checked at plan
 * time against the catalogue the API serves.
 */
/** A managed rule's id: an exception names it, and so does an override of the entry point (./schema.ts). */
export const ruleIdSchema: JsonSchema = {
  title: 'Rule id',
  description: 'Id of the managed rule (32 hexadecimal characters).',
  type: 'string',
};

const action: JsonSchema = {
  title: 'Action',
  description: "The action that replaces the rules' default action.",
  type: 'string',
  enum: [...OVERRIDE_ACTIONS],
};
const enabled: JsonSchema = { title: 'Enabled', description: 'false turns the rules off.', type: 'boolean' };
const sensitivity: JsonSchema = {
  title: 'Sensitivity level',
  description: 'How readily the rules match (`default`, `medium`, `low`, `eoff`: essentially off).',
  type: 'string',
  enum: [...SENSITIVITY_LEVELS],
};

const category: JsonSchema = {
  title: 'Category exception',
  description: 'Every rule of the ruleset tagged with this category. A rule exception wins over it.',
  type: 'object',
  additionalProperties: false,
  required: ['category'],
  properties: {
    category: {
      title: 'Category',
      description: 'A category (tag) of the managed rules, e.g. wordpress or paranoia-level-3.',
      type: 'string',
      minLength: 1,
    },
    action,
    enabled,
    sensitivity_level: sensitivity,
  },
};

const rule: JsonSchema = {
  title: 'Rule exception',
  description: 'One rule of the ruleset, by id. It wins over category and ruleset exceptions.',
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: { ...ruleIdSchema, pattern: ID32_ANY_CASE_PATTERN },
    action,
    enabled,
    score_threshold: {
      title: 'Score threshold',
      description: 'The anomaly score at which the OWASP score rule (949110) acts.',
      type: 'integer',
      minimum: 1,
    },
    sensitivity_level: sensitivity,
  },
};

export const managedRulesetsSchema: JsonSchema = {
  title: 'Managed rulesets',
  description:
    'One entry per managed ruleset the zone executes, with its exceptions. The file owns the whole override ' +
    'set of each ruleset it names: an exception removed here is removed live. Other rules of the phase are kept.',
  type: 'array',
  items: {
    title: 'Managed ruleset',
    description: 'A managed ruleset the zone executes, and its exceptions.',
    type: 'object',
    additionalProperties: false,
    required: ['ruleset'],
    properties: {
      ruleset: {
        title: 'Ruleset',
        description: `A short name (${Object.keys(RULESET_SHORT_NAMES).join(', ')}) or the ruleset's 32-hex id.`,
        type: 'string',
        examples: Object.keys(RULESET_SHORT_NAMES),
      },
      action: {
        ...action,
        description:
          'Every rule of the ruleset; for owasp, the action of the score rule (when the score is exceeded).',
      },
      enabled: {
        ...enabled,
        description: 'false turns off every rule that no category or rule exception enables.',
      },
      sensitivity_level: sensitivity,
      paranoia_level: {
        title: 'Paranoia level',
        description: 'owasp only: N disables the categories paranoia-level-(N+1) to paranoia-level-4.',
        type: 'integer',
        enum: [...PARANOIA_LEVELS],
      },
      score_threshold: {
        title: 'Score threshold',
        description: `owasp only: ${Object.entries(SCORE_LEVELS)
          .map(([k, v]) => `${k} (${v})`)
          .join(', ')}, or a number; the score at which the score rule (949110) acts.`,
        anyOf: [
          { type: 'string', enum: Object.keys(SCORE_LEVELS) },
          { type: 'integer', minimum: 1 },
        ],
      },
      report_new_rules: {
        title: 'Report new rules',
        description:
          'true: `drift` exits 2 when the provider added or removed rules since the version the last apply saw, and apply records the version reviewed.',
        type: 'boolean',
      },
      categories: {
        title: 'Category exceptions',
        description: 'Exceptions for every rule of a category; a rule exception wins over them.',
        type: 'array',
        items: category,
      },
      rules: {
        title: 'Rule exceptions',
        description: 'Exceptions for single rules, by id; they win over category and ruleset exceptions.',
        type: 'array',
        items: rule,
      },
    },
  },
};
