/**
 * Which ownership challenges of a plan a rehearsal asks the target to validate (pure), and how the
 * pairs the target called valid reach the in-memory fixtures document but never a file.
 */
import { describe, expect, it } from 'vitest';
import { VariableRegistry } from '../../../src/core/export/env-names.js';
import type { Step } from '../../../src/core/runtime.js';
import { logpushFixtures } from '../../../src/kinds/logpush/fixtures.js';
import type { LiveJob } from '../../../src/kinds/logpush/jobs.js';
import type { LogpushApplyData } from '../../../src/kinds/logpush/plan.js';
import { pairsToValidate } from '../../../src/kinds/logpush/proofs.js';

const owner = { scope: 'zone' as const, name: 'example.com', id: '023e105f4ecef8ad9ca31a8372d0c353' };
const live = (id: number, destination_conf: string): LiveJob => ({
  id,
  named: true,
  name: `job-${id}`,
  dataset: 'http_requests',
  destination_conf,
  enabled: true,
  filter: '',
  output_options: {},
  kind: '',
});
const step = (data: LogpushApplyData): Step =>
  ({ id: 'example.com/logpush/x', kind: 'logpush', owner, data }) as unknown as Step;
const create = (destination_conf: string, ownership_challenge?: string) =>
  step({ op: 'create', body: { name: 'n', dataset: 'dns_logs', destination_conf, ownership_challenge } });

describe('logpush ownership proofs for a rehearsal', () => {
  const jobs = [live(1, 's3://live/logs?region=us-east-1&secret-access-key=K')];

  it('asks only for challenges of destinations the live jobs do not prove, once per pair', () => {
    const pairs = pairsToValidate(jobs, [
      create('s3://new/logs?region=eu-west-1', 'c1'),
      create('s3://new/logs?region=eu-west-1', 'c1'),
      create('s3://new/logs?region=eu-west-1', 'c2'),
      // the live job's bucket, other credentials: proven by the live job
      create('s3://live/logs?region=us-east-1', 'c3'),
      // no challenge needed, none given
      create('https://logs.example.com/in'),
      create('gs://other/logs'),
      step({
        op: 'update',
        id: 1,
        body: { destination_conf: 'azure://moved/logs?sv=1', ownership_challenge: 'c4' },
      }),
      step({ op: 'update', id: 1, body: { destination_conf: 'azure://moved/logs?sv=1', enabled: false } }),
      step({ op: 'delete', id: 1 }),
    ]);
    expect(pairs).toEqual([
      { destination_conf: 's3://new/logs?region=eu-west-1', ownership_challenge: 'c1' },
      { destination_conf: 's3://new/logs?region=eu-west-1', ownership_challenge: 'c2' },
      { destination_conf: 'azure://moved/logs?sv=1', ownership_challenge: 'c4' },
    ]);
  });

  it('writes validated pairs into the in-memory document only, escaped like destinations', () => {
    const proven = [{ destination_conf: 's3://new/${env:X}/logs', ownership_challenge: 'c1' }];
    const memory = logpushFixtures.entry({ jobs, proven }, owner);
    expect((memory.fields!.logpush as { proven: unknown }).proven).toEqual([
      { destination_conf: 's3://new/$${env:X}/logs', ownership_challenge: 'c1' },
    ]);
    const file = logpushFixtures.entry({ jobs, proven }, owner, { variables: new VariableRegistry() });
    expect(file.fields!.logpush).not.toHaveProperty('proven');
    expect(logpushFixtures.entry(jobs, owner).fields!.logpush).not.toHaveProperty('proven');
  });
});
