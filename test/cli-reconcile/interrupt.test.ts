/**
 * Graceful interrupt (issue 15): SIGINT to a real apply mid-run against a server with latency.
 * No new step starts, the report and the journal's end are written, the exit code is 130, and a
 * rerun converges.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, cli, cliAt, startBed, writeYaml, zoneFile, type Bed, type CliResult } from './helpers.js';

let bed: Bed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

const ZONES = Array.from({ length: 8 }, (_, i) => `int${i}.example`);

function desired(): string {
  const entries = ZONES.map((z) =>
    zoneFile(z, [
      "{ name: '@', type: A, content: 192.0.2.1 }",
      '{ name: www, type: CNAME, content: www.example.net }',
    ])
      .split('\n')
      .slice(2)
      .join('\n'),
  );
  return ['version: 1', 'zones:', ...entries].join('\n') + '\n';
}

function journalLines(dir: string): { event: string }[] {
  const jdir = join(dir, '.zoneplan', 'journal');
  if (!existsSync(jdir)) return [];
  return readdirSync(jdir).flatMap((f) =>
    readFileSync(join(jdir, f), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { event: string }),
  );
}

function spawnCli(b: Bed, args: string[]) {
  return spawn(process.execPath, [join(ROOT, 'bin', 'zoneplan.js'), ...args, '--api-url', b.server.url], {
    cwd: b.dir,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CLOUDFLARE_API_TOKEN: b.token },
  });
}

/** The built CLI as a child we can signal once the journal shows a finished step. */
function applyThenSignal(
  b: Bed,
  file: string,
  signals: number,
  signal: NodeJS.Signals = 'SIGINT',
  args = ['apply', file, '--auto-approve', '--parallelism', '1'],
): Promise<CliResult> {
  return new Promise((done) => {
    const child = spawnCli(b, args);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => {
      stderr += String(d);
      // a second signal once the first was taken (two sent together may arrive as one)
      if (signals > 1 && stderr.includes(`${signal} received`) && !stderr.includes('stopping now')) {
        signals = 0;
        child.kill(signal);
      }
    });
    const poll = setInterval(() => {
      if (!journalLines(b.dir).some((l) => l.event === 'step-done')) return;
      clearInterval(poll);
      child.kill(signal);
    }, 20);
    child.on('close', (code) => {
      clearInterval(poll);
      done({ code: code ?? -1, stdout, stderr });
    });
  });
}

describe('SIGINT mid-apply', () => {
  it('finishes what is in flight, reports, ends the journal, exits 130; a rerun converges', async () => {
    bed = await startBed({ faults: 'latency=150ms' });
    const file = writeYaml(bed.dir, 'zones.yaml', desired());
    const r = await applyThenSignal(bed, file, 1);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('SIGINT received: starting no new step');
    expect(r.stdout).toMatch(/Applied \d+ of \d+ steps\./);
    expect(r.stdout).toContain('not run:');
    expect(r.stdout).not.toContain('failed:');
    // the command to finish with is the interrupted one, flags and all: without --api-url it would
    // go to whatever target the environment names
    expect(r.stderr).toContain(`apply was interrupted: ${r.stdout.match(/Applied (\d+) of/)![1]} step`);
    expect(r.stderr).toContain(
      `; run \`zoneplan apply ${file} --auto-approve --parallelism 1 --api-url ${bed.server.url}\` again to finish`,
    );
    // a step's name says its kind once (`int0.example zone int0.example`, not `zone zone`)
    expect(r.stdout).toMatch(/not run: (int\d\.example) (zone \1|dns )/);
    expect(r.stdout).not.toContain('zone zone');
    const events = journalLines(bed.dir).map((l) => l.event);
    expect(events.at(-1)).toBe('run-interrupted');

    const again = await cliAt(bed, ['apply', file, '--auto-approve']);
    expect(again.code, again.stderr).toBe(0);
    const plan = await cliAt(bed, ['plan', file, '--detailed-exitcode']);
    expect(plan.code, plan.stdout).toBe(0);
  });

  it('of a saved plan: the hint says to plan again, since the plan is stale once steps ran', async () => {
    bed = await startBed({ faults: 'latency=150ms' });
    const file = writeYaml(bed.dir, 'zones.yaml', desired());
    const env = { CLOUDFLARE_API_TOKEN: bed.token };
    const planned = await cli(['plan', file, '--out', 'plan.json', '--api-url', bed.server.url], {
      cwd: bed.dir,
      env,
    });
    expect(planned.code, planned.stderr).toBe(0);
    const args = ['apply', 'plan.json', '--auto-approve', '--parallelism', '1'];
    const r = await applyThenSignal(bed, file, 1, 'SIGINT', args);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(
      /apply was interrupted: \d+ steps? done, \d+ not run; the saved plan plan\.json no longer applies \(the steps done changed the live state it was made from\): to finish, plan again as it was made/,
    );
    expect(r.stderr).not.toContain('again to finish');
    // what the hint warns of: the saved plan is refused as stale, and a new plan finishes
    const again = await cli([...args, '--api-url', bed.server.url], { cwd: bed.dir, env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('the saved plan plan.json is stale');
    const replanned = await cli(
      ['plan', file, '--out', 'plan.json', '--force', '--api-url', bed.server.url],
      { cwd: bed.dir, env },
    );
    expect(replanned.code, replanned.stderr).toBe(0);
    const finished = await cli([...args, '--api-url', bed.server.url], { cwd: bed.dir, env });
    expect(finished.code, finished.stderr).toBe(0);
    expect((await cliAt(bed, ['plan', file, '--detailed-exitcode'])).code).toBe(0);
  });

  it('a second signal exits at once', async () => {
    bed = await startBed({ faults: 'latency=150ms' });
    const file = writeYaml(bed.dir, 'zones.yaml', desired());
    const r = await applyThenSignal(bed, file, 2);
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('stopping now');
    expect(r.stdout).not.toContain('Applied');
  });

  it('SIGTERM (a CI cancel) is handled the same way', async () => {
    bed = await startBed({ faults: 'latency=150ms' });
    const file = writeYaml(bed.dir, 'zones.yaml', desired());
    const r = await applyThenSignal(bed, file, 1, 'SIGTERM');
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('SIGTERM received: starting no new step');
    expect(r.stdout).toMatch(/Applied \d+ of \d+ steps\./);
    expect(journalLines(bed.dir).at(-1)?.event).toBe('run-interrupted');
  });
});

describe('SIGINT after the last step', () => {
  it('reports that nothing is left instead of asking for a run to finish', async () => {
    bed = await startBed({ faults: 'latency=150ms' });
    const zone = ZONES[0]!;
    // a Page Shield switch: its write is read back (a DNS batch's answer settles the zone at once,
    // which would leave no window for the signal)
    const one = (enabled: boolean) =>
      zoneFile(zone, ["{ name: '@', type: A, content: 192.0.2.1 }"]) +
      `\n    page_shield: { enabled: ${enabled} }\n`;
    const file = writeYaml(bed.dir, 'one.yaml', one(true));
    expect((await cliAt(bed, ['apply', file, '--auto-approve'])).code).toBe(0);
    // the signal is sent on the first step-done of the journal: not this run's
    rmSync(join(bed.dir, '.zoneplan', 'journal'), { recursive: true });
    // one step; the signal arrives while its write is read back (every request waits 150 ms)
    writeYaml(bed.dir, 'one.yaml', one(false));
    const r = await applyThenSignal(bed, file, 1);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stdout).toContain('Applied 1 of 1 step.');
    expect(r.stderr).toContain(
      'apply was interrupted after its last step: 1 step done, nothing is left to run',
    );
    expect(r.stderr).not.toContain('again to finish');
  });
});

describe('SIGINT during plan or drift', () => {
  it('stops at once with 130 and one line, nothing to finish', async () => {
    bed = await startBed({ faults: 'latency=300ms' });
    const file = writeYaml(bed.dir, 'zones.yaml', desired());
    for (const command of ['plan', 'drift']) {
      const r = await new Promise<CliResult & { afterSignalMs: number }>((done) => {
        const child = spawnCli(bed!, [command, file]);
        let stdout = '';
        let stderr = '';
        let sentAt = 0;
        child.stdout.on('data', (d) => (stdout += String(d)));
        child.stderr.on('data', (d) => {
          stderr += String(d);
          // the target line comes before the reads, which the latency keeps in flight
          if (!sentAt && stderr.includes('target: ')) {
            sentAt = Date.now();
            child.kill('SIGINT');
          }
        });
        child.on('close', (code) =>
          done({ code: code ?? -1, stdout, stderr, afterSignalMs: Date.now() - sentAt }),
        );
      });
      expect(r.code, command + r.stderr).toBe(130);
      expect(r.stderr).toContain('interrupted: stopping now');
      expect(r.stdout).not.toMatch(/^Plan:|No changes/m);
      expect(r.afterSignalMs).toBeLessThan(1000);
    }
  });
});
