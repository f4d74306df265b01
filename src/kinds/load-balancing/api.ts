/**
 * The few API calls of this kind, through the core's Requester only. Paths are the v4 ones
 * (docs/reference/api-facts.md: pools under /accounts/{id}/load_balancers/pools, policies under alerting/v3).
 */
import { listAll } from '../../core/list.js';
import type { Requester } from '../../core/runtime.js';
import { toLivePolicy, toLivePool } from './model.js';
import type { LivePolicy, LivePool, PolicyBody } from './model.js';

/** The bulk PATCH changes this many pools per call unless told otherwise (spec: default 25). */
export const PATCH_PAGE_SIZE = 25;

const poolsPath = (account: string) => `/accounts/${account}/load_balancers/pools`;
const policiesPath = (account: string) => `/accounts/${account}/alerting/v3/policies`;

/** Every pool of the account: one request without paging parameters, as the API documents the list. */
export async function listPools(client: Requester, account: string): Promise<LivePool[]> {
  return (await listAll<unknown>(client, poolsPath(account), { perPage: 'single' })).map(toLivePool);
}

export async function listPolicies(client: Requester, account: string): Promise<LivePolicy[]> {
  return (await listAll<unknown>(client, policiesPath(account), { perPage: 'single' })).map(toLivePolicy);
}

export async function createPolicy(client: Requester, account: string, body: PolicyBody): Promise<string> {
  const res = await client.request<{ id?: string }>('POST', policiesPath(account), { body });
  return String(res.result?.id ?? '');
}

export async function updatePolicy(
  client: Requester,
  account: string,
  id: string,
  body: PolicyBody,
): Promise<void> {
  await client.request('PUT', `${policiesPath(account)}/${id}`, { body });
}

export async function deletePolicy(client: Requester, account: string, id: string): Promise<void> {
  await client.request('DELETE', `${policiesPath(account)}/${id}`);
}

/**
 * Clears `notification_email` on one page of pools (ordered by name on the server). Clearing is
 * idempotent, so an unknown outcome may be retried.
 */
export async function clearEmailsPage(client: Requester, account: string, page: number): Promise<number> {
  const res = await client.request<unknown[]>('PATCH', poolsPath(account), {
    query: { page, per_page: PATCH_PAGE_SIZE },
    body: { notification_email: '' },
    retrySafe: true,
  });
  return Array.isArray(res.result) ? res.result.length : 0;
}
