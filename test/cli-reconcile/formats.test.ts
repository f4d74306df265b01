// Every command honours --format: apply prints one JSON document with each step's outcome, or the
// Markdown plan with what it did (the same Markdown goes to the GitHub job summary); export prints
// the desired state as JSON, which plans to zero changes; a format a command cannot produce is
// refused before it does anything. The CLI against the real local API (./helpers.ts).
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ROOT,
  api,
  cli,
  cliAt,
  startBed,
  tempDir,
  writeYaml,
  zoneFile,
  zoneRecords,
  type Bed,
} from './helpers.js';
import { runCli } from '../support/cli.js';

let bed: Bed;
beforeAll(async () => {
  bed = await startBed();
});
afterAll(() => bed?.close());

interface AppliedStep {
  address: string;
  outcome: string;
}

describe('--format on every command', () => {
  it('apply --format json: the plan, each step with its outcome, and the counts', async () => {
    const file = writeYaml(
      bed.dir,
      'json.yaml',
      zoneFile('json.example', [
        '{ name: www, type: A, content: 192.0.2.1 }',
        '{ name: api, type: A, content: 192.0.2.2 }',
      ]),
    );
    const r = await cliAt(bed, ['apply', file, '--auto-approve', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ format_version: 1, changes: true, summary: { create: 3 } });
    expect(doc.steps.map((s: AppliedStep) => s.outcome)).toEqual(['applied', 'applied', 'applied']);
    expect(doc.outcome).toMatchObject({
      applied: 3,
      failed: 0,
      not_run: 0,
      total: 3,
      ok: true,
      read_back: [],
    });
    expect(doc.outcome.journal).toMatch(/journal/);
    expect((await zoneRecords(bed, 'json.example')).map((x) => x.content).sort()).toEqual([
      '192.0.2.1',
      '192.0.2.2',
    ]);

    const again = JSON.parse(
      (await cliAt(bed, ['apply', file, '--auto-approve', '--format', 'json'])).stdout,
    );
    expect(again).toMatchObject({ changes: false, steps: [], outcome: { applied: 0, total: 0, ok: true } });
  });

  it('apply --format json when a step fails: its outcome and the API error, then exit 1', async () => {
    // examples/rehearsal.yaml: `shop` holds an A record the service manages, so its CNAME is refused
    const dir = tempDir();
    for (const f of ['rehearsal.yaml', 'fixtures-rehearsal.yaml'])
      copyFileSync(join(ROOT, 'examples', f), join(dir, f));
    const r = await cli(['apply', 'rehearsal.yaml', '--auto-approve', '--format', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/apply did not complete/);
    const doc = JSON.parse(r.stdout);
    const shop = doc.steps.find((s: AppliedStep) => s.address.startsWith('shop'));
    expect(shop).toMatchObject({ outcome: 'failed', error: expect.stringMatching(/81053/) });
    expect(doc.outcome).toMatchObject({ failed: 1, ok: false });
    expect(doc.outcome.applied + doc.outcome.failed + doc.outcome.not_run).toBe(doc.outcome.total);
  });

  it('apply --format json on a terminal shows the plan to approve on stderr, stdout keeps the document', async () => {
    const file = writeYaml(
      bed.dir,
      'ask.yaml',
      zoneFile('ask.example', ['{ name: www, type: A, content: 192.0.2.9 }']),
    );
    const r = await runCli(['apply', file, '--format', 'json', '--api-url', bed.contract.url], {
      cwd: bed.dir,
      env: { CLOUDFLARE_API_TOKEN: bed.token },
      stdin: 'no\n',
      stdinIsTTY: true,
    });
    expect(r.stderr).toMatch(/\+ create www A 192\.0\.2\.9/);
    expect(r.stderr).toMatch(/apply cancelled/);
    expect(r.stdout).toBe('');
    expect(await zoneRecords(bed, 'ask.example')).toEqual([]);
  });

  it('apply --format markdown: the plan and what was applied, also in the job summary', async () => {
    const file = writeYaml(
      bed.dir,
      'md.yaml',
      zoneFile('md.example', ['{ name: www, type: A, content: 192.0.2.3 }']),
    );
    const summary = join(bed.dir, 'summary.md');
    writeFileSync(summary, '');
    const r = await cliAt(bed, ['apply', file, '--auto-approve', '--format', 'markdown'], {
      GITHUB_STEP_SUMMARY: summary,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^### zoneplan: Plan: 2 to create/);
    expect(r.stdout).toContain('#### Applied 2 of 2 steps');
    expect(r.stdout).not.toMatch(/^Applied/m); // no text report in the Markdown
    expect(readFileSync(summary, 'utf8')).toBe(`## zoneplan apply\n\n${r.stdout}`);
    // a text apply writes the same summary
    writeFileSync(summary, '');
    const text = await cliAt(bed, ['apply', file, '--auto-approve'], { GITHUB_STEP_SUMMARY: summary });
    expect(text.stdout).toMatch(/^No changes\./m);
    expect(readFileSync(summary, 'utf8')).toMatch(/^## zoneplan apply\n\n### zoneplan: No changes/);
  });

  it('drift --format json and markdown: the drift as the plan shapes, exit 2', async () => {
    const file = writeYaml(
      bed.dir,
      'drift.yaml',
      zoneFile('drift.example', ['{ name: www, type: A, content: 192.0.2.5 }']),
    );
    expect((await cliAt(bed, ['apply', file, '--auto-approve'])).code).toBe(0);
    const [www] = (await zoneRecords(bed, 'drift.example')).filter((x) => x.content === '192.0.2.5');
    const [zone] = await api<{ id: string }[]>(bed, 'GET', '/zones?name=drift.example');
    await api(bed, 'PATCH', `/zones/${zone.id}/dns_records/${www.id}`, { content: '192.0.2.99' });
    const json = await cliAt(bed, ['drift', file, '--format', 'json']);
    expect(json.code, json.stderr).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ changes: true, summary: { update: 1 } });
    const md = await cliAt(bed, ['drift', file, '--format', 'markdown']);
    expect(md.code).toBe(2);
    expect(md.stdout).toMatch(/^### zoneplan: Plan: 0 to create, 1 to update/);
    expect(md.stdout).toContain('content: "192.0.2.99" → "192.0.2.5"');
  });

  it('export --format json: the desired state as JSON, which plans to zero changes', async () => {
    const r = await cliAt(bed, ['export', '--zone', 'json.example', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.version).toBe(1);
    expect(doc.zones[0].name).toBe('json.example');
    const out = await cliAt(bed, [
      'export',
      '--zone',
      'json.example',
      '--format',
      'json',
      '--out',
      'exported.json',
    ]);
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(bed.dir, 'exported.json'), 'utf8'))).toEqual(doc);
    const plan = await cliAt(bed, ['plan', join(bed.dir, 'exported.json'), '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it.each([
    [
      ['export', '--zone', 'json.example', '--format', 'markdown'],
      'export prints --format text or json, not markdown',
    ],
    [['serve', '--port', '0', '--format', 'json'], 'serve prints --format text, not json'],
    [['completion', 'bash', '--format', 'json'], 'completion prints --format text, not json'],
    [['validate', 'x.yaml', '--format', 'markdown'], 'validate prints --format text or json, not markdown'],
    [
      ['export', '--zone', 'json.example', '--out-dir', 'out', '--format', 'json'],
      '--out-dir writes YAML files',
    ],
  ])('%j is refused, and nothing is done', async (args, message) => {
    const r = await cliAt(bed, args);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
  });
});
