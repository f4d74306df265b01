import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../server/helpers.js';
import { ACCOUNT, ZONES, startAreaServer, testCall } from './setup.js';

let t: TestServer;
beforeAll(async () => {
  t = await startAreaServer();
});
afterAll(() => t.close());

const Z = `/zones/${ZONES.enterprise}`;
const A = `/accounts/${ACCOUNT}`;
const ID = 'ffffffffffffffffffffffffffffffff';
const writes: [string, string][] = [
  ['PUT', `${Z}/page_shield`],
  ['POST', `${Z}/page_shield/policies`],
  ['PUT', `${Z}/page_shield/policies/${ID}`],
  ['POST', `${Z}/logpush/jobs`],
  ['PUT', `${Z}/logpush/jobs/1`],
  ['POST', `${Z}/logpush/ownership`],
  ['POST', `${Z}/logpush/ownership/validate`],
  ['PUT', `${Z}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=2&phase_two=1`],
  ['PUT', `${Z}/rulesets/phases/http_request_firewall_custom/entrypoint`],
  ['POST', `${Z}/firewall/waf/overrides`],
  ['PATCH', `${Z}/firewall/waf/packages/${ID}`],
  ['PATCH', `${A}/load_balancers/pools`],
  ['POST', `${A}/load_balancers/pools`],
  ['PATCH', `${A}/load_balancers/pools/${ID}`],
  ['POST', `${A}/alerting/v3/policies`],
  ['PUT', `${A}/alerting/v3/policies/${ID}`],
];
const bodies: unknown[] = [
  null,
  [],
  'text',
  42,
  {},
  { rules: 'x', filter: [], name: {} },
  { rules: [null, 1, { action_parameters: 5 }] },
];

describe('bad input never gets a 500', () => {
  it('answers every malformed body with a 4xx error envelope', async () => {
    for (const [method, path] of writes) {
      for (const body of bodies) {
        const r = await t.api(method, path, body);
        const what = `${method} ${path} ${JSON.stringify(body)}`;
        expect(r.status, what).toBeLessThan(500);
        // an empty object can be a valid no-op update (Page Shield settings); anything else is refused
        if (JSON.stringify(body) !== '{}' || r.status !== 200) {
          expect(r.status, what).toBeGreaterThanOrEqual(400);
          expect(r.body.success).toBe(false);
        }
      }
    }
  });

  it('answers malformed queries and ids with a 4xx', async () => {
    for (const path of [
      `${Z}/page_shield/scripts?direction=sideways`,
      `${Z}/page_shield/cookies?same_site=maybe`,
      `${Z}/page_shield/scripts?exclude_cdn_cgi=perhaps`,
      `${Z}/logpush/jobs/0`,
      `${Z}/logpush/jobs/99999999999999999999`,
      `${Z}/rulesets/phases/NOT-A-PHASE/entrypoint`,
      `${A}/load_balancers/pools/${ID}`,
    ]) {
      const r = await t.api('GET', path);
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.status, path).toBeLessThan(500);
    }
    const hook = await testCall(t, 'POST', `${A}/load_balancers/pools/${ID}/health`, 'x');
    expect(hook.status).toBe(400);
  });
});
