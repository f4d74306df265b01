/**
 * Every Rulesets API exchange the local API serves, through the recording proxy that judges each
 * one against the published OpenAPI subset: the list, a managed ruleset read, its versions list
 * and one version, the entry point GET and the PUT that keeps ids (and the versions of both by id
 * and by phase). An unlisted violation fails the test when the proxy closes; the test also checks
 * that every one of these operations was judged, so a route that stops being called is noticed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createZone, startTestServer, type TestServer } from '../server/helpers.js';
import { contract, startContractProxy, type ContractProxy } from '../support/contract-proxy.js';

const CLOUDFLARE = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
const BAD_ROBOTS = '5de7edfa648c4d6891dc3e7f84534ffa';

let t: TestServer;
let proxy: ContractProxy;
let zone: string;
beforeAll(async () => {
  t = await startTestServer({
    fixtures: {
      managed_rulesets: [
        {
          id: CLOUDFLARE,
          versions: [{ change: [{ id: BAD_ROBOTS, action: 'managed_challenge' }] }],
        },
      ],
    },
  });
  zone = await createZone(t, 'contract-rulesets.example');
  proxy = await startContractProxy(t.url);
});
afterAll(async () => {
  await proxy?.close();
  await t?.close();
});

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(proxy.url + path, {
    method,
    headers: {
      authorization: `Bearer ${t.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { result: any } };
}

describe('Rulesets API exchanges against the published schema', () => {
  it('list, get, versions and one version of a managed ruleset; entry point GET and PUT with kept ids', async () => {
    const base = `/zones/${zone}/rulesets`;
    const entry = `${base}/phases/http_request_firewall_managed/entrypoint`;
    const execute = {
      action: 'execute',
      expression: 'true',
      description: 'Execute the Cloudflare Managed Ruleset',
      enabled: true,
      action_parameters: {
        id: CLOUDFLARE,
        overrides: {
          categories: [{ category: 'wordpress', action: 'log' }],
          rules: [{ id: BAD_ROBOTS, action: 'managed_challenge', enabled: true }],
        },
      },
    };
    const created = await call('PUT', entry, { rules: [execute] });
    expect(created.status).toBe(200);
    const ruleId = created.body.result.rules[0].id as string;
    const owasp = {
      action: 'execute',
      expression: 'true',
      action_parameters: {
        id: OWASP,
        overrides: { rules: [{ id: '6179ae15870a4bb7b2d480d4843b323c', score_threshold: 40 }] },
      },
    };
    const kept = await call('PUT', entry, { rules: [{ ...execute, id: ruleId }, owasp] });
    expect(kept.body.result.rules[0].id).toBe(ruleId);
    expect((await call('GET', entry)).status).toBe(200);
    expect((await call('GET', base)).body.result).toHaveLength(4);
    expect((await call('GET', `${base}/${CLOUDFLARE}`)).body.result.version).toBe('2');
    expect((await call('GET', `${base}/${CLOUDFLARE}/versions`)).body.result).toHaveLength(2);
    expect((await call('GET', `${base}/${CLOUDFLARE}/versions/1`)).body.result.rules).toHaveLength(400);
    const own = created.body.result.id as string;
    expect((await call('GET', `${base}/${own}`)).status).toBe(200);
    expect((await call('GET', `${base}/${own}/versions/1`)).status).toBe(200);
    expect((await call('GET', `${entry}/versions`)).body.result).toHaveLength(2);
    expect((await call('GET', `${entry}/versions/2`)).status).toBe(200);
    expect((await call('GET', `${base}/${CLOUDFLARE}/versions/7`)).status).toBe(404);

    // the subset's operation each exchange was judged as (none: the subset lacks it, nothing checked)
    const judged = new Set(proxy.exchanges.map((x) => contract().match(x.method, x.url.split('?')[0]!)?.key));
    for (const op of [
      'PUT /zones/{zone_id}/rulesets/phases/{ruleset_phase}/entrypoint',
      'GET /zones/{zone_id}/rulesets/phases/{ruleset_phase}/entrypoint',
      'GET /zones/{zone_id}/rulesets',
      'GET /zones/{zone_id}/rulesets/{ruleset_id}',
      'GET /zones/{zone_id}/rulesets/{ruleset_id}/versions',
      'GET /zones/{zone_id}/rulesets/{ruleset_id}/versions/{ruleset_version}',
      'GET /zones/{zone_id}/rulesets/phases/{ruleset_phase}/entrypoint/versions',
      'GET /zones/{zone_id}/rulesets/phases/{ruleset_phase}/entrypoint/versions/{ruleset_version}',
    ])
      expect(judged, op).toContain(op);
    expect(proxy.violations).toEqual([]);
  });
});
