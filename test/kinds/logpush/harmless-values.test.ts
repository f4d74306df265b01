/**
 * Only credentials of a Logpush destination are registered with the process-wide redactor. A
 * harmless query value (`tag=logs.example`, `sourcetype=logpush`) used to be registered too, and then
 * masked every occurrence of that text: the zone name in drift, kind names and step ids, the file
 * name stored in a saved plan (which then could not be applied). Through the built CLI against the
 * local API: such values never mask anything else, and the real credentials of the same destination
 * still appear nowhere.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures, harness, zoneId, type Harness } from '../page-shield/helpers.js';

const ZONE = 'logs.example';
const HEADER_SECRET = 'Hdr-S3cret-Value-91f2';
const ENV_SECRET = 'env-Pr1vate-T0ken-7c1e';
const PASSWORD = 'pa55-W0rd-Value-x9';

const desired = (enabled: boolean) => `version: 1
zones:
  - name: ${ZONE}
    account: 0123456789abcdef0123456789abcdef
    logpush:
      jobs:
        - name: to-splunk
          dataset: http_requests
          destination_conf: https://user:${PASSWORD}@c.example.net/in?tag=${ZONE}&sourcetype=logpush&index=yaml&header_Authorization=Splunk%20${HEADER_SECRET}&token=\${env:COLLECTOR_TOKEN}
          enabled: ${enabled}
          output_options: { field_names: [ClientIP] }
`;

const env = { COLLECTOR_TOKEN: ENV_SECRET };
let h: Harness;
let id: string;

beforeAll(async () => {
  h = await harness(fixtures([{ name: ZONE }]));
  id = await zoneId(h.t, ZONE);
});
afterAll(() => h.close());

function expectNoSecret(...texts: string[]) {
  for (const text of texts) {
    for (const secret of [HEADER_SECRET, ENV_SECRET, PASSWORD]) expect(text).not.toContain(secret);
  }
}

describe('harmless destination values', () => {
  it('are not masked elsewhere in plan, drift, a saved plan and its apply; credentials are', async () => {
    const file = h.file('lp.yaml', desired(true));
    const plan = await h.cli(['plan', file], env);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(`zone ${ZONE}`);
    expect(plan.stdout).toContain('  logpush');

    const saved = await h.cli(['plan', file, '--out', 'plan.json', '-v'], env);
    expect(saved.code, saved.stderr).toBe(0);
    const planFile = readFileSync(`${h.dir}/plan.json`, 'utf8');
    const doc = JSON.parse(planFile) as { desired: { file: string }; steps: { id: string; kind: string }[] };
    expect(doc.desired.file).toMatch(/lp\.yaml$/);
    expect(doc.steps.map((s) => s.kind)).toEqual(['logpush']);
    expect(doc.steps[0].id).toContain(ZONE);
    // inside the destination itself an unknown parameter is still masked, and a credential always
    expect(planFile).toContain(
      '//[REDACTED]@c.example.net/in?tag=[REDACTED]&sourcetype=logpush&index=yaml&header_Authorization=[REDACTED]&token=[REDACTED]',
    );

    const apply = await h.cli(['apply', 'plan.json', '--auto-approve', '-v'], env);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stderr).toContain(`/zones/:id/logpush/jobs`);
    expect(apply.stderr).not.toContain('[REDACTED]/');

    // an out-of-band change: drift names the zone, the kind and the job
    const res = await h.t.api('GET', `/zones/${id}/logpush/jobs`);
    const job = (res.body.result as { id: number }[])[0];
    expect((await h.t.api('PUT', `/zones/${id}/logpush/jobs/${job.id}`, { enabled: false })).status).toBe(
      200,
    );
    const drift = await h.cli(['drift', file], env);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain(`zone ${ZONE}`);
    expect(drift.stdout).toContain('update job "to-splunk"');
    const json = await h.cli(['drift', file, '--format', 'json'], env);
    expect(JSON.parse(json.stdout).steps[0].owner.name).toBe(ZONE);

    const journalDir = `${h.dir}/.zoneplan/journal`;
    const journals = readdirSync(journalDir).map((f) => readFileSync(`${journalDir}/${f}`, 'utf8'));
    expectNoSecret(
      plan.stdout,
      plan.stderr,
      saved.stdout,
      saved.stderr,
      planFile,
      apply.stdout,
      apply.stderr,
      drift.stdout,
      drift.stderr,
      json.stdout,
      ...journals,
    );
    for (const text of [plan.stdout, drift.stdout, apply.stdout, json.stdout, planFile]) {
      expect(text.replace(/[?&][\w-]+=\[REDACTED\]|\/\/\[REDACTED\]@/g, '')).not.toContain('[REDACTED]');
    }
  });
});
