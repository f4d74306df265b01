/**
 * A long wait for the API's retry-after (over 5 s) is said on stderr in one line, without
 * --verbose: a run that goes quiet for minutes must not look hung (issue 15).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cliAt, startBed, writeYaml, zoneFile, type Bed } from './helpers.js';

let bed: Bed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

describe('a long retry-after', () => {
  it('prints one line saying why and for how long', async () => {
    // one request per 7 s: the second is answered 429 with retry-after 7
    bed = await startBed({ faults: 'ratelimit=1/7s' });
    const file = writeYaml(
      bed.dir,
      'zones.yaml',
      zoneFile('wait.example', ["{ name: '@', type: A, content: 192.0.2.1 }"]),
    );
    const r = await cliAt(bed, ['apply', file, '--auto-approve']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('waiting '));
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines[0]).toMatch(
      /^waiting [67]s \(until \d\d:\d\d:\d\d UTC\) as retry-after says: the API rate limit was reached \(429/,
    );
  }, 60_000);
});
