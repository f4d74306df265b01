/**
 * The shape of the zone's `http_request_firewall_managed` entry point ruleset body, as sent by the
 * migration (and by any later update): `{name?, description?, rules: [rule]}`, a rule being an
 * `execute` of a managed ruleset whose `action_parameters.overrides.rules` map single managed
 * rules to an action and/or enabled flag. `id`, `version` and `ref` may be omitted or blank.
 * Also the mapping from a previous WAF rule's mode to the equivalent override.
 */

export interface Violation {
  path: string;
  message: string;
}

/** Managed rulesets of the new WAF (their real ids). */
export const MANAGED_RULESETS = {
  cloudflare: { id: 'efb7b8c949ac4650a09736fc376e9aee', name: 'Cloudflare Managed Ruleset' },
  owasp: { id: '4814384a9e5d4991b9815dcfc25d2f1f', name: 'Cloudflare OWASP Core Ruleset' },
} as const;

/** Actions a rule override may set. */
export const OVERRIDE_ACTIONS = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'log'] as const;
/** Actions a rule of this phase may have. */
export const MANAGED_PHASE_ACTIONS = ['execute', 'skip', 'log'] as const;

export interface RuleOverride {
  id: string;
  action?: string;
  enabled?: boolean;
}

const HEX32 = /^[0-9a-f]{32}$/;

/** Checks a PUT body of the entry point ruleset; paths like `rules[0].action_parameters.overrides.rules[2].action`. */
export function validateManagedEntrypoint(body: unknown): Violation[] {
  if (!isObject(body)) return [{ path: '', message: 'the body must be a JSON object with rules' }];
  const out: Violation[] = [];
  for (const key of ['name', 'description'] as const) {
    if (body[key] !== undefined && typeof body[key] !== 'string')
      out.push({ path: key, message: 'must be a string' });
  }
  if (!Array.isArray(body.rules)) {
    out.push({ path: 'rules', message: 'is required: an array of rules' });
    return out;
  }
  body.rules.forEach((rule, i) => checkRule(rule, `rules[${i}]`, out));
  return out;
}

function checkRule(rule: unknown, path: string, out: Violation[]): void {
  if (!isObject(rule)) {
    out.push({ path, message: 'must be an object' });
    return;
  }
  for (const key of ['id', 'version', 'ref', 'description']) {
    if (rule[key] !== undefined && rule[key] !== null && typeof rule[key] !== 'string') {
      out.push({ path: `${path}.${key}`, message: 'must be a string (it may be empty)' });
    }
  }
  if (
    typeof rule.action !== 'string' ||
    !(MANAGED_PHASE_ACTIONS as readonly string[]).includes(rule.action)
  ) {
    out.push({ path: `${path}.action`, message: `must be one of ${MANAGED_PHASE_ACTIONS.join(', ')}` });
  }
  if (typeof rule.expression !== 'string' || rule.expression.trim() === '') {
    out.push({ path: `${path}.expression`, message: 'is required, e.g. "true" for all traffic' });
  }
  if (rule.enabled !== undefined && typeof rule.enabled !== 'boolean') {
    out.push({ path: `${path}.enabled`, message: 'must be true or false' });
  }
  if (rule.action !== 'execute') return;
  const params = rule.action_parameters;
  const pPath = `${path}.action_parameters`;
  if (!isObject(params)) {
    out.push({ path: pPath, message: 'is required for execute: {id: <managed ruleset id>, overrides?}' });
    return;
  }
  if (typeof params.id !== 'string' || !HEX32.test(params.id)) {
    out.push({
      path: `${pPath}.id`,
      message: 'must be the 32-hex-digit id of the managed ruleset to execute',
    });
  }
  if (params.overrides !== undefined) checkOverrides(params.overrides, `${pPath}.overrides`, out);
}

/** `overrides`: optional ruleset-wide action/enabled, plus `rules` and `categories` lists. */
export function checkOverrides(overrides: unknown, path: string, out: Violation[]): void {
  if (!isObject(overrides)) {
    out.push({ path, message: 'must be an object with rules' });
    return;
  }
  checkActionEnabled(overrides, path, out);
  if (overrides.rules !== undefined) {
    if (!Array.isArray(overrides.rules)) out.push({ path: `${path}.rules`, message: 'must be an array' });
    else {
      const seen = new Set<string>();
      overrides.rules.forEach((o, i) => {
        const oPath = `${path}.rules[${i}]`;
        if (!isObject(o))
          return void out.push({ path: oPath, message: 'must be an object {id, action?, enabled?}' });
        if (typeof o.id !== 'string' || !HEX32.test(o.id)) {
          out.push({ path: `${oPath}.id`, message: 'must be the 32-hex-digit id of a managed rule' });
        } else if (seen.has(o.id)) {
          out.push({ path: `${oPath}.id`, message: `rule ${o.id} is overridden twice` });
        } else seen.add(o.id);
        checkActionEnabled(o, oPath, out);
        if (o.action === undefined && o.enabled === undefined) {
          out.push({ path: oPath, message: 'an override sets action, enabled, or both' });
        }
      });
    }
  }
  if (overrides.categories !== undefined) {
    if (!Array.isArray(overrides.categories))
      out.push({ path: `${path}.categories`, message: 'must be an array' });
    else
      overrides.categories.forEach((c, i) => {
        if (!isObject(c) || typeof c.category !== 'string' || c.category === '') {
          out.push({ path: `${path}.categories[${i}].category`, message: 'must be a category name' });
        } else checkActionEnabled(c, `${path}.categories[${i}]`, out);
      });
  }
}

function checkActionEnabled(o: Record<string, unknown>, path: string, out: Violation[]): void {
  if (
    o.action !== undefined &&
    (typeof o.action !== 'string' || !(OVERRIDE_ACTIONS as readonly string[]).includes(o.action))
  ) {
    out.push({ path: `${path}.action`, message: `must be one of ${OVERRIDE_ACTIONS.join(', ')}` });
  }
  if (o.enabled !== undefined && typeof o.enabled !== 'boolean') {
    out.push({ path: `${path}.enabled`, message: 'must be true or false' });
  }
}

/**
 * The override equivalent to a previous WAF rule's mode, or undefined when the mode is the rule's
 * default (nothing to override). Modes: on/off (anomaly), default/disable/simulate/block/challenge
 * (traditional).
 */
export function overrideForPreviousMode(mode: string): Omit<RuleOverride, 'id'> | undefined {
  switch (mode) {
    case 'off':
    case 'disable':
      return { enabled: false };
    case 'on':
      return { enabled: true };
    case 'simulate':
      return { action: 'log', enabled: true };
    case 'block':
      return { action: 'block', enabled: true };
    case 'challenge':
      return { action: 'managed_challenge', enabled: true };
    default:
      return undefined;
  }
}

/** Whether a rule body has at least one rule (a configuration was supplied). */
export function hasRules(body: unknown): boolean {
  return isObject(body) && Array.isArray(body.rules) && body.rules.length > 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
