/**
 * Target safety (issue 15): a missing CI secret (GitHub passes it as an empty string) or CI without
 * credentials never falls back to the embedded local API silently; `--local` or `target: { local }`
 * asks for it on purpose, and `--require-target` lets a pipeline insist on one sort.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, startBed, tempDir, writeYaml, zoneFile, type Bed } from './helpers.js';

const ZONE = 'target.example';
let bed: Bed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

function setup(extra = ''): { dir: string; file: string } {
  const dir = tempDir();
  const file = writeYaml(
    dir,
    'zones.yaml',
    extra + zoneFile(ZONE, ["{ name: '@', type: A, content: 192.0.2.1 }"]),
  );
  return { dir, file };
}
const firstLine = (s: string) => s.split('\n')[0];
const localDb = (dir: string) => existsSync(join(dir, '.zoneplan', 'local.db'));

describe('choosing the embedded local API', () => {
  it('without any credential variable and outside CI: the embedded API, said on the first stderr line', async () => {
    const { dir } = setup();
    const r = await cli(['apply', 'zones.yaml', '--auto-approve'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(firstLine(r.stderr)).toMatch(/^target: the embedded local API over \.zoneplan\/local\.db/);
  });

  it('an empty CLOUDFLARE_API_TOKEN is an error naming it, in CI or not, and nothing is applied', async () => {
    const envs: Record<string, string>[] = [
      { CLOUDFLARE_API_TOKEN: '' },
      { CLOUDFLARE_API_TOKEN: '', CI: 'true' },
    ];
    for (const env of envs) {
      const { dir } = setup();
      const r = await cli(['apply', 'zones.yaml', '--auto-approve'], { cwd: dir, env });
      expect(r.code, JSON.stringify(env)).toBe(1);
      expect(r.stderr).toContain('CLOUDFLARE_API_TOKEN is set but empty');
      expect(r.stdout).not.toContain('Applied');
      expect(localDb(dir)).toBe(false);
    }
  });

  it('empty e-mail and key are named together', async () => {
    const { dir } = setup();
    const r = await cli(['plan', 'zones.yaml'], {
      cwd: dir,
      env: { CLOUDFLARE_EMAIL: '', CLOUDFLARE_API_KEY: ' ' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('CLOUDFLARE_EMAIL, CLOUDFLARE_API_KEY are set but empty');
  });

  it('CI without credentials refuses; --local or `target: { local }` asks for it on purpose', async () => {
    const { dir } = setup();
    const refused = await cli(['apply', 'zones.yaml', '--auto-approve'], { cwd: dir, env: { CI: 'true' } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('no credentials in CI');
    expect(refused.stderr).toContain('--local');
    expect(localDb(dir)).toBe(false);

    const flagged = await cli(['apply', 'zones.yaml', '--auto-approve', '--local'], {
      cwd: dir,
      env: { CI: 'true', CLOUDFLARE_API_TOKEN: '' },
    });
    expect(flagged.code, flagged.stderr).toBe(0);
    expect(firstLine(flagged.stderr)).toMatch(/^target: the embedded local API/);

    const inFile = setup('target: { local: { db: .zoneplan/local.db } }\n');
    const fromFile = await cli(['plan', 'zones.yaml'], { cwd: inFile.dir, env: { CI: 'true' } });
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(firstLine(fromFile.stderr)).toMatch(/^target: the embedded local API/);
  });

  it('CI=false is not CI', async () => {
    const { dir } = setup();
    const r = await cli(['plan', 'zones.yaml'], { cwd: dir, env: { CI: 'false' } });
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('--require-target', () => {
  it('refuses the embedded API when a pipeline requires a real one, and the reverse', async () => {
    const { dir } = setup();
    const r = await cli(['plan', 'zones.yaml', '--require-target', 'api'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--require-target api, but this run would use the embedded local API');
    // refused before the embedded server starts: no local database appears
    expect(localDb(dir)).toBe(false);
    // in CI the refusal does not suggest --local, which --require-target api would refuse next
    const ci = await cli(['plan', 'zones.yaml', '--require-target', 'api'], {
      cwd: dir,
      env: { CI: 'true' },
    });
    expect(ci.code).toBe(1);
    expect(ci.stderr).toContain('no credentials in CI');
    expect(ci.stderr).not.toContain('--local');

    bed = await startBed({ dir });
    const env = { CLOUDFLARE_API_TOKEN: bed.token };
    const api = ['plan', 'zones.yaml', '--api-url', bed.server.url];
    const ok = await cli([...api, '--require-target', 'api'], { cwd: dir, env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(firstLine(ok.stderr)).toContain(`target: ${bed.server.url}`);
    const wrong = await cli([...api, '--require-target', 'local'], { cwd: dir, env });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('--require-target local');
  });
});
