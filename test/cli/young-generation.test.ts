/**
 * A zoneplan process lets V8's young generation grow for a command of ordinary size (fewer
 * scavenges: the speed of a 10,000-record plan) and keeps it near its first size once its
 * desired-state files pass 4 MiB (src/young-generation.ts): a 100,000-record plan keeps every
 * record it reads, and a young generation grown to V8's maximum put its peak memory about 100 MB
 * higher in some runs than in others (docs/benchmarks.md, "Peak memory"). The built CLI validates
 * a file of 5,000 records (enough to make V8 grow the young generation several times over) with a
 * probe preloaded that reads the young generation's size as the process starts and as it ends;
 * the large file is the same records and a comment that takes it past 4 MiB.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requireBuild, spawnCli } from '../support/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'zoneplan-young-generation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sizes = join(dir, 'sizes.json');
const probe = join(dir, 'probe.mjs');
writeFileSync(
  probe,
  [
    "import { getHeapSpaceStatistics } from 'node:v8';",
    "import { writeFileSync } from 'node:fs';",
    "const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;",
    'const first = young();',
    `process.on('exit', () => writeFileSync(${JSON.stringify(sizes)}, JSON.stringify({ first, last: young() })));`,
  ].join('\n'),
);

const records = Array.from(
  { length: 5000 },
  (_, i) => `        - { name: h${i}, type: TXT, content: 'record ${i}', ttl: 300 }`,
);
const zoneFile = (name: string, padding: string[]) => {
  const file = join(dir, name);
  writeFileSync(
    file,
    [
      'version: 1',
      ...padding,
      'zones:',
      '  - name: young.example',
      "    account: '0123456789abcdef0123456789abcdef'",
      '    dns:',
      '      records:',
      ...records,
      '',
    ].join('\n'),
  );
  return file;
};
const small = zoneFile('small.yaml', []);
// 4.2 MB of comment lines: bytes read, no records
const large = zoneFile(
  'large.yaml',
  Array.from({ length: 42_000 }, () => `# ${'x'.repeat(98)}`),
);

async function youngGeneration(file: string) {
  const r = await spawnCli(['validate', file], { cwd: dir, nodeArgs: ['--import', probe] });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(readFileSync(sizes, 'utf8')) as { first: number; last: number };
}

describe('the young generation of a zoneplan process', () => {
  it('grows through a 5,000-record validate', async () => {
    requireBuild();
    const { first, last } = await youngGeneration(small);
    expect(last).toBeGreaterThan(2 * first);
  });

  // V8 grows it once or twice before the file is read (bin/v8-flags.js: four times at a step, 1 MB
  // to 8 MB on Node 24); left to grow, it reached 64 MB on the same records
  it('stays within eight times its first size once the files read pass 4 MiB', async () => {
    requireBuild();
    const { first, last } = await youngGeneration(large);
    expect(last).toBeLessThanOrEqual(8 * first);
  });
});
