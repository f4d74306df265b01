/**
 * Desired notification policies as the API wants them: pools resolved to ids (`all` expanded to every
 * pool of the account at plan time), filters and mechanisms built from the file's own keys, and a
 * normalised form for comparison so that list order never shows as a change.
 */
import type { LivePolicy, LivePool, PolicyBody } from './model.js';
import type { DesiredNotification } from './desired.js';

export interface PlanProblem {
  path: string;
  message: string;
}

/** The fields of one file entry this kind reads (read defensively from whatever the loader gives). */
export type NotificationInput = DesiredNotification;

/**
 * Resolves `pools` to pool ids. Ids are taken as they are; names match case-insensitively and must be
 * unambiguous. `all` lists every pool in name order, so the plan shows a stable list.
 */
export function resolvePools(
  pools: 'all' | string[] | undefined,
  live: LivePool[],
  path: string,
  problems: PlanProblem[],
): string[] | undefined {
  if (pools === undefined) return undefined;
  if (pools === 'all') {
    return [...live]
      .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
      .map((p) => p.id);
  }
  const ids: string[] = [];
  pools.forEach((ref, i) => {
    const byId = live.find((p) => p.id === ref);
    if (byId) return void ids.push(byId.id);
    const byName = live.filter((p) => p.name.toLowerCase() === ref.toLowerCase());
    if (byName.length === 1) return void ids.push(byName[0].id);
    if (byName.length > 1) {
      problems.push({
        path: `${path}[${i}]`,
        message: `pool name "${ref}" is ambiguous (${byName.map((p) => p.id).join(', ')}); write the pool id`,
      });
      return;
    }
    problems.push({
      path: `${path}[${i}]`,
      message: `no pool named or with id "${ref}" in the account (it has ${live.length} pool${live.length === 1 ? '' : 's'})`,
    });
  });
  return [...new Set(ids)];
}

/** Builds the body of one desired policy; `live` is the policy of the same name, if any. */
export function desiredPolicyBody(
  n: NotificationInput,
  pools: LivePool[],
  path: string,
  problems: PlanProblem[],
  live?: LivePolicy,
): PolicyBody {
  const filters: Record<string, string[]> = { ...(n.filters ?? {}) };
  const poolIds = resolvePools(n.pools, pools, `${path}.pools`, problems);
  if (poolIds) filters.pool_id = poolIds;
  if (n.new_health) filters.new_health = [...n.new_health];
  if (n.event_source) filters.event_source = [...n.event_source];
  const mechanisms: Record<string, { id: string }[]> = {};
  if (n.email?.length) mechanisms.email = n.email.map((id) => ({ id }));
  if (n.webhooks?.length) mechanisms.webhooks = n.webhooks.map((id) => ({ id }));
  if (n.pagerduty?.length) mechanisms.pagerduty = n.pagerduty.map((id) => ({ id }));
  const body: PolicyBody = {
    name: n.name,
    alert_type: n.alert_type,
    enabled: n.enabled !== false,
    filters,
    mechanisms,
  };
  // An omitted description is not managed: keep whatever the live policy has.
  const description = n.description ?? live?.description;
  if (description !== undefined && description !== '') body.description = description;
  return body;
}

/** Canonical form for comparison: sorted lists, lower-cased e-mail ids, no empty lists. */
export function normalizePolicy(p: PolicyBody): PolicyBody {
  const filters: Record<string, string[]> = {};
  for (const k of Object.keys(p.filters).sort()) {
    if (p.filters[k].length) filters[k] = [...new Set(p.filters[k])].sort();
  }
  const mechanisms: Record<string, { id: string }[]> = {};
  for (const k of Object.keys(p.mechanisms).sort()) {
    const ids = p.mechanisms[k].map((m) => (k === 'email' ? m.id.toLowerCase() : m.id));
    if (ids.length) mechanisms[k] = [...new Set(ids)].sort().map((id) => ({ id }));
  }
  const out: PolicyBody = { name: p.name, alert_type: p.alert_type, enabled: p.enabled, filters, mechanisms };
  if (p.description) out.description = p.description;
  return out;
}

export function samePolicy(a: PolicyBody, b: PolicyBody): boolean {
  return JSON.stringify(normalizePolicy(a)) === JSON.stringify(normalizePolicy(b));
}

/** Reads the file's entries defensively (the loader's typed model may lag behind the schema). */
export function readNotifications(value: unknown): NotificationInput[] {
  if (!value || typeof value !== 'object') return [];
  const list = (value as { notifications?: unknown }).notifications;
  if (!Array.isArray(list)) return [];
  const strings = (v: unknown) => (Array.isArray(v) ? v.map(String) : undefined);
  return list
    .filter((n): n is Record<string, unknown> => !!n && typeof n === 'object')
    .map((n) => {
      const out: NotificationInput = {
        name: String(n.name ?? ''),
        alert_type: String(n.alert_type ?? ''),
        pools: n.pools === 'all' ? 'all' : strings(n.pools),
        new_health: strings(n.new_health),
        event_source: strings(n.event_source),
        email: strings(n.email),
        webhooks: strings(n.webhooks),
        pagerduty: strings(n.pagerduty),
      };
      if (typeof n.description === 'string') out.description = n.description;
      if (typeof n.renamed_from === 'string') out.renamed_from = n.renamed_from;
      if (typeof n.enabled === 'boolean') out.enabled = n.enabled;
      if (n.filters && typeof n.filters === 'object') out.filters = n.filters as Record<string, string[]>;
      return out;
    });
}
