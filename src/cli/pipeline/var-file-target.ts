/**
 * A var file's `target:` (src/config/vars.ts) against the run's: the values of staging must not be
 * planned against production. The run's target must be the var file's `api_url`, and every account
 * the desired state names must be one of its `accounts`; checked once the target is chosen, before
 * any live state is read for the plan.
 */
import type { DesiredState } from '../../config/model.js';
import type { VarFileTarget } from '../../config/vars.js';
import { UserError } from '../../errors.js';
import { redactUrl } from '../../redact.js';
import type { Target } from './target.js';

export function checkVarFileTargets(targets: VarFileTarget[], target: Target, desired: DesiredState): void {
  for (const t of targets) {
    const where = `${t.file}:${t.line}:${t.col}`;
    if (t.api_url !== undefined && sameUrl(redactUrl(t.api_url)) !== sameUrl(target.identity)) {
      const now = target.identity.startsWith('local:') ? 'the embedded local API' : target.identity;
      throw new UserError(
        `${where}: this var file is for ${redactUrl(t.api_url)} (target.api_url), but this run targets ${now}; ` +
          'use the var file of this target, or the target of this var file',
      );
    }
    if (t.accounts !== undefined) {
      const allowed = new Set(t.accounts.map((a) => a.toLowerCase()));
      const named = [...desired.accounts.map((a) => a.id), ...desired.zones.flatMap((z) => z.account ?? [])];
      const other = named.find((a) => !allowed.has(a.toLowerCase()));
      if (other !== undefined)
        throw new UserError(
          `${where}: this var file is for the accounts ${t.accounts.join(', ')} (target.accounts), but the ` +
            `desired state names account ${other}; use the var file of that account's target`,
        );
    }
  }
}

/** A URL as compared: scheme and host in lower case, no trailing slash; other text as it is. */
function sameUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}${u.search}`;
  } catch {
    return url.replace(/\/+$/, '');
  }
}
