/**
 * No false drift, no missed drift (issue 25 item 6). A seeded world (drift-world.ts) of 104 paid
 * zones, each managing records of every type, Page Shield, Logpush and WAF overrides, and 6 accounts
 * managing load-balancing notifications, is applied to the real local API (every fourth zone names
 * an owner, beside another owner's objects: drift-owner-edits.ts); then:
 * - with nothing edited, the built CLI's `drift` over the whole file exits 0 and prints no drift;
 * - in each round, another client (the official TypeScript SDK, only its base URL changed) makes one
 *   seeded edit (two in odd rounds) in every zone and every account (drift-edits.ts), `drift --format json` runs once
 *   over the file, and each edit of something the file manages must be named by a step of its owner
 *   (and only by such steps), while an owner whose edit the file does not manage must have no step at
 *   all. The first round runs the built CLI (exit 2), the others the CLI in-process; an apply puts
 *   the world back between rounds. A failure lists each wrong owner with its edit's seed and edit.
 */
import Cloudflare from 'cloudflare';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonPlan, JsonStep } from '../../src/core/render-json.js';
import { startCliBed, type CliBed } from '../support/cli-bed.js';
import { requireBuild, spawnCli } from '../support/processes.js';
import { accountEdit, zoneEdit, type Edit } from './drift-edits.js';
import { createOtherOwners } from './drift-owner-edits.js';
import {
  ACCOUNT_COUNT,
  STRANGER_ZONES,
  TOKEN,
  ZONE_COUNT,
  accountWorld,
  desiredFile,
  fixtures,
  zoneWorld,
  type ZoneWorld,
} from './drift-world.js';

const BASE_SEED = Number(process.env.ZONEPLAN_DRIFT_SEED ?? 2511);
const ROUNDS = Number(process.env.ZONEPLAN_DRIFT_ROUNDS ?? 3);

const zones = Array.from({ length: ZONE_COUNT }, (_, i) => zoneWorld(i, BASE_SEED));
const accounts = Array.from({ length: ACCOUNT_COUNT }, (_, a) => accountWorld(a));

let bed: CliBed;
let cf: Cloudflare;
let file: string;
const zoneIds = new Map<string, string>();
const poolIds = new Map<string, string[]>();

/** Objects the file does not manage, made before the first apply (kept where nothing purges). */
async function createStrangers(z: ZoneWorld, zoneId: string): Promise<void> {
  const name = `${z.dnsPurge ? 'ignored' : 'foreign'}-1.${z.name}`;
  await cf.dns.records.create({ zone_id: zoneId, type: 'TXT', name, content: 'not ours', ttl: 1 });
  if (z.owner !== undefined) await createOtherOwners(cf, z, zoneId);
  if (!z.pageShieldPurge) {
    await cf.pageShield.policies.create({
      zone_id: zoneId,
      description: 'foreign policy',
      action: 'log',
      expression: `http.host eq "${z.name}"`,
      value: "script-src 'self'",
      enabled: true,
    } as any);
  }
  if (!z.logpushPurge) {
    await cf.logpush.jobs.create({
      zone_id: zoneId,
      name: 'foreign-job',
      dataset: 'http_requests',
      destination_conf: 'https://collector.example.net/foreign',
    } as any);
  }
}

beforeAll(async () => {
  requireBuild();
  bed = await startCliBed(fixtures(zones), TOKEN);
  cf = new Cloudflare({ baseURL: bed.t.url, apiToken: TOKEN, maxRetries: 0 });
  for await (const zone of cf.zones.list({ per_page: 50 })) zoneIds.set(zone.name, zone.id);
  for (const a of accounts) {
    const pools = (await bed.t.api('GET', `/accounts/${a.id}/load_balancers/pools`)).body.result;
    poolIds.set(
      a.id,
      pools.map((p: { id: string }) => p.id),
    );
    const others = [{ name: 'billing', alert_type: 'billing_usage_alert' }];
    if (!a.purge) others.push({ name: 'foreign lb', alert_type: 'load_balancing_health_alert' });
    for (const o of others) {
      await cf.alerting.policies.create({
        account_id: a.id,
        ...o,
        enabled: true,
        mechanisms: { email: [{ id: 'someone@example.com' }] },
      } as any);
    }
  }
  for (const z of zones) await createStrangers(z, zoneIds.get(z.name)!);
  file = join(bed.dir, 'world.json');
  writeFileSync(file, desiredFile(zones, accounts));
  // the first apply writes thousands of objects: the budget of the real API is not the subject here
  const applied = await bed.cli(['apply', file, '--auto-approve', '--rate-limit', '100000/1']);
  expect(applied.code, `${applied.stdout}\n${applied.stderr}`).toBe(0);
}, 600_000);
afterAll(() => bed?.close());

function builtCli(args: string[]) {
  return spawnCli([...args, '--api-url', bed.t.url], {
    cwd: bed.dir,
    env: { CLOUDFLARE_API_TOKEN: TOKEN },
    timeoutMs: 300_000,
  });
}

interface Made {
  seed: number;
  edit: Edit;
}

/**
 * Checks a drift plan against the edits of one round; returns the failures, one line each. An owner
 * whose edits the files do not manage has no step; otherwise every managed edit is named by a step
 * of its owner, and every step of that owner names one of them.
 */
function misjudged(plan: JsonPlan, edits: Map<string, Made[]>): string[] {
  const byOwner = new Map<string, JsonStep[]>();
  for (const s of plan.steps) byOwner.set(s.owner.name, [...(byOwner.get(s.owner.name) ?? []), s]);
  const failures: string[] = [];
  const shown = (steps: JsonStep[]) =>
    steps.map((s) => `${s.action} ${s.address} [${s.changes.map((c) => c.path).join(', ')}]`).join('; ');
  const text = (s: JsonStep) => `${s.address} ${s.changes.map((c) => c.path).join(' ')}`.toLowerCase();
  for (const [owner, steps] of byOwner) {
    if (!edits.has(owner)) failures.push(`${owner}: not edited, yet drift shows ${shown(steps)}`);
  }
  for (const [owner, made] of edits) {
    const steps = byOwner.get(owner) ?? [];
    const where = `${owner} (${made.map((m) => `seed ${m.seed}: ${m.edit.label}`).join('; then ')})`;
    const expected = made.map((m) => m.edit.expect).filter((e): e is string => e !== null);
    if (expected.length === 0) {
      if (steps.length > 0) failures.push(`${where}: false drift: ${shown(steps)}`);
      continue;
    }
    for (const e of expected) {
      if (!steps.some((s) => text(s).includes(e)))
        failures.push(`${where}: missed drift, no step names "${e}"`);
    }
    const unnamed = steps.filter((s) => !expected.some((e) => text(s).includes(e)));
    if (unnamed.length > 0) failures.push(`${where}: steps that name no managed edit: ${shown(unnamed)}`);
  }
  return failures;
}

describe('drift against edits by another client', { timeout: 900_000 }, () => {
  it(`exits 0 with nothing edited: ${ZONE_COUNT} zones with records of every type, ${ACCOUNT_COUNT} accounts (built CLI)`, async () => {
    const run = await builtCli(['drift', file]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).not.toMatch(/Drift/);
    expect(run.stdout).toMatch(/No changes/);
  });

  it(`names every managed edit and nothing else: ${ROUNDS} rounds of one or two edits per zone and account`, async () => {
    const failures: string[] = [];
    let made = 0;
    let silent = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // odd rounds make two edits per owner: they must not hide or invent each other's drift
      const perOwner = round % 2 === 0 ? 1 : 2;
      const edits = new Map<string, Made[]>();
      for (let k = 0; k < perOwner; k++) {
        for (const [i, z] of zones.entries()) {
          const seed = BASE_SEED * 10_000 + k * 5_000 + round * ZONE_COUNT + i;
          const edit = await zoneEdit(cf, seed, z, zoneIds.get(z.name)!);
          edits.set(z.name, [...(edits.get(z.name) ?? []), { seed, edit }]);
        }
        for (const [i, a] of accounts.entries()) {
          const seed = BASE_SEED * 10_000 + k * 5_000 + 4_000 + round * ACCOUNT_COUNT + i;
          const edit = await accountEdit(cf, seed, a, poolIds.get(a.id)!);
          edits.set(a.id, [...(edits.get(a.id) ?? []), { seed, edit }]);
        }
      }
      // a zone no file names
      const stranger = STRANGER_ZONES[round % STRANGER_ZONES.length];
      await cf.dns.records.create({
        zone_id: zoneIds.get(stranger)!,
        type: 'A',
        name: `r${round}.${stranger}`,
        content: '192.0.2.1',
        ttl: 1,
      });
      const all = [...edits.values()].flat();
      made += all.length;
      silent += all.filter((m) => m.edit.expect === null).length;

      const args = ['drift', file, '--format', 'json'];
      const run = round === 0 ? await builtCli(args) : await bed.cli(args);
      const plan = JSON.parse(run.stdout) as JsonPlan;
      const wrong = misjudged(plan, edits);
      failures.push(...wrong.map((f) => `round ${round}: ${f}`));
      const anyDrift = plan.steps.length > 0;
      expect(run.code, run.stderr).toBe(anyDrift ? 2 : 0);

      const restored = await bed.cli(['apply', file, '--auto-approve']);
      expect(restored.code, `${restored.stdout}\n${restored.stderr}`).toBe(0);
    }
    console.info(
      `drift property: ${made} edits, ${made - silent} managed, ${silent} not (base seed ${BASE_SEED})`,
    );
    expect(failures, failures.join('\n')).toEqual([]);
    const twice = Math.floor(ROUNDS / 2);
    expect(made).toBe((ROUNDS + twice) * (ZONE_COUNT + ACCOUNT_COUNT));
    // both sides of the property are exercised
    expect(silent).toBeGreaterThan(ROUNDS * 10);
    expect(made - silent).toBeGreaterThan(ROUNDS * 50);
  });
});
