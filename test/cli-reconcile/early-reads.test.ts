/**
 * plan and apply start their live reads (GET only) once the files are parsed, while the files are
 * still checked: a file with errors still reports only its errors (no target line, no request line,
 * the same exit code), nothing but a GET ever reaches the target before the files are valid, and
 * an early answer serves the real read (no request is sent twice).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cli, startBed, writeYaml, zoneFile, zoneRecords, type Bed } from './helpers.js';
import { startProxy, type Proxy } from './proxy.js';

const ZONE = 'early.example';
let bed: Bed | undefined;
let proxy: Proxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await bed?.close();
  bed = proxy = undefined;
});

/** A bed whose zone holds one record, behind a proxy that records every request it passes on. */
async function recordedBed() {
  bed = await startBed();
  const env = { CLOUDFLARE_API_TOKEN: bed.token };
  const seeded = await cli(
    [
      'apply',
      writeYaml(bed.dir, 'seed.yaml', zoneFile(ZONE, ['{ name: "@", type: A, content: 192.0.2.1 }'])),
      '--auto-approve',
      '--api-url',
      bed.server.url,
    ],
    { cwd: bed.dir, env },
  );
  expect(seeded.code, seeded.stderr).toBe(0);
  proxy = await startProxy(bed.server.url, 'pass');
  return { bed, proxy, env };
}

/** The seeded record and 40 new ones. */
/**
 * A run that failed on the file and said nothing else: its diagnostics, located, then the closing
 * error line (no target line, no request line). Returns the lines.
 */
function onlyDiagnostics(
  run: { code: number | null; stdout: string; stderr: string },
  file: string,
): string[] {
  expect(run.code, run.stderr).toBe(1);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(
    lines.slice(0, -1).every((l) => l.startsWith(`${file}:`)),
    run.stderr,
  ).toBe(true);
  expect(lines.at(-1)).toMatch(/^error: /);
  return lines;
}

const validRecords = [
  '{ name: "@", type: A, content: 192.0.2.1 }',
  ...Array.from({ length: 40 }, (_, i) => `{ name: new${i}, type: TXT, content: "text ${i}" }`),
];
/** The same and one that is invalid (an A record whose content is no IPv4 address). */
const invalidFile = zoneFile(ZONE, [...validRecords, '{ name: broken, type: A, content: not-an-address }']);

describe('live reads that overlap the checks of the files', () => {
  it('a file with errors reports only its errors, and apply sends no write', async () => {
    const { bed, proxy, env } = await recordedBed();
    const file = writeYaml(bed.dir, 'zones.yaml', invalidFile);
    for (const command of [['plan'], ['apply', '--auto-approve'], ['plan', '--verbose']]) {
      const run = await cli([command[0], file, ...command.slice(1), '--api-url', proxy.url], {
        cwd: bed.dir,
        env,
      });
      const lines = onlyDiagnostics(run, file);
      expect(lines.some((l) => l.includes('not-an-address'))).toBe(true);
    }
    // reads may have gone out; writes never did
    expect(
      proxy.seen.filter((r) => !r.startsWith('GET ')),
      proxy.seen.join('\n'),
    ).toEqual([]);
    expect((await zoneRecords(bed, ZONE)).map((r) => r.name)).toEqual([ZONE]);
  });

  it('the zones are looked up before the file is parsed: a file that does not parse still only reports its error', async () => {
    const { bed, proxy, env } = await recordedBed();
    // the zone's head reads plainly (src/cli/pipeline/early-scan.ts); a record further down does not parse
    const file = writeYaml(
      bed.dir,
      'zones.yaml',
      zoneFile(ZONE, [...validRecords, '{ name: broken, type: A, content: 192.0.2.9']),
    );
    const run = await cli(['plan', file, '--api-url', proxy.url, '--verbose'], { cwd: bed.dir, env });
    onlyDiagnostics(run, file);
    // the lookup went out from the text alone (the parse never gave the zone), and nothing but reads
    expect(proxy.seen[0]).toBe('GET /client/v4/zones');
    expect(proxy.seen.filter((r) => !r.startsWith('GET '))).toEqual([]);
  });

  it('a valid file is read once: the early answers serve the plan, and apply then writes', async () => {
    const { bed, proxy, env } = await recordedBed();
    const file = writeYaml(bed.dir, 'zones.yaml', zoneFile(ZONE, validRecords));
    const planned = await cli(['plan', file, '--api-url', proxy.url, '--verbose'], { cwd: bed.dir, env });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stderr.split('\n')[0]).toMatch(/^target: /);
    const requestLines = planned.stderr.split('\n').filter((l) => /^GET \//.test(l));
    expect(requestLines.map((l) => l.split(' ')[1])).toEqual([
      `/zones?name=${ZONE}&page=1&per_page=50`,
      '/zones/:id/dns_records?page=1&per_page=5000000',
    ]);
    expect(proxy.seen).toEqual([`GET /client/v4/zones`, expect.stringMatching(/^GET .*\/dns_records$/)]);

    proxy.seen.length = 0;
    const applied = await cli(['apply', file, '--auto-approve', '--api-url', proxy.url], {
      cwd: bed.dir,
      env,
    });
    expect(applied.code, applied.stderr).toBe(0);
    const firstWrite = proxy.seen.findIndex((r) => !r.startsWith('GET '));
    expect(firstWrite).toBeGreaterThan(0);
    expect(proxy.seen.slice(0, firstWrite).every((r) => r.startsWith('GET '))).toBe(true);
    expect(await zoneRecords(bed, ZONE)).toHaveLength(41);
  });
});
