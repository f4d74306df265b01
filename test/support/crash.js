// Crash runs shared by bench/crash/run.js (long) and test/reliability/crash.test.ts (short).
//
// applyCrashes: a desired state changes N times (seeded); each time `zoneplan apply` is killed with
// SIGKILL at a seeded random moment, then run again to the end. After every rerun: exit 0, the
// zone equals the desired state record by record (so no duplicates), and what the plan does not
// own (records under an `ignore` pattern, a zone the file does not name) is byte-identical.
//
// serverCrashes: `zoneplan serve` is killed with SIGKILL while a large DNS batch is in flight, then
// restarted on the same database: the batch is entirely there or not at all.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnCli, startServe } from './processes.js';
import * as s from './scenario.js';

/**
 * The most records the file asks for: with the ignored ones, within the 1,000 an older Free zone
 * holds (the scenario's DNS zone), however many rounds a long run makes; a round never crosses it.
 */
export const MAX_RECORDS = s.OLDER_FREE_QUOTA - 100;

/** A seeded change of the desired records: some contents change, some go, some are added. */

export function mutate(records, random, round, changes) {
  const out = records.map((r) => ({ ...r }));
  for (let i = 0; i < changes; i++) {
    const roll = random();
    const at = Math.floor(random() * out.length);
    if (roll < 0.35 && out[at]?.type === 'A' && !out[at].name.startsWith('h0'))
      out[at] = { ...out[at], content: `198.19.${200 + (round % 50)}.${(i % 250) + 1}` };
    else if (roll < 0.55 && out.length > 20 && out[at]?.type === 'A' && !/^h\d$/.test(out[at].name))
      out.splice(at, 1);
    else if (out.length >= MAX_RECORDS) {
      // full: a create would take the zone over its quota, so this change deletes instead (when it can)
      if (out[at]?.type === 'A' && !/^h\d$/.test(out[at].name)) out.splice(at, 1);
    } else
      out.push({
        name: `r${round}x${i}`,
        type: 'A',
        content: `198.18.${200 + (i % 50)}.${round + 1}`,
        ttl: 1,
      });
  }
  // a CNAME must keep a target: drop those whose target went away
  const names = new Set(out.map((r) => `${r.name}.${s.DNS_ZONE}`));
  return out.filter((r) => r.type !== 'CNAME' || names.has(r.content));
}

const ignoredOf = (records) => JSON.stringify(records.filter((r) => r.name.startsWith('_acme-challenge')));

/**
 * Where in its window round `round` of `runs` kills, as a fraction of the window: seeded uniform, or
 * with `stratified` seeded uniform within the round's own slice [round/runs, (round+1)/runs), so
 * that a few rounds already spread over the whole window (before, between and inside requests)
 * instead of leaving parts of it to chance.
 */
function killPoint(random, round, runs, stratified) {
  return stratified ? (round + random()) / runs : random();
}

/**
 * Runs `runs` kill-and-rerun rounds (after one calibration apply) against a server at `url` whose fixtures came from
 * s.fixtures(s.dnsScenario(changes, seed)). Kill moments are drawn from [0, calibration run time],
 * capped by `killWindowMs` when given (`stratified`: see killPoint). Returns one row per round; `problems` lists what broke.
 */
export async function applyCrashes({
  url,
  dir,
  seed,
  runs,
  changes,
  killWindowMs,
  withKinds = false,
  stratified = false,
  onRound = () => {},
}) {
  const random = s.rng(seed);
  const get = s.reader(url, s.TOKEN);
  const env = { CLOUDFLARE_API_TOKEN: s.TOKEN, [s.LOGPUSH_SECRET_ENV]: 'crash-logpush-secret' };
  const flags = withKinds ? ['--allow-irreversible'] : [];
  const desired = (records, variant) => s.desiredYaml(records, { dnsOnly: !withKinds, variant });
  const net = ['--api-url', url, '--rate-limit', '100000/1'];
  const apply = (killAfterMs) =>
    spawnCli(['apply', 'zones.yaml', '--auto-approve', '--force', ...flags, ...net], {
      cwd: dir,
      env,
      killAfterMs,
      timeoutMs: 60_000,
    });
  const otherBefore = JSON.stringify(await s.zoneRecords(get, s.OTHER_ZONE));
  const ignoredBefore = ignoredOf(await s.zoneRecords(get, s.DNS_ZONE));
  let { records } = s.dnsScenario(changes, seed);
  // calibration: the first desired state applied without a kill; its duration is the kill window,
  // so kill moments spread over a whole run on this machine, whatever its speed
  writeFileSync(join(dir, 'zones.yaml'), desired(records, 0));
  const calibration = await apply(undefined);
  if (calibration.code !== 0)
    throw new Error(`the calibration apply failed: ${calibration.stderr.slice(-500)}`);
  const window = Math.min(killWindowMs ?? Infinity, calibration.ms);
  const rows = [];
  for (let round = 0; round < runs; round++) {
    records = mutate(records, random, round + 1, changes);
    writeFileSync(join(dir, 'zones.yaml'), desired(records, round + 1));
    const killAt = Math.floor(killPoint(random, round, runs, stratified) * window);
    const killed = await apply(killAt);
    const rerun = await apply(undefined);
    const problems = [];
    if (rerun.code !== 0)
      problems.push(`rerun exit ${rerun.code}: ${rerun.stderr.split('\n').slice(-4).join(' | ')}`);
    for (const out of [killed.stderr, rerun.stderr])
      if (/internal error|\n\s+at /.test(out)) problems.push(`stack trace: ${out.slice(0, 300)}`);
    problems.push(...(await s.dnsDifferences(get, records)));
    if (withKinds) problems.push(...(await s.kindDifferences(get, round + 1)));
    if (JSON.stringify(await s.zoneRecords(get, s.OTHER_ZONE)) !== otherBefore)
      problems.push('other zone changed');
    if (ignoredOf(await s.zoneRecords(get, s.DNS_ZONE)) !== ignoredBefore)
      problems.push('ignored records changed');
    const row = {
      round,
      killAt,
      killed: killed.signal === 'SIGKILL',
      killedExit: killed.code ?? killed.signal,
      rerunExit: rerun.code,
      records: records.length,
      problems,
    };
    rows.push(row);
    onRound(row);
  }
  const plan = await spawnCli(['plan', 'zones.yaml', '--detailed-exitcode', ...net], { cwd: dir, env });
  return {
    rows,
    calibrationMs: calibration.ms,
    finalPlanExit: plan.code,
    finalPlan: plan.stdout + plan.stderr,
  };
}

/** A server bed for applyCrashes: `zoneplan serve` in-process or as a child is the caller's choice. */
export function crashFixtures(changes, seed) {
  return s.fixtures({ ...s.dnsScenario(changes, seed), pools: 1 });
}

const BATCH_ZONE = 'batch.crash';

/**
 * Kills `zoneplan serve` (a child process) with SIGKILL while a batch of `size` record creations is in
 * flight, `runs` times at seeded moments, restarting it on the same database each time. Every
 * batch must be all there or not at all; a batch whose success answer arrived must be all there.
 */
export async function serverCrashes({ seed, runs, size, stratified = false, onRound = () => {} }) {
  const dir = mkdtempSync(join(tmpdir(), 'zoneplan-crash-serve-'));
  const random = s.rng(seed);
  writeFileSync(
    join(dir, 'fixtures.yaml'),
    JSON.stringify({
      accounts: [{ id: s.ACCOUNT, name: 'Crash' }],
      zones: [{ name: BATCH_ZONE, account: s.ACCOUNT, plan: 'enterprise' }],
      tokens: [{ name: 'crash', value: s.TOKEN }],
    }),
  );
  const db = join(dir, 'api.db');
  const start = () => startServe({ db, fixtures: 'fixtures.yaml', cwd: dir });
  const rows = [];
  let serve = await start();
  try {
    const zone = await s.zoneId(s.reader(serve.url, s.TOKEN), BATCH_ZONE);
    const batch = (url, tag) =>
      fetch(`${url}/zones/${zone}/dns_records/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          posts: Array.from({ length: size }, (_, i) => ({
            name: `${tag}-${i}`,
            type: 'TXT',
            content: `crash ${tag} ${i}`,
          })),
        }),
      }).then(
        (res) => res.status,
        () => 'connection lost',
      );
    // calibration: how long one batch takes here, so kill moments spread over the whole request
    const t0 = Date.now();
    const calStatus = await batch(serve.url, 'calibration');
    if (calStatus !== 200) throw new Error(`the calibration batch failed: ${calStatus}`);
    const batchMs = Date.now() - t0;
    for (let round = 0; round < runs; round++) {
      const tag = `run${round}`;
      const killAt = Math.floor(killPoint(random, round, runs, stratified) * batchMs * 1.2);
      const answer = batch(serve.url, tag);
      await new Promise((r) => setTimeout(r, killAt));
      await serve.kill('SIGKILL');
      const status = await answer;
      serve = await start();
      const live = await s.reader(serve.url, s.TOKEN)(`/zones/${zone}/dns_records?type=TXT&per_page=5000000`);
      const present = live.filter((r) => r.name.startsWith(`${tag}-`)).length;
      const problems = [];
      if (present !== 0 && present !== size) problems.push(`half-written: ${present} of ${size} records`);
      if (status === 200 && present !== size)
        problems.push(`answered 200 but ${present} of ${size} records kept`);
      const row = { round, killAt, batchMs, answer: status, present, problems };
      rows.push(row);
      onRound(row);
    }
  } finally {
    await serve.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
