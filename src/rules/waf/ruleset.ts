/**
 * The shape of the zone's `http_request_firewall_managed` entry point ruleset body, as sent by the
 * migration (and by any later update): `{name?, description?, rules: [rule]}`, a rule being an
 * `execute` of a managed ruleset whose `action_parameters.overrides.rules` map single managed
 * rules to an action and/or enabled flag. `id`, `version` and `ref` may be omitted or blank.
 * Also the mapping from a previous WAF rule's mode to the equivalent override.
 */
import { ID32, isObject } from '../shared/values.js';

export interface Violation {
  path: string;
  message: string;
}

/** Managed rulesets of the new WAF (their real ids). */
export const MANAGED_RULESETS = {
  cloudflare: { id: 'efb7b8c949ac4650a09736fc376e9aee', name: 'Cloudflare Managed Ruleset' },
  owasp: { id: '4814384a9e5d4991b9815dcfc25d2f1f', name: 'Cloudflare OWASP Core Ruleset' },
} as const;

/**
 * The rule of the managed phase entrypoint that runs the Cloudflare Managed Ruleset, with the given
 * rule overrides: what the migration's equivalent configuration holds, and what the reconciler
 * creates on a migrated zone that has no entrypoint. One builder, so both sides agree.
 */
export function managedExecuteRule(overrides: RuleOverride[] = []): Record<string, unknown> {
  const actionParameters: Record<string, unknown> = { id: MANAGED_RULESETS.cloudflare.id };
  if (overrides.length > 0) actionParameters.overrides = { rules: overrides };
  return {
    action: 'execute',
    expression: 'true',
    description: `Execute the ${MANAGED_RULESETS.cloudflare.name}`,
    enabled: true,
    action_parameters: actionParameters,
  };
}

/** Every ruleset phase (the OpenAPI's rulesets_RulesetPhase enum): the `{ruleset_phase}` of a path. */
export const RULESET_PHASES = [
  'ddos_l4',
  'ddos_l7',
  'http_config_settings',
  'http_custom_errors',
  'http_log_custom_fields',
  'http_ratelimit',
  'http_request_cache_settings',
  'http_request_dynamic_redirect',
  'http_request_firewall_custom',
  'http_request_firewall_managed',
  'http_request_late_transform',
  'http_request_origin',
  'http_request_redirect',
  'http_request_sanitize',
  'http_request_sbfm',
  'http_request_select_configuration',
  'http_request_transform',
  'http_response_compression',
  'http_response_firewall_managed',
  'http_response_headers_transform',
  'magic_transit',
  'magic_transit_ids_managed',
  'magic_transit_managed',
] as const;

/**
 * Every rule action: the OpenAPI's rulesets_RuleAction is only `^[a-z]+$`, but a rule of a request
 * body is a rulesets_RequestRule, whose discriminator maps exactly these actions (an unknown one
 * matches no variant and is refused).
 */
export const RULE_ACTIONS = [
  'block',
  'challenge',
  'compress_response',
  'ddos_dynamic',
  'execute',
  'force_connection_close',
  'js_challenge',
  'log',
  'log_custom_field',
  'managed_challenge',
  'redirect',
  'rewrite',
  'route',
  'score',
  'serve_error',
  'set_cache_settings',
  'set_config',
  'skip',
] as const;

export function isRulesetPhase(phase: string): boolean {
  return (RULESET_PHASES as readonly string[]).includes(phase);
}

/** Actions a rule override may set. */
export const OVERRIDE_ACTIONS = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'log'] as const;
/** Actions a rule of this phase may have. */
export const MANAGED_PHASE_ACTIONS = ['execute', 'skip', 'log'] as const;

export interface RuleOverride {
  id: string;
  action?: string;
  enabled?: boolean;
}

/** Checks a PUT body of the entry point ruleset; paths like `rules[0].action_parameters.overrides.rules[2].action`. */
export function validateManagedEntrypoint(body: unknown): Violation[] {
  return checkRulesetBody(body, checkRule);
}

/**
 * The envelope of a ruleset PUT body shared by every phase: an object, string `name` and
 * `description` when given, a `rules` array whose entries `checkOne` checks.
 */
function checkRulesetBody(
  body: unknown,
  checkOne: (rule: unknown, path: string, out: Violation[]) => void,
): Violation[] {
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
  body.rules.forEach((rule, i) => checkOne(rule, `rules[${i}]`, out));
  return out;
}

/** Rule fields that are strings when present (empty allowed): the API fills them in. */
function checkStringFields(rule: Record<string, unknown>, path: string, out: Violation[]): void {
  for (const key of ['id', 'version', 'ref', 'description']) {
    if (rule[key] !== undefined && rule[key] !== null && typeof rule[key] !== 'string') {
      out.push({ path: `${path}.${key}`, message: 'must be a string (it may be empty)' });
    }
  }
}

function checkRule(rule: unknown, path: string, out: Violation[]): void {
  if (!isObject(rule)) {
    out.push({ path, message: 'must be an object' });
    return;
  }
  checkStringFields(rule, path, out);
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
  const params = rule.action_parameters;
  const pPath = `${path}.action_parameters`;
  if (rule.action !== 'execute') {
    if (params !== undefined && !isObject(params)) out.push({ path: pPath, message: 'must be an object' });
    return;
  }
  if (!isObject(params)) {
    out.push({ path: pPath, message: 'is required for execute: {id: <managed ruleset id>, overrides?}' });
    return;
  }
  if (typeof params.id !== 'string' || !ID32.test(params.id)) {
    out.push({
      path: `${pPath}.id`,
      message: 'must be the 32-hex-digit id of the managed ruleset to execute',
    });
  }
  if (params.overrides !== undefined) checkOverrides(params.overrides, `${pPath}.overrides`, out, true);
}

/** rulesets_ExecuteSensitivityLevel: what `sensitivity_level` may be in an override. */
export const SENSITIVITY_LEVELS = ['default', 'medium', 'low', 'eoff'] as const;

/**
 * `overrides`: optional ruleset-wide action/enabled, plus `rules` and `categories` lists. With
 * `apiFields` (a body the API receives) the published override shape's other fields are accepted
 * too: `sensitivity_level` at every level and a rule's `score_threshold` (the OWASP score rule's);
 * each rule or category override must then set at least one thing (the schema's minProperties 2).
 */
export function checkOverrides(overrides: unknown, path: string, out: Violation[], apiFields = false): void {
  if (!isObject(overrides)) {
    out.push({ path, message: 'must be an object with rules' });
    return;
  }
  checkActionEnabled(overrides, path, out);
  if (apiFields) checkSensitivity(overrides, path, out);
  if (overrides.rules !== undefined) {
    if (!Array.isArray(overrides.rules)) out.push({ path: `${path}.rules`, message: 'must be an array' });
    else {
      const seen = new Set<string>();
      overrides.rules.forEach((o, i) => {
        const oPath = `${path}.rules[${i}]`;
        if (!isObject(o))
          return void out.push({ path: oPath, message: 'must be an object {id, action?, enabled?}' });
        if (typeof o.id !== 'string' || !ID32.test(o.id)) {
          out.push({ path: `${oPath}.id`, message: 'must be the 32-hex-digit id of a managed rule' });
        } else if (seen.has(o.id)) {
          out.push({ path: `${oPath}.id`, message: `rule ${o.id} is overridden twice` });
        } else seen.add(o.id);
        checkActionEnabled(o, oPath, out);
        if (!apiFields) {
          if (o.action === undefined && o.enabled === undefined)
            out.push({ path: oPath, message: 'an override sets action, enabled, or both' });
          return;
        }
        checkSensitivity(o, oPath, out);
        if (o.score_threshold !== undefined && !Number.isInteger(o.score_threshold))
          out.push({ path: `${oPath}.score_threshold`, message: 'must be a whole number' });
        if (['action', 'enabled', 'score_threshold', 'sensitivity_level'].every((k) => o[k] === undefined))
          out.push({
            path: oPath,
            message: 'an override sets action, enabled, score_threshold or sensitivity_level',
          });
      });
    }
  }
  if (overrides.categories !== undefined) {
    if (!Array.isArray(overrides.categories))
      out.push({ path: `${path}.categories`, message: 'must be an array' });
    else
      overrides.categories.forEach((c, i) => {
        const cPath = `${path}.categories[${i}]`;
        if (!isObject(c) || typeof c.category !== 'string' || c.category === '') {
          return void out.push({ path: `${cPath}.category`, message: 'must be a category name' });
        }
        checkActionEnabled(c, cPath, out);
        if (!apiFields) return;
        checkSensitivity(c, cPath, out);
        if (['action', 'enabled', 'sensitivity_level'].every((k) => c[k] === undefined))
          out.push({ path: cPath, message: 'a category override sets action, enabled or sensitivity_level' });
      });
  }
}

function checkSensitivity(o: Record<string, unknown>, path: string, out: Violation[]): void {
  if (
    o.sensitivity_level !== undefined &&
    !(SENSITIVITY_LEVELS as readonly unknown[]).includes(o.sensitivity_level)
  )
    out.push({
      path: `${path}.sensitivity_level`,
      message: `must be one of ${SENSITIVITY_LEVELS.join(', ')}`,
    });
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
 * Checks a PUT body of an entry point ruleset of any phase other than the managed one, against the
 * OpenAPI's rule schema: `rules` required; each rule an object whose action is one of RULE_ACTIONS,
 * with a non-empty expression, boolean enabled, object action_parameters and logging, string
 * id/ref/version/description; execute overrides shaped as rulesets_ExecuteRule says.
 */
export function validateEntrypointRuleset(body: unknown): Violation[] {
  return checkRulesetBody(body, checkAnyRule);
}

function checkAnyRule(rule: unknown, path: string, out: Violation[]): void {
  if (!isObject(rule)) {
    out.push({ path, message: 'must be an object' });
    return;
  }
  checkStringFields(rule, path, out);
  if (typeof rule.action !== 'string' || rule.action === '') {
    out.push({ path: `${path}.action`, message: 'is required' });
  } else if (!(RULE_ACTIONS as readonly string[]).includes(rule.action)) {
    out.push({
      path: `${path}.action`,
      message: `"${rule.action.slice(0, 40)}" is not a rule action; use one of ${RULE_ACTIONS.join(', ')}`,
    });
  }
  if (typeof rule.expression !== 'string' || rule.expression.trim() === '') {
    out.push({ path: `${path}.expression`, message: 'is required' });
  }
  if (rule.enabled !== undefined && typeof rule.enabled !== 'boolean') {
    out.push({ path: `${path}.enabled`, message: 'must be true or false' });
  }
  if (rule.logging !== undefined && !isObject(rule.logging)) {
    out.push({ path: `${path}.logging`, message: 'must be an object' });
  }
  const params = rule.action_parameters;
  const pPath = `${path}.action_parameters`;
  if (params === undefined) return;
  if (!isObject(params)) {
    out.push({ path: pPath, message: 'must be an object' });
    return;
  }
  if (rule.action === 'execute' && params.overrides !== undefined) {
    checkExecuteOverrides(params.overrides, `${pPath}.overrides`, out);
  }
}

/** rulesets_ExecuteRule's overrides in any phase: rule overrides name a rule id; actions are rule actions. */
function checkExecuteOverrides(overrides: unknown, path: string, out: Violation[]): void {
  if (!isObject(overrides)) {
    out.push({ path, message: 'must be an object' });
    return;
  }
  const action = (o: Record<string, unknown>, p: string) => {
    if (o.action !== undefined && !(RULE_ACTIONS as readonly string[]).includes(o.action as string))
      out.push({ path: `${p}.action`, message: `must be one of ${RULE_ACTIONS.join(', ')}` });
    if (o.enabled !== undefined && typeof o.enabled !== 'boolean')
      out.push({ path: `${p}.enabled`, message: 'must be true or false' });
  };
  action(overrides, path);
  for (const list of ['rules', 'categories'] as const) {
    const items = overrides[list];
    if (items === undefined) continue;
    if (!Array.isArray(items)) {
      out.push({ path: `${path}.${list}`, message: 'must be an array' });
      continue;
    }
    items.forEach((o, i) => {
      const p = `${path}.${list}[${i}]`;
      if (!isObject(o)) return void out.push({ path: p, message: 'must be an object' });
      if (list === 'rules' && (typeof o.id !== 'string' || !ID32.test(o.id)))
        out.push({ path: `${p}.id`, message: 'must be the 32-hex-digit id of a rule' });
      if (list === 'categories' && (typeof o.category !== 'string' || o.category === ''))
        out.push({ path: `${p}.category`, message: 'must be a category name' });
      action(o, p);
    });
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

/**
 * The override the migration writes for one previous-WAF rule, if its configuration differs from
 * the rule's default: a traditional rule in mode `default` or in its own default_mode needs none;
 * an anomaly rule (no default_mode) is on by default, so only `off` needs one.
 */
export function overrideForPreviousRule(
  rule: Readonly<Record<string, unknown>>,
): Omit<RuleOverride, 'id'> | undefined {
  const mode = String(rule.mode);
  const baseline = typeof rule.default_mode === 'string' ? rule.default_mode : 'on';
  if (mode === 'default' || mode === baseline) return undefined;
  return overrideForPreviousMode(mode);
}

/** Whether a rule body has at least one rule (a configuration was supplied). */
export function hasRules(body: unknown): boolean {
  return isObject(body) && Array.isArray(body.rules) && body.rules.length > 0;
}
