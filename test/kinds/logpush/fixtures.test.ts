/**
 * The Logpush and Page Shield shares of a fixtures document (pure): secrets as `${env:NAME}` named
 * as `zoneplan export` names them when written to a file, the live destination (escaped) in memory.
 */
import { describe, expect, it } from 'vitest';
import { VariableRegistry } from '../../../src/core/export/env-names.js';
import { logpushFixtures } from '../../../src/kinds/logpush/fixtures.js';
import type { LiveJob } from '../../../src/kinds/logpush/jobs.js';
import { pageShieldFixtures } from '../../../src/kinds/page-shield/fixtures.js';

const owner = { scope: 'zone' as const, name: 'example.com', id: '023e105f4ecef8ad9ca31a8372d0c353' };
const live = (id: number, name: string, destination_conf: string): LiveJob => ({
  id,
  named: name !== '',
  name,
  dataset: 'http_requests',
  destination_conf,
  enabled: true,
  filter: '',
  output_options: {},
  kind: '',
});
const S3 = 's3://b/p?region=us-east-1&secret-access-key=wJalrXUtnFEMI0K7MDENG0bPxRfiCYEXAMPLEKEY';
const LITERAL = 'https://h.example.com/${env:HOME}/in';

function jobsOf(share: ReturnType<typeof logpushFixtures.entry>) {
  return (share.fields!.logpush as { jobs: Record<string, unknown>[] }).jobs;
}

describe('logpush fixtures', () => {
  it('writes secrets as references for a file, in id order, unnamed jobs too', () => {
    const variables = new VariableRegistry();
    const jobs = jobsOf(
      logpushFixtures.entry([live(9, '', S3), live(3, 'to-bucket', S3), live(4, 'x', LITERAL)], owner, {
        variables,
      }),
    );
    expect(jobs.map((j) => j.id)).toEqual([3, 4, 9]);
    expect(jobs[0].destination_conf).toBe(
      's3://b/p?region=us-east-1&secret-access-key=${env:ZONEPLAN_LOGPUSH_EXAMPLE_COM_TO_BUCKET_SECRET_ACCESS_KEY}',
    );
    expect(jobs[1].destination_conf).toBe('https://h.example.com/$${env:HOME}/in');
    expect(jobs[2]).not.toHaveProperty('name');
    expect(jobs[2].destination_conf).toContain('${env:ZONEPLAN_LOGPUSH_EXAMPLE_COM_JOB_9_SECRET_ACCESS_KEY}');
    expect(variables.variables.map((v) => v.name)).toEqual([
      'ZONEPLAN_LOGPUSH_EXAMPLE_COM_TO_BUCKET_SECRET_ACCESS_KEY',
      'ZONEPLAN_LOGPUSH_EXAMPLE_COM_JOB_9_SECRET_ACCESS_KEY',
    ]);
    expect(JSON.stringify(variables.variables)).not.toContain('wJalr');
  });

  it('keeps the live destination in memory, escaped the same way', () => {
    const jobs = jobsOf(logpushFixtures.entry([live(3, 'a', S3), live(4, 'b', LITERAL)], owner));
    expect(jobs[0].destination_conf).toBe(S3);
    expect(jobs[1].destination_conf).toBe('https://h.example.com/$${env:HOME}/in');
  });
});

describe('page shield fixtures', () => {
  it('without the extra read (a rehearsal), copies the settings, policies and the ceiling scripts', () => {
    const share = pageShieldFixtures.entry(
      {
        enabled: true,
        reporting: { use_connection_url_path: true },
        policies: [
          {
            id: 'p1',
            description: 'd',
            action: 'log',
            expression: 'x',
            value: "script-src 'self'",
            enabled: true,
          },
        ],
        scripts: [{ id: 's1', url: 'https://a.example/x.js', status: 'infrequent', host: undefined }],
      },
      owner,
    );
    expect(share.fields!.page_shield).toEqual({
      enabled: true,
      use_connection_url_path: true,
      policies: [
        {
          id: 'p1',
          description: 'd',
          action: 'log',
          expression: 'x',
          value: "script-src 'self'",
          enabled: true,
        },
      ],
      scripts: [{ id: 's1', url: 'https://a.example/x.js', status: 'infrequent' }],
    });
  });
});
