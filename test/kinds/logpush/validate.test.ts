import { afterEach, describe, expect, it } from 'vitest';
import type { ValidateContext } from '../../../src/core/kind.js';
import { validateLogpush } from '../../../src/kinds/logpush/validate.js';
import { clearSecrets, redact } from '../../../src/redact.js';

afterEach(() => clearSecrets());

function check(value: unknown) {
  const found: { path: string; message: string }[] = [];
  const ctx: ValidateContext = {
    path: 'zones[0].logpush',
    owner: {},
    document: {},
    error: (path, message) => found.push({ path, message }),
    warn: (path, message) => found.push({ path, message }),
    schemaFailed: () => false,
  };
  validateLogpush(value, ctx);
  return found;
}

const cond = (i: number) => ({ key: 'ClientRequestHost', operator: 'eq', value: `h${i}.example.com` });
const base = {
  name: 'http-to-bucket',
  dataset: 'http_requests',
  destination_conf: 's3://bucket/logs?region=us-east-1',
  ownership_challenge: 'abc123def456',
};

describe('logpush validate', () => {
  it('accepts a job with a filter of 20 operators just under 1000 bytes', () => {
    const filter = {
      where: { and: Array.from({ length: 20 }, (_, i) => ({ key: 'ClientIP', operator: 'eq', value: i })) },
    };
    expect(check({ jobs: [{ ...base, filter }] })).toEqual([]);
  });

  it('reports grammar errors with a path inside the filter', () => {
    const filter = {
      where: { and: [cond(1), { or: [cond(2), { key: 'ClientIP', operator: 'matches', value: 'x' }] }] },
    };
    expect(check({ jobs: [{ ...base, filter }] })).toEqual([
      {
        path: 'zones[0].logpush.jobs[0].filter.where.and[1].or[1].operator',
        message: expect.stringContaining('"matches" is not an operator'),
      },
    ]);
    const inScalar = { where: { key: 'ClientIP', operator: 'in', value: '192.0.2.1' } };
    expect(check({ jobs: [{ ...base, filter: inScalar }] })[0].path).toBe(
      'zones[0].logpush.jobs[0].filter.where.value',
    );
  });

  it('measures the limits on the JSON string that will be sent', () => {
    // 31 conditions cannot fit in 1000 bytes, so both limits are reported
    const many = {
      where: { or: Array.from({ length: 31 }, (_, i) => ({ key: 'A', operator: 'eq', value: i })) },
    };
    const found = check({ jobs: [{ ...base, filter: many }] });
    expect(found.map((f) => f.path)).toEqual([
      'zones[0].logpush.jobs[0].filter',
      'zones[0].logpush.jobs[0].filter',
    ]);
    expect(found.map((f) => f.message).join('\n')).toMatch(/has 31 operators; a filter may have at most 30/);
    const long = { where: { key: 'ClientRequestPath', operator: 'contains', value: 'x'.repeat(1000) } };
    expect(check({ jobs: [{ ...base, filter: long }] })[0].message).toMatch(
      /bytes; a filter may be at most 1000 bytes/,
    );
  });

  it('refuses duplicate names, unknown datasets and an S3 destination without region, never quoting it', () => {
    const found = check({
      jobs: [
        base,
        { ...base, dataset: 'nope', destination_conf: 's3://bucket/logs?access-key-secret=Sup3rS3cretValue' },
      ],
    });
    expect(found.map((f) => f.path).sort()).toEqual([
      'zones[0].logpush.jobs[1].dataset',
      'zones[0].logpush.jobs[1].destination_conf',
      'zones[0].logpush.jobs[1].name',
    ]);
    expect(JSON.stringify(found)).not.toContain('Sup3rS3cretValue');
    // and the secret is registered, so anything printed later is masked
    expect(redact('x Sup3rS3cretValue y')).toBe('x [REDACTED] y');
  });

  it('checks the rest of a value around an unresolved ${env:...} reference', () => {
    expect(
      check({ jobs: [{ ...base, destination_conf: 's3://bucket/logs?region=us-east-1&secret=${env:KEY}' }] }),
    ).toEqual([]);
  });
});
