// Plans one zone against a running API and reports its own peak RSS: run as a separate process so
// the figure is the reconciler's alone (the server lives in the parent).
// argv: URL TOKEN ZONE ACCOUNT COUNT
import { ApiClient } from '../../dist/client/index.js';
import { allKinds } from '../../dist/kinds/index.js';
import { buildPlan, runtimeKinds } from '../../dist/core/plan.js';
import { readLive } from '../../dist/core/read.js';
import { desiredState } from './records.js';

const [url, token, zone, account, count] = process.argv.slice(2);
const client = new ApiClient({ baseUrl: url, auth: { kind: 'token', token }, timeoutMs: 600_000 });
const desired = desiredState(zone, account, Number(count));
const kinds = runtimeKinds(allKinds());
const t0 = performance.now();
const live = await readLive(desired, kinds, client);
const plan = buildPlan(desired, live, kinds);
const ms = performance.now() - t0;
await client.close();
const rssMb = process.resourceUsage().maxRSS / 1024;
process.stdout.write(
  JSON.stringify({ steps: plan.steps.length, ms, rssMb, requests: client.stats.requests }) + '\n',
);
