import type { ValidateContext } from '../../core/kind.js';
import { validateCspPolicy } from '../../rules/page-shield/index.js';
import { isObject } from '../../rules/shared/values.js';
import { HELD_MARKER_MESSAGE, holdsTextMarker } from '../shared/owners.js';
import { checkRenames, type RenameCandidate } from '../shared/renames.js';

/**
 * Offline checks of a zone's `page_shield` (run after the schema passed), with the shared rules of
 * src/rules/page-shield/ that the local API enforces too: the action, the rule expression's form
 * (the message says at which column it breaks), the CSP directive syntax of `value` (directive
 * names, hosts, scheme and keyword sources). Descriptions must be unique: they are the identity.
 */
export function validatePageShield(value: unknown, ctx: ValidateContext): void {
  if (!isObject(value)) return;
  if (value.enabled === false && typeof value.max_malicious_scripts === 'number') {
    ctx.warn(
      `${ctx.path}.max_malicious_scripts`,
      'Page Shield is disabled for this zone, so no new scripts are detected and the ceiling only ' +
        'counts what was detected before',
    );
  }
  if (!Array.isArray(value.policies)) return;
  const firstByDescription = new Map<string, number>();
  const renames: RenameCandidate[] = [];
  value.policies.forEach((raw, i) => {
    const path = `${ctx.path}.policies[${i}]`;
    if (!isObject(raw)) return;
    // renamed_from is the file's, never the API's: the shared rules check the API's body
    const { renamed_from: renamedFrom, ...policy } = raw;
    const body = { ...policy, enabled: raw.enabled ?? true };
    if (typeof raw.description === 'string') {
      renames.push({
        identity: raw.description,
        path,
        ...(typeof renamedFrom === 'string' ? { renamedFrom } : {}),
      });
    }
    for (const v of validateCspPolicy(body, { partial: false }).violations) {
      ctx.error(v.path ? `${path}.${v.path}` : path, v.message);
    }
    if (typeof raw.description !== 'string') return;
    if (holdsTextMarker(raw.description)) ctx.error(`${path}.description`, HELD_MARKER_MESSAGE);
    if (raw.description.trim() !== raw.description) {
      ctx.warn(`${path}.description`, 'has leading or trailing spaces; they are part of the identity');
    }
    const first = firstByDescription.get(raw.description);
    if (first !== undefined) {
      ctx.error(
        `${path}.description`,
        `duplicate policy description "${raw.description}" (also policies[${first}]); descriptions identify policies`,
      );
    } else {
      firstByDescription.set(raw.description, i);
    }
  });
  checkRenames(renames, 'policy', ctx);
}
