/**
 * Every zoneplan process keeps V8's young generation near its first size (bin/v8-flags.js): a
 * command that reads many records keeps them all, and a young generation grown to V8's maximum
 * put the peak memory of a 100,000-record plan about 100 MB higher in some runs than in others
 * (docs/benchmarks.md, "Peak memory"). The built CLI validates a file of 5,000 records (enough
 * to make V8 grow it several times over) with a probe preloaded that reads the young
 * generation's size as the process starts and as it ends. V8 still grows it by one step of its
 * own (1 MB to 2 MB on Node 24); left to double it, it reached 64 MB here.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requireBuild, spawnCli } from '../support/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'zoneplan-young-generation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const probe = join(dir, 'probe.mjs');
writeFileSync(
  probe,
  [
    "import { getHeapSpaceStatistics } from 'node:v8';",
    "import { writeFileSync } from 'node:fs';",
    "const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;",
    'const first = young();',
    `process.on('exit', () => writeFileSync(${JSON.stringify(join(dir, 'sizes.json'))}, JSON.stringify({ first, last: young() })));`,
  ].join('\n'),
);

const records = Array.from(
  { length: 5000 },
  (_, i) => `        - { name: h${i}, type: TXT, content: 'record ${i}', ttl: 300 }`,
);
const file = join(dir, 'zone.yaml');
writeFileSync(
  file,
  [
    'version: 1',
    'zones:',
    '  - name: young.example',
    "    account: '0123456789abcdef0123456789abcdef'",
    '    dns:',
    '      records:',
    ...records,
    '',
  ].join('\n'),
);

describe('the young generation of a zoneplan process', () => {
  it('stays within twice its first size through a 5,000-record validate', async () => {
    requireBuild();
    const r = await spawnCli(['validate', file], { cwd: dir, nodeArgs: ['--import', probe] });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { first, last } = JSON.parse(readFileSync(join(dir, 'sizes.json'), 'utf8')) as {
      first: number;
      last: number;
    };
    expect(last).toBeLessThanOrEqual(2 * first);
  });
});
