/**
 * examples/load-balancing.yaml, examples/waf.yaml and examples/complete.yaml: validated offline, and
 * planned (the complete file also applied, then planned to nothing) against the local API seeded
 * with examples/fixtures-full.yaml, whose names they use.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/helpers.js';
import { fetchTestRoute } from '../../support/test-routes.js';
import { runCli, type CliResult } from '../../support/cli.js';

const example = (name: string) => fileURLToPath(new URL(`../../../examples/${name}`, import.meta.url));
const TOKEN = 'zp-examples-token-5e2b9c7a1d3f4b6c8a0e';

let t: TestServer;
beforeAll(async () => {
  // the fixtures' token is `${env:ZONEPLAN_LOCAL_TOKEN}`
  process.env.ZONEPLAN_LOCAL_TOKEN = TOKEN;
  t = await startTestServer({ fixtures: example('fixtures-full.yaml') });
  t.token = TOKEN;
});
afterAll(async () => {
  await t?.close();
});

function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(args, { cwd: t.dir, env: { CLOUDFLARE_API_TOKEN: TOKEN, ...env } });
}

/** Issues the Logpush ownership challenge and reads it where the local API keeps it (test-only route). */
async function challenge(zoneId: string, destination: string): Promise<string> {
  await t.api('POST', `/zones/${zoneId}/logpush/ownership`, { destination_conf: destination });
  const res = await fetchTestRoute(
    t.server,
    `/zones/${zoneId}/logpush/ownership?destination_conf=${encodeURIComponent(destination)}`,
  );
  const body = (await res.json()) as { result: Record<string, string> };
  return body.result.challenge ?? body.result.ownership_challenge;
}

// several CLI runs per test: generous on a loaded 2-core runner
describe('the load-balancing, waf and complete examples', { timeout: 120_000 }, () => {
  it('validate offline', async () => {
    const r = await cli(['validate', example('load-balancing.yaml'), example('waf.yaml')]);
    expect(r.code, r.stdout).toBe(0);
    const complete = await cli(['validate', example('complete.yaml')], {
      LOGPUSH_S3_CHALLENGE: 'not-checked-offline',
    });
    expect(complete.code, complete.stdout).toBe(0);
  });

  it('plan against the fixtures: policies then clearing, and both WAF procedures with their irreversible steps', async () => {
    const [lb, waf] = await Promise.all([
      cli(['plan', example('load-balancing.yaml'), '--api-url', t.url, '--detailed-exitcode']),
      cli(['plan', example('waf.yaml'), '--api-url', t.url, '--detailed-exitcode']),
    ]);
    expect(lb.code, lb.stderr).toBe(2);
    expect(lb.stdout).toMatch(
      /\+ create notification policy "pool health"[\s\S]*> migrate legacy notification_email of 2 pools/,
    );
    expect(lb.stdout).toMatch(
      /eu-primary \([0-9a-f]{32}\)\.notification_email: "ops@example.com,noc@example.com" -> ""/,
    );
    expect(waf.code, waf.stderr).toBe(2);
    expect(waf.stdout).toMatch(/zone example\.com[\s\S]*final step: new WAF only .*\(irreversible\)/);
    expect(waf.stdout).toMatch(
      /zone shop\.example\.net[\s\S]*- delete URI-based WAF override [0-9a-f]{32} \(irreversible\)/,
    );
    expect(waf.stdout).toMatch(/validation mode .*\(irreversible\)/);
  });

  it('the complete example applies with --allow-irreversible, then plans nothing', async () => {
    // a copy in the temp dir: apply keeps its journal beside the file, which must not be examples/
    const complete = join(t.dir, 'complete.yaml');
    copyFileSync(example('complete.yaml'), complete);
    const zoneId = (await t.api('GET', '/zones?name=example.com')).body.result[0].id as string;
    const env = { LOGPUSH_S3_CHALLENGE: await challenge(zoneId, 's3://example-logs/http?region=us-east-1') };
    const apply = await cli(
      ['apply', complete, '--api-url', t.url, '--auto-approve', '--allow-irreversible'],
      env,
    );
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    for (const secret of Object.values(env)) expect(apply.stdout + apply.stderr).not.toContain(secret);
    const again = await cli(['plan', complete, '--api-url', t.url, '--detailed-exitcode'], env);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const status = (await t.api('GET', `/zones/${zoneId}/waf_migration/status`)).body.result;
    expect(status.migration_state).toBe('complete');
  });
});
