/**
 * The WAF calls of this kind, through the core's Requester only: the migration endpoints of the
 * spec, the previous WAF's URI-based overrides, and the managed phase entrypoint of the Rulesets API.
 */
import { listAll } from '../../core/list.js';
import type { Requester } from '../../core/runtime.js';
import { MANAGED_PHASE, toRuleset, toStatus, toUriOverride, withoutServerFields } from './model.js';
import type { CheckResult, MigrationStatus, RulesetConfig, UriOverride } from './model.js';

const zonePath = (zone: string) => `/zones/${zone}`;
const entrypointPath = (zone: string) => `${zonePath(zone)}/rulesets/phases/${MANAGED_PHASE}/entrypoint`;

export async function getStatus(client: Requester, zone: string): Promise<MigrationStatus> {
  return toStatus((await client.request('GET', `${zonePath(zone)}/waf_migration/status`)).result);
}

/** GET check: compatible or not, and the API's reasons (the envelope's messages) when it says why. */
export async function checkCompatibility(client: Requester, zone: string): Promise<CheckResult> {
  const res = await client.request('GET', `${zonePath(zone)}/waf_migration/check`, {
    query: { phase_two: 1 },
  });
  const r = res.result as Record<string, unknown> | null;
  return {
    compatible: r?.compatible === true,
    migration_state: String(r?.migration_state ?? ''),
    reasons: (res.messages ?? []).map((m) => m.message).filter((m) => typeof m === 'string' && m !== ''),
  };
}

export async function getMigrationConfig(client: Requester, zone: string): Promise<RulesetConfig> {
  return toRuleset(
    (await client.request('GET', `${zonePath(zone)}/waf_migration/config`, { query: { phase_two: 1 } }))
      .result,
  );
}

/** Every URI-based override of the previous WAF (the list is paged, at most 100 per page). */
export async function listUriOverrides(client: Requester, zone: string): Promise<UriOverride[]> {
  const items = await listAll<unknown>(client, `${zonePath(zone)}/firewall/waf/overrides`, { perPage: 100 });
  return items.map(toUriOverride);
}

export async function deleteUriOverride(client: Requester, zone: string, id: string): Promise<void> {
  await client.request('DELETE', `${zonePath(zone)}/firewall/waf/overrides/${id}`);
}

/** The managed phase entrypoint, or null when the zone has none (404). */
export async function getEntrypoint(client: Requester, zone: string): Promise<RulesetConfig | null> {
  try {
    return toRuleset((await client.request('GET', entrypointPath(zone))).result);
  } catch (err) {
    if ((err as { status?: number }).status === 404) return null;
    throw err;
  }
}

/** The managed phase entrypoint as the API returns it (ruleset id, version), or null (404). */
export async function getEntrypointRaw(
  client: Requester,
  zone: string,
): Promise<Record<string, unknown> | null> {
  try {
    return ((await client.request('GET', entrypointPath(zone))).result ?? null) as Record<
      string,
      unknown
    > | null;
  } catch (err) {
    if ((err as { status?: number }).status === 404) return null;
    throw err;
  }
}

/** PUT of the entrypoint; `mode` adds the migration query (waf_migration=<mode>&phase_two=1). */
export async function putEntrypoint(
  client: Requester,
  zone: string,
  config: RulesetConfig,
  mode?: 'validation' | 'pending',
): Promise<void> {
  const query = mode ? { waf_migration: mode, phase_two: 1 } : undefined;
  await client.request('PUT', entrypointPath(zone), { query, body: putBody(config) });
}

/** Server-set fields are not sent back, nor empty ids and refs (the API fills them in). */
function putBody(config: RulesetConfig): Record<string, unknown> {
  const body: Record<string, unknown> = { name: config.name ?? 'default', rules: [] };
  if (config.description !== undefined) body.description = config.description;
  body.rules = withoutServerFields(config).rules.map((r) => {
    const rule: Record<string, unknown> = { ...r };
    if (rule.id === '') delete rule.id;
    if (rule.ref === '') delete rule.ref;
    return rule;
  });
  return body;
}
