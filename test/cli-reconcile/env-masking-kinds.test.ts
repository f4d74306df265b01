/**
 * Per-entry masking of `${env:}` values beyond DNS, through the CLI against the local API: a
 * Logpush destination credential read from env is masked in its job (every output format, the
 * saved plan, --verbose logs, the journal, errors), while a DNS record of the same zone that holds
 * the same text literally shows it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT, fixtures, harness, type Harness } from '../kinds/page-shield/helpers.js';

const ZONE = 'lp-mask.example';
const KEY = 'Lp-K3y-7f3a9c1e5b2d';
const env = { LOGS_KEY: KEY };

const desired = (enabled = true) => `version: 1
zones:
  - name: ${ZONE}
    account: ${ACCOUNT}
    dns:
      records:
        - { name: '@', type: TXT, content: ${KEY} }
    logpush:
      jobs:
        - name: to-collector
          dataset: http_requests
          enabled: ${enabled}
          destination_conf: 'https://collector.logs.example/ingest?header_X-Api-Key=\${env:LOGS_KEY}'
`;

let h: Harness;
beforeAll(async () => {
  h = await harness(fixtures([{ name: ZONE }]));
});
afterAll(() => h.close());

interface JsonStep {
  kind: string;
  address: string;
  after: Record<string, unknown> | null;
}

/** A text or Markdown plan from the job's step on (the zone's DNS part comes before it). */
function jobPart(text: string): string {
  const from = text.indexOf('job "to-collector"');
  expect(from).toBeGreaterThan(-1);
  return text.slice(from);
}

describe('masking of a Logpush destination credential from ${env:}', () => {
  it('is masked in its job and everywhere else it may leak; a TXT holding the same text shows it', async () => {
    const file = h.file('lp.yaml', desired());
    const text = await h.cli(['plan', file], env);
    const md = await h.cli(['plan', file, '--format', 'markdown'], env);
    const json = await h.cli(['plan', file, '--format', 'json'], env);
    const saved = await h.cli(['plan', file, '--out', 'lp-plan.json', '--verbose'], env);
    for (const r of [text, md, json, saved]) expect(r.code, r.stderr).toBe(0);

    // the DNS record shows the text in clear, in every format
    expect(text.stdout).toContain(`+ create @ TXT ${KEY}`);
    expect(md.stdout).toContain(KEY);
    // the job never does
    expect(jobPart(text.stdout)).not.toContain(KEY);
    expect(jobPart(text.stdout)).toContain('header_X-Api-Key=[REDACTED]');
    expect(jobPart(md.stdout)).not.toContain(KEY);
    expect(saved.stderr).not.toContain(KEY);

    for (const doc of [json.stdout, readFileSync(join(h.dir, 'lp-plan.json'), 'utf8')]) {
      const steps = (JSON.parse(doc) as { steps: JsonStep[] }).steps;
      const txt = steps.find((s) => s.kind === 'dns')!;
      const job = steps.find((s) => s.kind === 'logpush')!;
      expect(txt.after?.content).toBe(KEY);
      expect(JSON.stringify(job)).not.toContain(KEY);
      expect(job.after?.destination_conf).toContain('header_X-Api-Key=[REDACTED]');
    }

    // apply the saved plan: its report, --verbose logs (request bodies) and journal mask it everywhere
    const applied = await h.cli(['apply', 'lp-plan.json', '--auto-approve', '--verbose'], env);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).not.toContain(KEY);
    expect(applied.stdout.slice(applied.stdout.indexOf('Applied'))).not.toContain(KEY);
    for (const f of readdirSync(join(h.dir, '.zoneplan', 'journal'))) {
      expect(readFileSync(join(h.dir, '.zoneplan', 'journal', f), 'utf8')).not.toContain(KEY);
    }
    expect((await h.cli(['plan', file, '--detailed-exitcode'], env)).code).toBe(0);

    // an update of the job, planned against the live job that holds the key: still masked there
    const updated = h.file('lp.yaml', desired(false));
    const update = await h.cli(['plan', updated, '--format', 'json'], env);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).not.toContain(KEY);
    expect((JSON.parse(update.stdout) as { steps: JsonStep[] }).steps.map((s) => s.kind)).toEqual([
      'logpush',
    ]);

    // an error of the file names the value nowhere
    const bad = h.file('bad.yaml', desired().replace('dataset: http_requests', 'dataset: nope'));
    const failed = await h.cli(['plan', bad], env);
    expect(failed.code).not.toBe(0);
    expect(failed.stdout + failed.stderr).not.toContain(KEY);
  });
});
