import { afterEach, describe, expect, it } from 'vitest';
import type { DesiredLogpush, DesiredLogpushJob } from '../../../src/kinds/logpush/desired.js';
import { UserError } from '../../../src/errors.js';
import { liveJobFromApi, type LiveJob } from '../../../src/kinds/logpush/jobs.js';
import { planLogpush } from '../../../src/kinds/logpush/plan.js';
import { clearSecrets } from '../../../src/redact.js';

afterEach(() => clearSecrets());

const filter = { where: { and: [{ key: 'ClientRequestHost', operator: 'eq', value: 'example.com' }] } };

const job = (over: Partial<DesiredLogpushJob> = {}): DesiredLogpushJob => ({
  name: 'http-to-bucket',
  dataset: 'http_requests',
  destination_conf: 'https://logs.example.com/ingest?header_Authorization=Bearer%20s3cr3tt0ken',
  output_options: {
    field_names: ['ClientIP', 'EdgeResponseStatus'],
    sample_rate: 0.1,
    timestamp_format: 'rfc3339',
  },
  filter,
  path: 'zones[0].logpush.jobs[0]',
  ...over,
});

const live = (id: number, over: Record<string, unknown> = {}): LiveJob =>
  liveJobFromApi({
    id,
    name: 'http-to-bucket',
    dataset: 'http_requests',
    destination_conf: 'https://logs.example.com/ingest?header_Authorization=Bearer%20s3cr3tt0ken',
    enabled: true,
    // as the API returns it: a string, another key order, spaces, defaults filled in
    filter:
      '{ "where": { "and": [ { "value": "example.com", "operator": "eq", "key": "ClientRequestHost" } ] } }',
    output_options: {
      timestamp_format: 'rfc3339',
      sample_rate: 0.1,
      field_names: ['ClientIP', 'EdgeResponseStatus'],
      output_type: 'ndjson',
      record_prefix: '{',
      record_suffix: '}\n',
      field_delimiter: ',',
      'CVE-2021-4428': false,
      batch_prefix: null,
    },
    kind: '',
    max_upload_records: 100000,
    last_complete: '2026-01-01T00:00:00Z',
    error_message: null,
    ...over,
  })!;

const plan = (desired: DesiredLogpush, jobs: LiveJob[] | undefined) =>
  planLogpush('example.com', desired, jobs);

describe('logpush plan', () => {
  it('filter key order, whitespace and defaulted output options are not a change', () => {
    expect(plan({ jobs: [job()] }, [live(7)])).toEqual([]);
  });

  it('a changed filter value is an in-place update shown as objects, sent as a canonical string', () => {
    const other = {
      where: { and: [{ key: 'ClientRequestHost', operator: 'eq', value: 'www.example.com' }] },
    };
    const [step] = plan({ jobs: [job({ filter: other })] }, [live(7)]);
    expect(step).toMatchObject({ key: '7', action: 'update', liveId: '7' });
    expect((step.after as { filter: unknown }).filter).toEqual(other);
    const body = (step.data as { body: Record<string, unknown> }).body;
    expect(body.filter).toBe(
      '{"where":{"and":[{"key":"ClientRequestHost","operator":"eq","value":"www.example.com"}]}}',
    );
    expect(body).not.toHaveProperty('dataset');
    expect(body).not.toHaveProperty('ownership_challenge');
  });

  it('removing the filter sends an empty filter', () => {
    const [step] = plan({ jobs: [job({ filter: undefined })] }, [live(7)]);
    expect((step.data as { body: Record<string, unknown> }).body.filter).toBe('');
  });

  it('a changed dataset is a replacement: delete, then a create that depends on it', () => {
    const steps = plan({ jobs: [job({ dataset: 'firewall_events' })] }, [live(7)]);
    expect(steps).toHaveLength(2);
    expect(steps[0]).toMatchObject({ key: '7', action: 'delete', after: null });
    expect(steps[0].summary).toMatch(/replace: dataset http_requests -> firewall_events/);
    expect(steps[1]).toMatchObject({ key: 'create:http-to-bucket', action: 'create', dependsOn: ['7'] });
    expect((steps[1].data as { body: Record<string, unknown> }).body.dataset).toBe('firewall_events');
  });

  it('purges unnamed jobs by default and keeps them with purge: false', () => {
    const stranger = live(9, { name: 'someone-else' });
    expect(plan({ jobs: [job()] }, [live(7), stranger])).toMatchObject([{ key: '9', action: 'delete' }]);
    expect(plan({ jobs: [job()], purge: false }, [live(7), stranger])).toEqual([]);
  });

  it('never puts a destination secret in before/after, but a changed secret still shows', () => {
    const desired = job({
      destination_conf: 'https://logs.example.com/ingest?header_Authorization=Bearer%20n3wt0ken',
    });
    const [step] = plan({ jobs: [desired] }, [live(7)]);
    const shown = JSON.stringify([step.before, step.after]);
    expect(shown).not.toContain('s3cr3tt0ken');
    expect(shown).not.toContain('n3wt0ken');
    expect(shown).toContain('header_Authorization=[REDACTED]');
    expect((step.before as Record<string, string>).destination_credentials).not.toBe(
      (step.after as Record<string, string>).destination_credentials,
    );
  });

  describe('ownership challenge', () => {
    const s3 = 's3://logs-bucket/http?region=us-east-1';

    it('a create for a destination that needs one, without one, fails naming the job and what is missing', () => {
      const run = () => plan({ jobs: [job({ destination_conf: s3 })] }, []);
      expect(run).toThrow(UserError);
      expect(run).toThrow(
        /job "http-to-bucket" \(zones\[0\]\.logpush\.jobs\[0\]\).*needs an ownership challenge/,
      );
      expect(run).toThrow(/zoneplan logpush ownership example\.com DESTINATION/);
    });

    it('is sent on create and on a destination change, not on other updates', () => {
      const withChallenge = job({ destination_conf: s3, ownership_challenge: 'Y2hhbGxlbmdlLXRva2Vu' });
      const [create] = plan({ jobs: [withChallenge] }, []);
      expect((create.data as { body: Record<string, unknown> }).body.ownership_challenge).toBe(
        'Y2hhbGxlbmdlLXRva2Vu',
      );
      const [move] = plan({ jobs: [withChallenge] }, [live(7)]);
      expect((move.data as { body: Record<string, unknown> }).body.ownership_challenge).toBe(
        'Y2hhbGxlbmdlLXRva2Vu',
      );
      const [toggle] = plan({ jobs: [{ ...withChallenge, enabled: false }] }, [
        live(7, { destination_conf: s3 }),
      ]);
      expect((toggle.data as { body: Record<string, unknown> }).body).not.toHaveProperty(
        'ownership_challenge',
      );
    });

    it('an existing job on such a destination needs no challenge when its destination stays', () => {
      expect(
        plan({ jobs: [job({ destination_conf: s3, enabled: false })] }, [live(7, { destination_conf: s3 })]),
      ).toHaveLength(1);
    });
  });

  it('upload limits are managed only when the file sets them', () => {
    expect(plan({ jobs: [job({ max_upload_records: 100000 })] }, [live(7)])).toEqual([]);
    expect(plan({ jobs: [job({ max_upload_records: 5000 })] }, [live(7)])).toMatchObject([
      { action: 'update' },
    ]);
  });

  it('plans creates for a zone that does not exist yet', () => {
    expect(plan({ jobs: [job()] }, undefined)).toMatchObject([{ action: 'create', before: null }]);
  });
});
