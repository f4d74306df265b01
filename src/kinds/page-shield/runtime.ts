/**
 * The runtime half of `page_shield`: read the zone's settings, policies and (for the malicious
 * script ceiling) its active and infrequent scripts; plan purely (plan.ts); apply settings and
 * policy writes one by one (a zone has few policies; order within a group does not matter).
 */
import type { DesiredPageShield } from './desired.js';
import type { ApplyContext, KindRuntime, ReadContext, Step } from '../../core/runtime.js';
import { listAll } from '../../core/list.js';
import { applyInOrder, deleteIfPresent, whereInFile } from '../shared/api.js';
import { planPageShield, type PageShieldApplyData, type PageShieldLive } from './plan.js';
import { livePolicyFromApi, type LivePolicy } from './policies.js';
import { planOwnedPageShield } from './owners.js';
import { ownerSettingsOf } from '../shared/owners.js';
import { CEILING_STATUSES, scriptFromApi, type DetectedScript } from './scripts.js';

/** The largest page of the Page Shield scripts, connections and cookies lists (docs/reference/api-facts.md). */
export const PAGE_SHIELD_PER_PAGE = 100;

/** Lists every script with one of the given statuses (comma list, as the API takes it), all pages. */
export async function readScripts(
  client: ReadContext['client'],
  zoneId: string,
  statuses: readonly string[],
): Promise<DetectedScript[]> {
  const raw = await listAll(client, `/zones/${zoneId}/page_shield/scripts`, {
    query: { status: statuses.join(',') },
    perPage: PAGE_SHIELD_PER_PAGE,
  });
  return raw.map(scriptFromApi);
}

/**
 * What the zone's Page Shield value manages, so a read fetches only that (the API's budget counts
 * requests): the policies only when the file names `policies`, the scripts only for a ceiling.
 * Without a desired value (export, fixtures) everything is read.
 */
function managedParts(desired: unknown): { policies: boolean; scripts: boolean } {
  if (!desired || typeof desired !== 'object') return { policies: true, scripts: true };
  const d = desired as DesiredPageShield;
  return { policies: d.policies !== undefined, scripts: d.max_malicious_scripts !== undefined };
}

async function read(ctx: ReadContext): Promise<PageShieldLive> {
  const zoneId = ctx.owner.id;
  const wants = managedParts(ctx.desired);
  // the three reads are independent: sent together, they cost one round trip, not three
  const [settings, rawPolicies, scripts] = await Promise.all([
    ctx.client.request<Record<string, unknown> | null>('GET', `/zones/${zoneId}/page_shield`),
    // One page, no paging parameters: the API documents the policy list as unpaged (docs/reference/api-facts.md).
    wants.policies
      ? listAll(ctx.client, `/zones/${zoneId}/page_shield/policies`, { perPage: 'single' })
      : undefined,
    wants.scripts ? readScripts(ctx.client, zoneId, CEILING_STATUSES) : undefined,
  ]);
  const live: PageShieldLive = {
    enabled: settings.result?.enabled === true,
    reporting: reportingOf(settings.result),
  };
  if (rawPolicies)
    live.policies = rawPolicies.map(livePolicyFromApi).filter((p): p is LivePolicy => p !== undefined);
  if (scripts) live.scripts = scripts;
  return live;
}

/** The settings besides `enabled`; the reporting flag has two names (the spec's and the API's). */
function reportingOf(raw: Record<string, unknown> | null | undefined): PageShieldLive['reporting'] {
  const flag = raw?.use_cloudflare_reporting_endpoint ?? raw?.use_service_reporting_endpoint;
  const out: NonNullable<PageShieldLive['reporting']> = {};
  if (typeof flag === 'boolean') out.use_cloudflare_reporting_endpoint = flag;
  if (typeof raw?.use_connection_url_path === 'boolean')
    out.use_connection_url_path = raw.use_connection_url_path;
  return out;
}

async function applyOne(step: Step, ctx: ApplyContext): Promise<void> {
  const data = step.data as PageShieldApplyData;
  const base = `/zones/${ctx.owner.id}/page_shield`;
  switch (data.op) {
    case 'settings':
      await ctx.client.request('PUT', base, { body: { enabled: data.enabled } });
      return;
    case 'create':
      await ctx.client.request('POST', `${base}/policies`, { body: data.body });
      return;
    case 'update':
      await ctx.client.request('PUT', `${base}/policies/${data.id}`, { body: data.body });
      return;
    case 'delete':
      // Already gone since the plan (404) counts as done.
      await deleteIfPresent(ctx.client, `${base}/policies/${data.id}`);
      return;
  }
}

export const pageShieldRuntime: KindRuntime<DesiredPageShield, PageShieldLive> = {
  requiresToken: true,
  read,
  // the settings, and the policies and the ceiling's scripts when the file manages them
  readRequests: (desired) => {
    const wants = managedParts(desired);
    return 1 + (wants.policies ? 1 : 0) + (wants.scripts ? 1 : 0);
  },
  plan: (desired, live, ctx) => {
    const path = `${String(ctx.entry.path ?? '')}.page_shield`;
    // asked only for a ceiling: the first look at the locations of a file read by the fast path
    // parses it whole with the YAML library, which a fleet's plan must not pay for nothing
    const where =
      desired?.max_malicious_scripts !== undefined
        ? whereInFile(ctx.desired.locations, `${path}.max_malicious_scripts`)
        : undefined;
    const locate = (p: string) => whereInFile(ctx.desired.locations, p);
    return planOwnedPageShield({
      desired,
      live,
      owner: ownerSettingsOf(ctx.entry),
      zone: ctx.owner.name,
      locate,
      plan: (seen) => planPageShield(ctx.owner.name, desired, seen, where, path, { locate, warn: ctx.warn }),
    });
  },
  apply: (steps, ctx) => applyInOrder(steps, ctx, applyOne),
};
