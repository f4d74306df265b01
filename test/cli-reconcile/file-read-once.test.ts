/**
 * plan reads its desired-state file once: the bytes that the early scan reads (before the zones
 * are looked up) are the bytes the loader parses, so the parse starts as soon as the reads are on
 * their way, with no second read of the disk, and the scan and the parse see the same text. Without
 * the scan (no target known before the checks), the loader reads the file itself, once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cli, startBed, writeYaml, zoneFile, type Bed } from './helpers.js';

/** Every path the CLI's one file reader was asked for: bytes or text, sync or not. */
const reads = vi.hoisted(() => [] as string[]);
vi.mock('../../src/read-user-file.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/read-user-file.js')>();
  return {
    ...real,
    readUserFile: (file: string, limit: number) => (reads.push(file), real.readUserFile(file, limit)),
    readUserFileSync: (file: string, limit: number) => (reads.push(file), real.readUserFileSync(file, limit)),
    readUserText: (file: string, limit: number) => (reads.push(file), real.readUserText(file, limit)),
  };
});

let bed: Bed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

describe('the desired-state file of a plan', () => {
  it('is read once, whether the early scan reads it or the loader does', async () => {
    bed = await startBed();
    const file = writeYaml(
      bed.dir,
      'zones.yaml',
      zoneFile('once.example', ['{ name: www, type: A, content: 192.0.2.1 }']),
    );
    const readsOf = () => reads.filter((f) => f.endsWith('zones.yaml')).length;

    // a token and --api-url: the target is known before the checks, the scan reads the file
    reads.length = 0;
    const early = await cli(['plan', file, '--api-url', bed.server.url], {
      cwd: bed.dir,
      env: { CLOUDFLARE_API_TOKEN: bed.token },
    });
    expect(early.code, early.stderr).toBe(0);
    expect(early.stdout).toContain('www');
    expect(readsOf()).toBe(1);

    // an e-mail and key: no early reads (see earlyTarget), the loader reads the file
    reads.length = 0;
    const late = await cli(['plan', file, '--api-url', bed.server.url], {
      cwd: bed.dir,
      env: { CLOUDFLARE_EMAIL: 'ops@example.com', CLOUDFLARE_API_KEY: bed.token },
    });
    expect(readsOf()).toBe(1);
    expect(late.stderr).not.toContain('zones.yaml: ');
  });
});
