import type { JsonSchema } from '../../config/json-schema.js';
import { OVERRIDE_ACTIONS } from '../../rules/waf/index.js';
import { RULESET_SHORT_NAMES } from './exceptions.js';
import { managedRulesetsSchema, ruleIdSchema } from './exceptions-schema.js';

/**
 * JSON Schema fragment for a zone's `waf`: the migration from the previous WAF managed rules to the new
 * WAF Managed Rules (irreversible), and, once migrated, the rule overrides of the managed rulesets that
 * the zone's `http_request_firewall_managed` entrypoint executes.
 */
const overrideSchema: JsonSchema = {
  title: 'Managed rule override',
  description:
    'Overrides one rule of a managed ruleset. Identity is the rule `id`. Rules of the entrypoint and overrides ' +
    'the file does not name are kept as they are.',
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: ruleIdSchema,
    action: {
      title: 'Action',
      description: "Action that replaces the rule's default action.",
      type: 'string',
      enum: [...OVERRIDE_ACTIONS],
    },
    enabled: { title: 'Enabled', description: 'false turns the rule off.', type: 'boolean' },
    ruleset: {
      title: 'Managed ruleset',
      description:
        'Id of the managed ruleset the rule belongs to, when the entrypoint executes several. By default the ' +
        'override goes to the execute rule that already overrides this id, else to the first execute rule.',
      type: 'string',
      examples: Object.values(RULESET_SHORT_NAMES).map((r) => r.id),
    },
  },
};

export const wafSchema: JsonSchema = {
  title: 'WAF managed rules',
  description:
    '`previous` leaves the zone on the previous WAF managed rules (nothing is planned). `new` migrates it to ' +
    'the new WAF Managed Rules with the ordered API procedure; the migration cannot be reversed and its ' +
    'irreversible steps run only with `apply --allow-irreversible`.',
  type: 'object',
  additionalProperties: false,
  required: ['managed_rules'],
  properties: {
    managed_rules: {
      title: 'Managed rules version',
      description:
        '`previous` leaves the zone on the previous WAF managed rules; `new` migrates it to the new WAF Managed Rules.',
      type: 'string',
      enum: ['previous', 'new'],
    },
    migration: {
      title: 'Migration',
      description:
        'How the migration runs: `pending` migrates at once; `validation` (Enterprise) runs both versions side by side first.',
      type: 'object',
      additionalProperties: false,
      required: ['mode'],
      properties: {
        mode: {
          title: 'Mode',
          description:
            '`pending` (default) moves straight to the new WAF only. `validation` (Enterprise only) runs both ' +
            'versions, new first, and stops there so security events can be reviewed; changing it to `pending` ' +
            'later completes the migration.',
          type: 'string',
          enum: ['pending', 'validation'],
          default: 'pending',
        },
      },
    },
    delete_uri_overrides: {
      title: 'Delete URI-based overrides',
      description:
        'URI-based overrides of the previous WAF block the migration. true plans their deletion (irreversible, ' +
        'needs `--allow-irreversible`); otherwise the plan stops and lists them.',
      type: 'boolean',
      default: false,
    },
    overrides: {
      title: 'Managed rule overrides',
      description:
        'The short form: single rule overrides, merged into the equivalent configuration during the migration and ' +
        'managed in place after it; overrides it does not name are kept. `managed_rulesets` says more.',
      type: 'array',
      items: overrideSchema,
    },
    managed_rulesets: managedRulesetsSchema,
  },
};
