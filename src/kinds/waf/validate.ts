import type { ValidateContext } from '../../core/kind.js';
import { MANAGED_RULESETS, checkOverrides } from '../../rules/waf/index.js';
import type { Violation } from '../../rules/waf/index.js';
import { isObject } from '../../rules/shared/values.js';
import { validateExceptions } from './validate-exceptions.js';

/**
 * Offline checks of a zone's `waf` (the schema has already passed). Override shape is checked with the
 * rules the local API enforces on the entrypoint body (src/rules/waf). The blockers of the migration
 * (plan tier, URI-based overrides, firewall rule count and size) need live state and are plan errors.
 */

const KNOWN_RULESETS = new Map<string, string>(Object.values(MANAGED_RULESETS).map((r) => [r.id, r.name]));

export function validateWaf(value: unknown, ctx: ValidateContext): void {
  if (!isObject(value)) return;
  if (value.managed_rules === 'previous') {
    for (const key of ['migration', 'delete_uri_overrides', 'overrides', 'managed_rulesets'] as const) {
      if (value[key] !== undefined) {
        ctx.warn(
          `${ctx.path}.${key}`,
          'ignored while `managed_rules` is `previous` (nothing is planned for WAF)',
        );
      }
    }
    return;
  }
  const overrides = Array.isArray(value.overrides) ? value.overrides : [];
  // the override as it is sent (lower-case id, no `ruleset`): same rules as the API's
  const sent = overrides.map((o) => {
    if (!isObject(o)) return o;
    const { ruleset: _ruleset, ...rest } = o;
    return typeof rest.id === 'string' ? { ...rest, id: rest.id.toLowerCase() } : rest;
  });
  const problems: Violation[] = [];
  checkOverrides({ rules: sent }, 'overrides', problems);
  for (const p of problems) {
    const path = p.path.replace(/^overrides\.rules/, 'overrides');
    ctx.error(`${ctx.path}.${path}`, p.message);
  }
  validateExceptions(value, ctx);
  overrides.forEach((o, i) => {
    if (!isObject(o) || typeof o.ruleset !== 'string') return;
    if (!KNOWN_RULESETS.has(o.ruleset.toLowerCase())) {
      const known = [...KNOWN_RULESETS].map(([id, name]) => `${id} (${name})`).join(', ');
      ctx.error(
        `${ctx.path}.overrides[${i}].ruleset`,
        `"${o.ruleset}" is not a managed ruleset; use ${known}`,
      );
    }
  });
}
