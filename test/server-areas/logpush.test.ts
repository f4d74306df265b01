import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../server/helpers.js';
import { KEY_HEADERS, ZONES, startAreaServer, testCall } from './setup.js';

let t: TestServer;
const jobs = `/zones/${ZONES.pro}/logpush/jobs`;
const S3 = 's3://bucket/logs?region=us-east-1';
const HTTPS = 'https://logs.example.com/ingest?header_Authorization=Bearer%20secret-value-123';
beforeAll(async () => {
  t = await startAreaServer();
});
afterAll(() => t.close());

const cond = (i: number) => ({ key: 'ClientRequestHost', operator: 'eq', value: `h${i}` });
function filterOfBytes(bytes: number): string {
  const base = JSON.stringify({ where: { key: 'ClientRequestHost', operator: 'eq', value: '' } });
  return JSON.stringify({
    where: { key: 'ClientRequestHost', operator: 'eq', value: 'x'.repeat(bytes - base.length) },
  });
}
const job = (extra: Record<string, unknown> = {}) => ({
  name: 'http-to-endpoint',
  dataset: 'http_requests',
  destination_conf: HTTPS,
  output_options: {
    field_names: ['ClientIP', 'EdgeResponseStatus'],
    sample_rate: 0.1,
    timestamp_format: 'rfc3339',
  },
  ...extra,
});
const messages = (r: { body: { errors: { message: string }[] } }) => r.body.errors.map((e) => e.message);

describe('Logpush jobs', () => {
  it('creates, lists, reads, updates and deletes with integer ids', async () => {
    const created = await t.api('POST', jobs, job({ filter: JSON.stringify({ where: { and: [cond(1)] } }) }));
    expect(created.status).toBe(200);
    const id = created.body.result.id;
    expect(Number.isInteger(id)).toBe(true);
    expect(created.body.result).toMatchObject({
      dataset: 'http_requests',
      enabled: false,
      last_error: null,
      error_message: null,
    });
    expect((await t.api('GET', jobs)).body.result.map((j: { id: number }) => j.id)).toContain(id);
    const put = await t.api('PUT', `${jobs}/${id}`, { enabled: true, name: 'renamed' });
    expect(put.body.result).toMatchObject({ id, enabled: true, name: 'renamed', dataset: 'http_requests' });
    expect((await t.api('GET', `${jobs}/${id}`)).body.result.name).toBe('renamed');
    expect((await t.api('DELETE', `${jobs}/${id}`)).body.result).toEqual({ id });
    expect((await t.api('GET', `${jobs}/${id}`)).status).toBe(404);
    expect((await t.api('GET', `${jobs}/abc`)).status).toBe(400);
  });

  it('refuses a dataset change on PUT', async () => {
    const id = (await t.api('POST', jobs, job())).body.result.id;
    const r = await t.api('PUT', `${jobs}/${id}`, { dataset: 'dns_logs' });
    expect(r.status).toBe(400);
    expect(messages(r)[0]).toMatch(/^dataset: cannot be changed/);
  });

  it('checks dataset, name, destination, output_options and max_upload_*', async () => {
    const r = await t.api(
      'POST',
      jobs,
      job({
        dataset: 'audit_logs',
        name: 'bad name',
        output_options: { sample_rate: 3 },
        max_upload_records: 10,
      }),
    );
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e) => e.source?.pointer)).toEqual([
      '/dataset',
      '/name',
      '/output_options/sample_rate',
      '/max_upload_records',
    ]);
    const s3 = await t.api('POST', jobs, job({ destination_conf: 's3://bucket/logs' }));
    expect(messages(s3)).toEqual([
      'destination_conf: an S3 destination must include its region, e.g. ?region=us-east-1',
    ]);
  });

  it('1000-byte filter passes, 1001 fails', async () => {
    expect((await t.api('POST', jobs, job({ filter: filterOfBytes(1000) }))).status).toBe(200);
    const r = await t.api('POST', jobs, job({ filter: filterOfBytes(1001) }));
    expect(r.status).toBe(400);
    expect(messages(r)).toEqual(['filter: is 1001 bytes; a filter may be at most 1000 bytes']);
  });

  it('30 operators are within the operator limit, 31 are not', async () => {
    // 30 conditions never fit in 1000 bytes (36 bytes each at least): the 30 are refused for size only
    const f30 = JSON.stringify({ where: { and: Array.from({ length: 30 }, (_, i) => cond(i)) } });
    const r30 = await t.api('POST', jobs, job({ filter: f30 }));
    expect(messages(r30).some((m) => m.includes('operators'))).toBe(false);
    const f31 = JSON.stringify({ where: { and: Array.from({ length: 31 }, (_, i) => cond(i)) } });
    const r31 = await t.api('POST', jobs, job({ filter: f31 }));
    expect(messages(r31)).toContain(
      'filter: has 31 operators; a filter may have at most 30 (one per condition)',
    );
    // and/or do not count: 20 conditions in nested groups are 20 operators
    const nested = {
      where: {
        or: [
          { and: Array.from({ length: 10 }, (_, i) => ({ key: 'A', operator: 'eq', value: i })) },
          { and: Array.from({ length: 10 }, (_, i) => ({ key: 'B', operator: 'eq', value: i })) },
        ],
      },
    };
    expect((await t.api('POST', jobs, job({ filter: JSON.stringify(nested) }))).status).toBe(200);
  });

  it('checks each filter rule with the path inside the filter', async () => {
    const post = (where: unknown) => t.api('POST', jobs, job({ filter: JSON.stringify({ where }) }));
    expect(
      messages(await post({ and: [cond(0), cond(1), { key: 'a', operator: 'like', value: 'x' }] }))[0],
    ).toMatch(/^filter\.where\.and\[2\]\.operator: "like" is not an operator/);
    expect(messages(await post({ key: 'a', operator: 'in', value: 'x' }))[0]).toMatch(
      /^filter\.where\.value: operator "in" takes an array/,
    );
    expect(messages(await post({ key: 'a', operator: 'eq', value: ['x'] }))[0]).toMatch(
      /only "in" and "!in" take an array/,
    );
    expect(messages(await post({ and: [] }))[0]).toMatch(/^filter\.where\.and: must hold at least one/);
    expect(messages(await post({ operator: 'eq', value: 'x' }))[0]).toMatch(/^filter\.where\.key:/);
    const noWhere = await t.api('POST', jobs, job({ filter: '{"and":[]}' }));
    expect(messages(noWhere)).toContain('filter: must have the key "where" at its top level');
    expect(messages(await t.api('POST', jobs, job({ filter: '{oops' })))[0]).toMatch(
      /^filter: is not valid JSON/,
    );
    for (const operator of [
      '!eq',
      'lt',
      'leq',
      'gt',
      'geq',
      'startsWith',
      'endsWith',
      '!startsWith',
      '!endsWith',
      'contains',
      '!contains',
    ]) {
      expect((await post({ key: 'a', operator, value: 'x' })).status, operator).toBe(200);
    }
    expect((await post({ key: 'a', operator: '!in', value: ['x', 'y'] })).status).toBe(200);
  });

  it('never echoes destination credentials in errors', async () => {
    const r = await t.api(
      'POST',
      jobs,
      job({ dataset: 'nope', destination_conf: 's3://b/p?secret-access-key=SUPERSECRET999' }),
    );
    expect(r.text).not.toContain('SUPERSECRET999');
  });

  it('accepts an e-mail/key pair as well as a token', async () => {
    const r = await t.api('GET', jobs, undefined, KEY_HEADERS);
    expect(r.status).toBe(200);
  });
});

describe('Logpush ownership', () => {
  it('issues a challenge, validates it, and requires it for s3 jobs', async () => {
    const noChallenge = await t.api('POST', jobs, job({ destination_conf: S3 }));
    expect(noChallenge.status).toBe(400);
    expect(messages(noChallenge)[0]).toMatch(/^ownership_challenge: is required/);
    const issued = await t.api('POST', `/zones/${ZONES.pro}/logpush/ownership`, { destination_conf: S3 });
    expect(issued.body.result).toMatchObject({
      valid: true,
      message: '',
      filename: expect.stringMatching(/^logs\/ownership-challenge-[0-9a-f]{8}\.txt$/),
    });
    const revealed = await testCall(
      t,
      'GET',
      `/zones/${ZONES.pro}/logpush/ownership?destination_conf=${encodeURIComponent(S3)}`,
    );
    const challenge = revealed.body.result.ownership_challenge;
    expect(revealed.body.result.filename).toBe(issued.body.result.filename);
    const validate = (c: string) =>
      t.api('POST', `/zones/${ZONES.pro}/logpush/ownership/validate`, {
        destination_conf: S3,
        ownership_challenge: c,
      });
    expect((await validate(challenge)).body.result).toEqual({ valid: true });
    expect((await validate('wrong')).body.result).toEqual({ valid: false });
    expect(
      (await t.api('POST', jobs, job({ destination_conf: S3, ownership_challenge: 'wrong' }))).status,
    ).toBe(400);
    const ok = await t.api('POST', jobs, job({ destination_conf: S3, ownership_challenge: challenge }));
    expect(ok.status).toBe(200);
    expect(ok.body.result).not.toHaveProperty('ownership_challenge');
  });
});

describe('Logpush filter wire form', () => {
  it('refuses a filter sent as an object instead of a JSON string', async () => {
    const r = await t.api('POST', jobs, job({ filter: { where: cond(1) } }));
    expect(r.status).toBe(400);
    expect(messages(r)).toEqual([
      'filter: must be a string holding the filter JSON (serialise the object first)',
    ]);
  });
});
