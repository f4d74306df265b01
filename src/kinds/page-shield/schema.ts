import type { JsonSchema } from '../../config/json-schema.js';

/**
 * JSON Schema fragment for a zone's `page_shield`. Shapes only: the CSP syntax of `expression` and
 * `value` is checked by validate.ts with the shared rules of src/rules/page-shield/, so that the
 * message can say where inside the string the problem is.
 */
export const pageShieldSchema: JsonSchema = {
  type: 'object',
  title: 'Page Shield',
  description:
    'Page Shield of the zone: the feature switch, the CSP policies that log or block scripts, and a ' +
    'ceiling on detected malicious scripts that makes plan and drift fail.',
  additionalProperties: false,
  properties: {
    enabled: {
      type: 'boolean',
      title: 'Page Shield enabled',
      description: 'Turns Page Shield on or off for the zone. Omitted: left as it is.',
    },
    purge: {
      type: 'boolean',
      default: true,
      title: 'Delete unnamed policies',
      description:
        'Delete live CSP policies whose description the file does not name (default true). ' +
        'Ignored when `policies` is omitted: then no policy is managed.',
    },
    policies: {
      type: 'array',
      title: 'CSP policies',
      description: 'Content security policies. Identity is the description, which must be unique.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['description', 'action', 'expression', 'value'],
        properties: {
          description: {
            type: 'string',
            minLength: 1,
            title: 'Description',
            description: 'Names the policy; the identity by which it is matched with the live one.',
          },
          renamed_from: {
            type: 'string',
            minLength: 1,
            title: 'Renamed from',
            description:
              'The description the live policy has now: the policy is renamed in place (same id, no gap ' +
              'without it). Matching nothing live is a warning. Remove it once applied.',
          },
          action: {
            enum: ['log', 'allow', 'add_reporting_directives'],
            title: 'Action',
            description:
              '`log`: violations are recorded, scripts are not blocked. `allow`: scripts the policy ' +
              'does not allow are blocked. `add_reporting_directives`: adds reporting directives only.',
          },
          expression: {
            type: 'string',
            minLength: 1,
            title: 'Expression',
            description: 'Rule expression selecting the traffic, e.g. `http.host eq "example.com"`.',
          },
          value: {
            type: 'string',
            minLength: 1,
            title: 'CSP directives',
            description:
              "CSP directive string, e.g. `script-src 'self' https://cdn.example.com`; several " +
              'directives are separated by `;`.',
          },
          enabled: {
            type: 'boolean',
            default: true,
            title: 'Enabled',
            description: 'Whether the policy is in force (default true).',
          },
        },
      },
    },
    max_malicious_scripts: {
      type: 'integer',
      minimum: 0,
      title: 'Malicious script ceiling',
      description:
        'plan and drift fail (exit 1) when more malicious scripts (js_integrity_score below 10), ' +
        'active or infrequent, are detected. Scripts without a score are unknown and never counted.',
    },
  },
};
