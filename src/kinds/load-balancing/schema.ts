import type { JsonSchema } from '../../config/json-schema.js';

/**
 * JSON Schema fragment for an account's `load_balancing`: account-level notification policies and the
 * migration away from the legacy per-pool `notification_email`.
 *
 * Strings are left free of `format`/`pattern` where a value may be written as `${env:NAME}`; the
 * offline checks in validate.ts look at them instead (and skip the ones that come from the environment).
 */
const stringList = (title: string, description: string): JsonSchema => ({
  title,
  description,
  type: 'array',
  items: { type: 'string', minLength: 1 },
});

const notificationSchema: JsonSchema = {
  title: 'Notification policy',
  description:
    'An account-level notification policy (alerting v3). Identity is `name`: a policy of that name is ' +
    'updated in place, never duplicated.',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'alert_type'],
  properties: {
    name: {
      title: 'Name',
      description: 'Unique name of the policy in the account (its identity).',
      type: 'string',
      minLength: 1,
    },
    renamed_from: {
      title: 'Renamed from',
      description:
        'The name the live policy has now: the policy is renamed in place (same id, no moment without ' +
        'the alert). Matching nothing live is a warning. Remove it once applied.',
      type: 'string',
      minLength: 1,
    },
    alert_type: {
      title: 'Alert type',
      description: '`load_balancing_health_alert` for pool and origin health changes.',
      type: 'string',
      minLength: 1,
      examples: ['load_balancing_health_alert', 'load_balancing_pool_enablement_alert'],
    },
    description: { title: 'Description', description: 'Free text shown with the policy.', type: 'string' },
    enabled: { title: 'Enabled', description: 'Default true.', type: 'boolean' },
    pools: {
      title: 'Pools',
      description:
        '`all` (every pool of the account, expanded to pool ids when the plan is made and shown in it) or a ' +
        'list of pool names or ids. Sent as the `pool_id` filter.',
      oneOf: [
        { type: 'string', const: 'all' },
        { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 },
      ],
    },
    new_health: {
      title: 'Health triggers',
      description: 'Health changes that fire the alert; omitted means both.',
      type: 'array',
      items: { type: 'string', enum: ['Unhealthy', 'Healthy'] },
      minItems: 1,
    },
    event_source: {
      title: 'Watched objects',
      description: 'Objects whose health is watched; omitted means both.',
      type: 'array',
      items: { type: 'string', enum: ['pool', 'origin'] },
      minItems: 1,
    },
    email: stringList('E-mail recipients', 'Addresses the alert is e-mailed to.'),
    webhooks: stringList('Webhooks', 'Ids of webhook destinations configured in the account.'),
    pagerduty: stringList('PagerDuty services', 'Ids of PagerDuty services configured in the account.'),
    filters: {
      title: 'Other filters',
      description:
        'Further filters as the API wants them (object of string arrays). `pools`, `new_health` and ' +
        '`event_source` are written with their own keys above.',
      type: 'object',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
  },
};

export const loadBalancingSchema: JsonSchema = {
  title: 'Load balancing notifications',
  description:
    'Account-level notification policies for load balancer health, and the removal of the legacy per-pool ' +
    'notification e-mail. Policies are always created before pool e-mails are cleared.',
  type: 'object',
  additionalProperties: false,
  properties: {
    legacy_pool_emails: {
      title: 'Legacy pool e-mails',
      description:
        "`keep` (default) leaves every pool's `notification_email` alone; `remove` clears it on every pool of " +
        'the account once policies that cover every legacy recipient exist (the plan refuses otherwise).',
      type: 'string',
      enum: ['keep', 'remove'],
      default: 'keep',
    },
    purge: {
      title: 'Purge',
      description:
        'Delete load-balancing notification policies of the account that the file does not name (default false). ' +
        'Only policies of the alert types this kind manages are ever deleted.',
      type: 'boolean',
      default: false,
    },
    notifications: {
      title: 'Notification policies',
      description: 'Account-level notification policies, matched with live ones by name.',
      type: 'array',
      items: notificationSchema,
    },
  },
};
