/**
 * Crashes (bench/crash/run.js is the long run): `zoneplan apply` killed with SIGKILL at 14 seeded
 * moments, each followed by a rerun that must converge with no duplicates and nothing outside the
 * plan touched; and `zoneplan serve` killed with SIGKILL while a large batch is in flight, after
 * which the batch is all there or not at all. The moments are stratified: each round kills in its
 * own slice of a run, so a few rounds spread over the whole run, where random ones could bunch.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { applyCrashes, crashFixtures, serverCrashes } from '../support/crash.js';
import { requireBuild } from '../support/processes.js';
import { startServer, type RunningServer } from '../../src/server/index.js';

const SEED = Number(process.env.CRASH_SEED ?? 4242); // the other beds use SEED + 1 and SEED + 2
const dirs: string[] = [];
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe(`crashes (seed ${SEED}; replay with CRASH_SEED=${SEED})`, () => {
  // the two tests have their own servers and files: they run side by side
  it.concurrent(
    'apply killed at 14 moments spread over a run (DNS, and every kind): every rerun converges, no duplicates, nothing outside the plan touched',
    async ({ expect }) => {
      requireBuild();
      // two independent DNS beds of 5 rounds each, and one of 4 rounds that also renames Page Shield
      // policies, Logpush jobs and the notification policy every round (and migrates the WAF in its
      // first), run side by side: the rounds mostly wait on the API
      const bed = async (seed: number, runs: number, withKinds: boolean) => {
        const dir = mkdtempSync(join(tmpdir(), 'zp-crash-'));
        dirs.push(dir);
        const changes = 220; // over the free zone's batch limit of 200: two batches per apply
        // latency stretches each apply so the kill moments fall before, between and inside requests
        const server = await startServer({
          db: join(dir, 'api.db'),
          fixtures: crashFixtures(changes, seed),
          faults: 'latency=15ms',
          quiet: true,
        });
        servers.push(server);
        return applyCrashes({ url: server.url, dir, seed, runs, changes, withKinds, stratified: true });
      };
      const results = await Promise.all([
        bed(SEED, 5, false),
        bed(SEED + 1, 5, false),
        bed(SEED + 2, 4, true),
      ]);
      const rows = results.flatMap((r) => r.rows);
      expect(rows).toHaveLength(14);
      expect(
        rows
          .filter((r) => r.problems.length > 0)
          .map((r) => `round ${r.round} (kill at ${r.killAt} ms): ${r.problems.join('; ')}`),
      ).toEqual([]);
      expect(rows.every((r) => r.rerunExit === 0)).toBe(true);
      // the kills really happened (a kill after the run ended would prove nothing); the moments are
      // drawn over the length of a calibration run, so most land inside a run
      expect(rows.filter((r) => r.killed).length).toBeGreaterThanOrEqual(7);
      for (const r of results) expect(r.finalPlanExit, r.finalPlan).toBe(0);
    },
    150_000,
  );

  it.concurrent(
    'serve killed mid-batch: after restart each batch is all there or not at all',
    async ({ expect }) => {
      requireBuild();
      const rows = await serverCrashes({ seed: SEED, runs: 4, size: 3000, stratified: true });
      expect(
        rows.flatMap((r) => r.problems.map((p) => `round ${r.round} (kill at ${r.killAt} ms): ${p}`)),
      ).toEqual([]);
      // at least one kill landed while the batch was in flight (no answer reached the client)
      expect(rows.some((r) => r.answer !== 200)).toBe(true);
    },
    120_000,
  );
});
