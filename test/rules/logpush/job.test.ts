import { describe, expect, it } from 'vitest';
import {
  ZONE_DATASETS,
  destinationSecrets,
  isCredentialParam,
  maskDestination,
  needsOwnershipChallenge,
  validateDestinationConf,
  validateLogpushJob,
} from '../../../src/rules/logpush/index.js';

const ok = {
  name: 'http-to-bucket.example.com',
  dataset: 'http_requests',
  destination_conf: 's3://bucket/logs?region=us-east-1',
  output_options: {
    field_names: ['ClientIP'],
    sample_rate: 0.1,
    timestamp_format: 'rfc3339',
    'CVE-2021-44228': 'true',
  },
  max_upload_bytes: 5_000_000,
  max_upload_interval_seconds: 0,
  max_upload_records: 1_000_000,
};
const paths = (body: unknown, mode: 'create' | 'update' = 'create') =>
  validateLogpushJob(body, { mode, currentDataset: 'http_requests' }).map((v) => v.path);

describe('logpush job fields', () => {
  it('accepts a complete job and every zone dataset', () => {
    expect(paths(ok)).toEqual([]);
    for (const dataset of ZONE_DATASETS) expect(paths({ ...ok, dataset })).toEqual([]);
  });

  it('requires dataset and destination_conf on create, and refuses unknown datasets', () => {
    expect(paths({})).toEqual(['dataset', 'destination_conf']);
    expect(validateLogpushJob({ ...ok, dataset: 'audit_logs' }, { mode: 'create' })[0].message).toMatch(
      /not a zone dataset/,
    );
  });

  it('refuses a dataset change on update but accepts the same value', () => {
    expect(paths({ dataset: 'dns_logs' }, 'update')).toEqual(['dataset']);
    expect(paths({ dataset: 'http_requests', name: 'x' }, 'update')).toEqual([]);
  });

  it('checks the name pattern and length', () => {
    expect(paths({ ...ok, name: 'has space' })).toEqual(['name']);
    expect(paths({ ...ok, name: 'a'.repeat(513) })).toEqual(['name']);
    expect(paths({ ...ok, name: 'a'.repeat(512) })).toEqual([]);
  });

  it('checks output_options types', () => {
    expect(paths({ ...ok, output_options: { sample_rate: 2 } })).toEqual(['output_options.sample_rate']);
    expect(paths({ ...ok, output_options: { field_names: 'ClientIP' } })).toEqual([
      'output_options.field_names',
    ]);
    expect(paths({ ...ok, output_options: { timestamp_format: 'iso' } })).toEqual([
      'output_options.timestamp_format',
    ]);
    expect(paths({ ...ok, output_options: { output_type: 'xml' } })).toEqual(['output_options.output_type']);
    expect(paths({ ...ok, output_options: { merge_subrequests: 'yes' } })).toEqual([
      'output_options.merge_subrequests',
    ]);
    expect(paths({ ...ok, output_options: { colour: true } })).toEqual(['output_options.colour']);
  });

  it('checks max_upload_* ranges: 0 or within the range', () => {
    expect(paths({ ...ok, max_upload_bytes: 4_999_999 })).toEqual(['max_upload_bytes']);
    expect(paths({ ...ok, max_upload_bytes: 1_000_000_001 })).toEqual(['max_upload_bytes']);
    expect(paths({ ...ok, max_upload_interval_seconds: 29 })).toEqual(['max_upload_interval_seconds']);
    expect(paths({ ...ok, max_upload_interval_seconds: 300 })).toEqual([]);
    expect(paths({ ...ok, max_upload_records: 999 })).toEqual(['max_upload_records']);
    expect(paths({ ...ok, max_upload_records: 1.5 })).toEqual(['max_upload_records']);
  });

  it('checks the filter through the same grammar, with a path inside it', () => {
    const filter = JSON.stringify({
      where: {
        and: [
          { key: 'a', operator: 'eq', value: 'b' },
          { key: 'a', operator: 'nope', value: 'b' },
        ],
      },
    });
    expect(paths({ ...ok, filter })).toEqual(['filter.where.and[1].operator']);
  });

  it('refuses unknown fields and ignores server-set ones', () => {
    expect(paths({ ...ok, colour: 1 })).toEqual(['colour']);
    expect(paths({ ...ok, id: 3, last_error: null })).toEqual([]);
  });
});

describe('logpush destinations', () => {
  it('refuses an S3 destination without region, non-URIs, http and over-long values', () => {
    expect(validateDestinationConf('s3://bucket/logs')[0].message).toMatch(/region/);
    expect(validateDestinationConf('bucket/logs')[0].message).toMatch(/not a URI/);
    expect(validateDestinationConf('http://example.com/x')[0].message).toMatch(/https/);
    expect(validateDestinationConf(`https://example.com/${'a'.repeat(4096)}`)[0].message).toMatch(
      /at most 4096/,
    );
    expect(validateDestinationConf('gs://bucket/logs')).toEqual([]);
  });

  it('names the missing bucket or host with the right article', () => {
    const messages = (conf: string) => validateDestinationConf(conf).map((v) => v.message);
    expect(messages('s3://?region=us-east-1')).toContain('an s3:// destination must name its bucket');
    expect(messages('gs://')).toContain('a gs:// destination must name its bucket');
    expect(messages('https://')).toContain('an https:// destination must name its host');
  });

  it('never quotes the destination in a message', () => {
    const secret = 'AKIAVERYSECRETKEY';
    for (const v of validateDestinationConf(`s3://b/p?secret-access-key=${secret}`))
      expect(v.message).not.toContain(secret);
  });

  it('knows which schemes need an ownership challenge', () => {
    expect(needsOwnershipChallenge('s3://b/p?region=x')).toBe(true);
    expect(needsOwnershipChallenge('gs://b/p')).toBe(true);
    expect(needsOwnershipChallenge('azure://container?sv=1')).toBe(true);
    expect(needsOwnershipChallenge('https://logs.example.com/x')).toBe(false);
    expect(needsOwnershipChallenge('r2://b/p?account-id=1')).toBe(false);
  });

  it('masks credentials but keeps the region', () => {
    expect(maskDestination('s3://b/logs?region=us-east-1&access-key-id=AK&secret-access-key=SK')).toBe(
      's3://b/logs?region=us-east-1&access-key-id=[REDACTED]&secret-access-key=[REDACTED]',
    );
    expect(maskDestination('nonsense')).toBe('[REDACTED]');
  });

  it('tells credentials from other parameters, which are masked but are not secrets', () => {
    for (const name of ['header_Authorization', 'header_DD-API-KEY', 'token', 'access-key-id', 'sig', 'auth'])
      expect(isCredentialParam(name), name).toBe(true);
    for (const name of ['tag', 'sourcetype', 'ddsource', 'sv', 'se', 'region', 'header_Content-Type'])
      expect(isCredentialParam(name), name).toBe(false);
    expect(
      destinationSecrets('https://u:pw-123456@h.example/in?tag=example.com&sourcetype=logpush&sig=abc'),
    ).toEqual(['abc', 'pw-123456', 'u:pw-123456']);
  });
});
