/**
 * The fields of a Logpush job are described once (src/rules/logpush/job.ts): what a body may set,
 * what the local API stores and returns (in the API's order, with its defaults), and the batch
 * limits the kind manages. These pin that one description to the API's job.
 */
import { describe, expect, it } from 'vitest';
import * as rules from '../../../src/rules/logpush/index.js';
import { STORED_FIELDS } from '../../../src/server/areas/logpush/store.js';

describe('the Logpush job fields', () => {
  it('a body may set these, and only these', () => {
    // the API's writable fields, alphabetically
    expect([...rules.JOB_FIELDS].sort()).toEqual([
      'dataset',
      'destination_conf',
      'enabled',
      'filter',
      'frequency',
      'kind',
      'logpull_options',
      'max_upload_bytes',
      'max_upload_interval_seconds',
      'max_upload_records',
      'name',
      'output_options',
      'ownership_challenge',
    ]);
    const body = { dataset: 'http_requests', destination_conf: 'https://logs.example.com/in' };
    expect(rules.validateLogpushJob({ ...body, error_message: null, id: 3 }, { mode: 'create' })).toEqual([]);
    expect(rules.validateLogpushJob({ ...body, bogus: 1 }, { mode: 'create' })).toEqual([
      { path: 'bogus', message: 'is not a field of a Logpush job' },
    ]);
  });

  it('the local API stores and returns the fields of the one table, in its order', () => {
    expect(STORED_FIELDS).toBe(rules.STORED_JOB_FIELDS);
    expect(rules.STORED_JOB_FIELDS).toEqual(Object.keys(rules.JOB_DEFAULTS));
    expect(rules.STORED_JOB_FIELDS.slice(0, 3)).toEqual(['name', 'enabled', 'destination_conf']);
    expect(rules.STORED_JOB_FIELDS.slice(-3)).toEqual(['error_message', 'last_complete', 'last_error']);
  });

  it('the batch limits are one list, each with its range', () => {
    expect(Object.keys(rules.MAX_UPLOAD_RANGES)).toEqual([...rules.UPLOAD_FIELDS]);
    for (const f of rules.UPLOAD_FIELDS) expect(rules.isUploadField(f)).toBe(true);
    expect(rules.isUploadField('max_upload_files')).toBe(false);
  });
});
