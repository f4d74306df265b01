/**
 * What `rehearse` applies in the sandbox: a copy of the plan `plan` already made (the sandbox holds
 * the same ids), which leaves the original untouched for `apply --rehearse-first`; or, when the plan
 * holds steps of a kind the sandbox cannot hold, the sandbox's own read and plan.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rehearse } from '../../src/cli/rehearse.js';
import { ApiClient } from '../../src/client/index.js';
import { loadDesiredState } from '../../src/config/load.js';
import { buildPlan, runtimeKinds, type RuntimeKind } from '../../src/core/plan.js';
import { readLive } from '../../src/core/read.js';
import { allKinds } from '../../src/kinds/index.js';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { ACCOUNT } from '../cli-reconcile/helpers.js';
import { productionFixtures } from './bed.js';

const PRODUCTION = productionFixtures({
  records: [
    { id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa01', name: '@', type: 'A', content: '192.0.2.10' },
    { id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa02', name: 'old', type: 'A', content: '192.0.2.99' },
  ],
});
const DESIRED = `version: 1
zones:
  - name: example.com
    dns:
      records:
        - { name: '@', type: A, content: 192.0.2.10, ttl: 600 }
        - { name: new, type: AAAA, content: '2001:db8::1' }
  - name: new.example
    account: ${ACCOUNT}
    dns:
      records:
        - { name: '@', type: A, content: 192.0.2.20 }
`;

/** A kind with no fixtures half, so the sandbox cannot hold it: one create step per zone that sets it. */
const unheld: RuntimeKind = {
  name: 'unheld',
  def: { scope: 'zone', key: 'unheld' } as never,
  runtime: {
    read: async () => ({}),
    plan: (desired: unknown) =>
      desired ? [{ key: 'x', action: 'create', address: 'unheld x', before: null, after: { x: 1 } }] : [],
    apply: async () => {
      throw new Error('never applied in a rehearsal');
    },
  } as never,
};

let target: RunningServer | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

async function session(extraKinds: RuntimeKind[] = []) {
  target = await startServer({ db: ':memory:', quiet: true, fixtures: PRODUCTION });
  const client = new ApiClient({ baseUrl: target.url, auth: { kind: 'token', token: target.devToken! } });
  const file = join(mkdtempSync(join(tmpdir(), 'zoneplan-plan-copy-')), 'zones.yaml');
  writeFileSync(file, DESIRED);
  const { desired } = await loadDesiredState(file);
  if (extraKinds.length > 0) (desired.zones[0] as Record<string, unknown>).unheld = { x: 1 };
  const kinds = [...runtimeKinds(allKinds()), ...extraKinds];
  const auth = { kind: 'token' as const, token: target.devToken! };
  const live = await readLive(desired, kinds, client, { auth });
  return { desired, kinds, live, plan: buildPlan(desired, live, kinds), target: { client, auth } };
}

describe('the plan a rehearsal applies', () => {
  it('is a copy of the plan made: the original plan and live state are left as they were', async () => {
    const s = await session();
    const before = structuredClone({ plan: s.plan, live: s.live });
    expect(s.plan.steps.map((x) => x.id)).toContain('new.example/zone/zone');
    const r = await rehearse(s);
    expect(r.refused).toEqual([]);
    expect(r.secondPlan).toBe(0);
    expect(r.applied).toBe(s.plan.steps.filter((x) => x.action !== 'report').length);
    // the sandbox created new.example and read back what it wrote; the original knows neither
    expect({ plan: s.plan, live: s.live }).toEqual(before);
    expect(s.live.owners.find((o) => o.owner.name === 'new.example')!.owner.id).toBeUndefined();
  });

  it("is the sandbox's own plan when the plan holds a kind the sandbox cannot hold", async () => {
    const s = await session([unheld]);
    expect(s.plan.steps.map((x) => x.kind)).toContain('unheld');
    const r = await rehearse(s);
    expect(r.notRehearsed).toEqual(['unheld']);
    expect(r.refused).toEqual([]);
    expect(r.applied).toBe(s.plan.steps.filter((x) => x.kind !== 'unheld').length);
    expect(r.passed).toBe(true);
  });
});
