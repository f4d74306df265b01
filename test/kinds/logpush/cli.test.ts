/**
 * logpush against the local API through the built CLI: apply then plan is empty, filter key order
 * and whitespace are not a change, drift on an out-of-band change, a dataset change is a
 * replacement, purge, destination secrets never printed nor saved, and the ownership challenge:
 * missing fails at plan time, `zoneplan logpush ownership` issues one that apply then uses.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures, harness, zoneId, type Harness } from '../page-shield/helpers.js';
import { fetchTestRoute } from '../../support/test-routes.js';

const ZONE = 'logs.example';
const SECRET = 'hunter2-Sup3r-S3cret-Value';
const ENV_SECRET = 'env-Pr1vate-T0ken-Value';
const S3 = 's3://example-logs/http?region=us-east-1';

const httpJob = (over: { dataset?: string; enabled?: boolean; host?: string } = {}) => `
        - name: firewall-to-collector
          dataset: ${over.dataset ?? 'firewall_events'}
          destination_conf: https://collector.logs.example/ingest?header_X-Api-Key=${SECRET}&token=\${env:COLLECTOR_TOKEN}
          enabled: ${over.enabled ?? true}
          output_options: { field_names: [Action, ClientIP, RuleID] }
          filter: { where: { and: [ { key: ClientRequestHost, operator: eq, value: ${over.host ?? 'logs.example'} }, { key: Action, operator: in, value: [block, challenge] } ] } }`;

const s3Job = (challenge: string | undefined) => `
        - name: http-to-bucket
          dataset: http_requests
          destination_conf: ${S3}${challenge === undefined ? '' : `\n          ownership_challenge: ${challenge}`}`;

const desired = (jobs: string, purge = true) => `version: 1
zones:
  - name: ${ZONE}
    account: 0123456789abcdef0123456789abcdef
    logpush:
      purge: ${purge}
      jobs:${jobs}
`;

const env = { COLLECTOR_TOKEN: ENV_SECRET };
let h: Harness;
let id: string;

beforeAll(async () => {
  h = await harness(fixtures([{ name: ZONE }]));
  id = await zoneId(h.t, ZONE);
});
afterAll(() => h.close());

async function liveJobs() {
  const res = await h.t.api('GET', `/zones/${id}/logpush/jobs`);
  return res.body.result as { id: number; name: string; dataset: string; filter: string; enabled: boolean }[];
}

function expectNoSecret(...texts: string[]) {
  for (const text of texts) {
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(ENV_SECRET);
  }
}

describe('logpush through the CLI', () => {
  it('applies, sends the filter as a canonical JSON string, then plans nothing', async () => {
    const file = h.file('lp.yaml', desired(httpJob()));
    const apply = await h.cli(['apply', file, '--auto-approve'], env);
    expect(apply.code, apply.stderr).toBe(0);
    const [job] = await liveJobs();
    expect(job.filter).toBe(
      '{"where":{"and":[{"key":"ClientRequestHost","operator":"eq","value":"logs.example"},' +
        '{"key":"Action","operator":"in","value":["block","challenge"]}]}}',
    );
    expect((await h.cli(['plan', file, '--detailed-exitcode'], env)).code).toBe(0);
  });

  it('does not see a filter stored with another key order and whitespace as a change', async () => {
    const [job] = await liveJobs();
    const reordered =
      '{ "where" : { "and" : [ { "value" : "logs.example", "operator" : "eq", "key" : "ClientRequestHost" },\n' +
      '  { "operator": "in", "value": ["block", "challenge"], "key": "Action" } ] } }';
    expect((await h.t.api('PUT', `/zones/${id}/logpush/jobs/${job.id}`, { filter: reordered })).status).toBe(
      200,
    );
    expect((await liveJobs())[0].filter).toBe(reordered);
    const file = h.file('lp.yaml', desired(httpJob()));
    expect((await h.cli(['plan', file, '--detailed-exitcode'], env)).code).toBe(0);
  });

  it('drift exits 2 on an out-of-band change, without printing a destination secret', async () => {
    const [job] = await liveJobs();
    const out = await h.t.api('PUT', `/zones/${id}/logpush/jobs/${job.id}`, {
      destination_conf: `https://collector.logs.example/ingest?header_X-Api-Key=${SECRET}-rotated&token=${ENV_SECRET}`,
      enabled: false,
    });
    expect(out.status).toBe(200);
    const file = h.file('lp.yaml', desired(httpJob()));
    const drift = await h.cli(['drift', file], env);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('firewall-to-collector');
    expect(drift.stdout).toContain('destination_credentials');
    const json = await h.cli(['drift', file, '--format', 'json'], env);
    const planned = await h.cli(['plan', file, '--out', 'saved-plan.json', '-v'], env);
    const saved = readFileSync(`${h.dir}/saved-plan.json`, 'utf8');
    expectNoSecret(
      drift.stdout,
      drift.stderr,
      json.stdout,
      json.stderr,
      planned.stdout,
      planned.stderr,
      saved,
    );
    expect(planned.stdout + saved).toContain('header_X-Api-Key=[REDACTED]');
    // the saved plan applies (its bodies are re-planned from the file: none were saved)
    const apply = await h.cli(['apply', 'saved-plan.json', '--auto-approve', '-v'], env);
    expect(apply.code, apply.stderr).toBe(0);
    const journalDir = `${h.dir}/.zoneplan/journal`;
    const journals = readdirSync(journalDir).map((f) => readFileSync(`${journalDir}/${f}`, 'utf8'));
    expect(journals.length).toBeGreaterThan(0);
    expectNoSecret(apply.stdout, apply.stderr, ...journals);
    expect((await h.cli(['drift', file], env)).code).toBe(0);
  });

  it('plans a dataset change as a replacement: delete, then create', async () => {
    const [old] = await liveJobs();
    const file = h.file('lp.yaml', desired(httpJob({ dataset: 'dns_logs' })));
    const plan = await h.cli(['plan', file], env);
    expect(plan.stdout).toMatch(
      /- delete job "firewall-to-collector" \(replaced: dataset firewall_events -> dns_logs\)\n\s+\+ create job "firewall-to-collector" \(replaced: dataset firewall_events -> dns_logs\)/,
    );
    expect((await h.cli(['apply', file, '--auto-approve'], env)).code).toBe(0);
    const jobs = await liveJobs();
    expect(jobs.map((j) => [j.name, j.dataset])).toEqual([['firewall-to-collector', 'dns_logs']]);
    expect(jobs[0].id).not.toBe(old.id);
    expect((await h.cli(['plan', file, '--detailed-exitcode'], env)).code).toBe(0);
  });

  describe('ownership', () => {
    it('a job for a destination that needs a challenge and has none fails at plan time, writing nothing', async () => {
      const file = h.file('lp.yaml', desired(httpJob({ dataset: 'dns_logs' }) + s3Job(undefined)));
      for (const cmd of [
        ['plan', file],
        ['apply', file, '--auto-approve'],
      ]) {
        const r = await h.cli(cmd, env);
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(
          /logpush job "http-to-bucket" \(\S*lp\.yaml:\d+:\d+: zones\[0\]\.logpush\.jobs\[1\]\): the destination s3:\/\/example-logs\/http\?region=us-east-1 needs an ownership challenge and ownership_challenge is not set/,
        );
      }
      expect((await liveJobs()).map((j) => j.name)).toEqual(['firewall-to-collector']);
    });

    it('`logpush ownership` issues a challenge, says where to read it, and apply then works', async () => {
      const r = await h.cli(['logpush', 'ownership', ZONE, S3]);
      expect(r.code, r.stderr).toBe(0);
      const filename = /Read it from the file (\S+) in that destination/.exec(r.stdout)?.[1];
      expect(filename).toMatch(/^http\/ownership-challenge-[0-9a-f]+\.txt$/);
      expect(r.stdout).toContain(`/__zoneplan/zones/${id}/logpush/ownership?destination_conf=`);
      expect(r.stdout).toContain('`zoneplan serve --test-routes`');
      expect(r.stdout).toContain('the test-routes token it printed at start');
      // what reading the file from the bucket would give
      const reveal = `/zones/${id}/logpush/ownership?destination_conf=${encodeURIComponent(S3)}`;
      const res = await fetchTestRoute(h.t.server, reveal);
      const issued = ((await res.json()) as { result: { filename: string; ownership_challenge: string } })
        .result;
      expect(issued.filename).toBe(filename);

      const json = await h.cli(['logpush', 'ownership', ZONE, S3, '--format', 'json']);
      expect(JSON.parse(json.stdout)).toMatchObject({
        zone: { id, name: ZONE },
        destination: S3,
        valid: true,
      });

      // the JSON run issued a newer challenge; read it again, as a user would after running the command
      const again = await fetchTestRoute(h.t.server, reveal);
      const challenge = ((await again.json()) as { result: { ownership_challenge: string } }).result
        .ownership_challenge;
      const file = h.file(
        'lp.yaml',
        desired(httpJob({ dataset: 'dns_logs' }) + s3Job('${env:S3_CHALLENGE}')),
      );
      const apply = await h.cli(['apply', file, '--auto-approve'], { ...env, S3_CHALLENGE: challenge });
      expect(apply.code, apply.stderr).toBe(0);
      expect(apply.stdout + apply.stderr).not.toContain(challenge);
      expect((await liveJobs()).map((j) => j.name).sort()).toEqual([
        'firewall-to-collector',
        'http-to-bucket',
      ]);
      // once created, the challenge is not needed to plan the job
      const without = h.file('lp2.yaml', desired(httpJob({ dataset: 'dns_logs' }) + s3Job(undefined)));
      expect((await h.cli(['plan', without, '--detailed-exitcode'], env)).code).toBe(0);
    });
  });

  it('purges jobs the file does not name, and keeps them with purge: false', async () => {
    const keep = h.file('lp.yaml', desired(httpJob({ dataset: 'dns_logs' }), false));
    expect((await h.cli(['plan', keep, '--detailed-exitcode'], env)).code).toBe(0);
    const purge = h.file('lp.yaml', desired(httpJob({ dataset: 'dns_logs' })));
    const plan = await h.cli(['plan', purge], env);
    expect(plan.stdout).toContain('- delete job "http-to-bucket"');
    expect((await h.cli(['apply', purge, '--auto-approve'], env)).code).toBe(0);
    expect((await liveJobs()).map((j) => j.name)).toEqual(['firewall-to-collector']);
  });
});
