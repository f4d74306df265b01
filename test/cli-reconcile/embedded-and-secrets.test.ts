/**
 * The embedded default (no target, no credentials: the quick start of the README, on a copy of the
 * example in a temp dir) and secrets: `${env:...}` values never reach stdout, stderr, the plan file
 * or the journal.
 */
import { copyFileSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ROOT,
  cli,
  cliAt,
  startBed,
  tempDir,
  writeYaml,
  zoneFile,
  zoneRecords,
  type Bed,
} from './helpers.js';

let bed: Bed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

describe('the embedded default', () => {
  it('apply --rehearse-first of examples/quickstart.yaml then plan reports no changes (the README quick start)', async () => {
    const dir = tempDir();
    copyFileSync(join(ROOT, 'examples', 'quickstart.yaml'), join(dir, 'quickstart.yaml'));
    const applied = await cli(['apply', 'quickstart.yaml', '--rehearse-first', '--auto-approve'], {
      cwd: dir,
    });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toContain('target: the embedded local API over .zoneplan/local.db');
    expect(applied.stderr).toContain('created account 0123456789abcdef0123456789abcdef in the local store');
    expect(applied.stderr).toMatch(/rehearsed: \d+ steps applied in the sandbox, second plan empty/);
    expect(applied.stdout).toMatch(/Applied (\d+) of \1 steps\./);
    expect(existsSync(join(dir, '.zoneplan', 'local.db'))).toBe(true);

    const plan = await cli(['plan', 'quickstart.yaml', '--detailed-exitcode'], { cwd: dir });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('No changes.');
  });

  it('with only an e-mail and key, a token-only area fails before any request', async () => {
    const dir = tempDir();
    const file = writeYaml(
      dir,
      'z.yaml',
      zoneFile('key.example', ["{ name: '@', type: A, content: 192.0.2.1 }"]).replace(
        '    dns:',
        '    page_shield: { enabled: true }\n    dns:',
      ),
    );
    const res = await cli(['plan', file, '--api-url', 'http://127.0.0.1:9/client/v4'], {
      cwd: dir,
      env: { CLOUDFLARE_EMAIL: 'ops@example.com', CLOUDFLARE_API_KEY: 'k'.repeat(37) },
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('page_shield needs an API token');
    expect(res.stderr).not.toContain('kkkkkkkk');
  });
});

describe('secrets', () => {
  it('${env:...} values are never printed nor written, and still apply', async () => {
    bed = await startBed();
    const secret = 'verify-Zq81xKt0pLm3s3cr3t';
    const file = writeYaml(
      bed.dir,
      'zones.yaml',
      zoneFile('secret.example', [
        "{ name: '@', type: A, content: 192.0.2.1 }",
        "{ name: '@', type: TXT, content: '${env:OWNERSHIP_TOKEN}' }",
      ]),
    );
    const summary = join(bed.dir, 'summary.md');
    const env = { OWNERSHIP_TOKEN: secret, GITHUB_STEP_SUMMARY: summary };
    const outputs = [
      await cliAt(bed, ['plan', file, '--out', 'plan.json'], env),
      await cliAt(bed, ['plan', file, '--format', 'json'], env),
      await cliAt(bed, ['plan', file, '--format', 'markdown'], env),
      await cliAt(bed, ['apply', 'plan.json', '--auto-approve', '--verbose'], env),
      await cliAt(bed, ['drift', file], env),
    ];
    expect(outputs[3].code, outputs[3].stderr).toBe(0);
    expect(outputs[4].code).toBe(0);
    expect(outputs[0].stdout).toContain('(from env OWNERSHIP_TOKEN)');
    expect(readFileSync(summary, 'utf8')).toContain(
      '| `+` create | dns | `@ TXT (from env OWNERSHIP_TOKEN)` |',
    );
    const files = [
      readFileSync(summary, 'utf8'),
      readFileSync(join(bed.dir, 'plan.json'), 'utf8'),
      ...readdirSync(join(bed.dir, '.zoneplan', 'journal')).map((f) =>
        readFileSync(join(bed!.dir, '.zoneplan', 'journal', f), 'utf8'),
      ),
    ];
    for (const text of [...outputs.flatMap((o) => [o.stdout, o.stderr]), ...files]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(bed.token);
    }
    const txt = (await zoneRecords(bed, 'secret.example')).find((r) => r.type === 'TXT')!;
    expect(txt.content.replace(/"/g, '')).toBe(secret);
  });
});
