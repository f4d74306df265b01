/**
 * The fixtures sections a copy of live state needs: `zones[].page_shield.policies` and
 * `zones[].logpush.jobs`, with their ids, seeded once, secrets of destinations as `${env:NAME}`,
 * and the destinations of fixture jobs counted as proven.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server/helpers.js';

const ZONE = '11111111111111111111111111111111';
const OTHER = '22222222222222222222222222222222';
const POLICY = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa01';
const SECRET = 'wJalrXUtnFEMI0K7MDENG0bPxRfiCYEXAMPLEKEY';

const policy = {
  id: POLICY,
  description: 'app',
  action: 'allow',
  expression: 'http.host eq "example.com"',
  value: "script-src 'self'",
  enabled: true,
};
const job = (extra: Record<string, unknown> = {}) => ({
  id: 70,
  name: 'to-bucket',
  dataset: 'http_requests',
  destination_conf: 's3://logs/http?region=us-east-1&secret-access-key=${env:ZP_TEST_SECRET}',
  enabled: true,
  filter: { where: { key: 'ClientRequestHost', operator: 'eq', value: 'example.com' } },
  ...extra,
});

function fixtures(zone: Record<string, unknown> = {}, other: Record<string, unknown> = {}) {
  return {
    accounts: [{ id: 'cccccccccccccccccccccccccccccccc', name: 'Example' }],
    zones: [
      {
        name: 'example.com',
        id: ZONE,
        plan: 'enterprise',
        page_shield: { enabled: true, policies: [policy] },
        logpush: {
          jobs: [job(), { id: 71, dataset: 'dns_logs', destination_conf: 'https://dns.example.com/in' }],
        },
        ...zone,
      },
      { name: 'example.net', id: OTHER, ...other },
    ],
  };
}

let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  delete process.env.ZP_TEST_SECRET;
});

async function failure(doc: Record<string, unknown>): Promise<string> {
  try {
    t = await startTestServer({ fixtures: doc });
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('the fixtures loaded');
}

describe('page_shield.policies and logpush.jobs fixtures', () => {
  it('load with their ids, seeded once, and new jobs get later ids', async () => {
    process.env.ZP_TEST_SECRET = SECRET;
    t = await startTestServer({ fixtures: fixtures() });
    const ps = `/zones/${ZONE}/page_shield/policies`;
    const jobs = `/zones/${ZONE}/logpush/jobs`;
    expect((await t.api('GET', ps)).body.result).toEqual([policy]);
    const listed = (await t.api('GET', jobs)).body.result;
    expect(listed.map((j: { id: number }) => j.id)).toEqual([70, 71]);
    expect(listed[0].destination_conf).toBe(`s3://logs/http?region=us-east-1&secret-access-key=${SECRET}`);
    expect(listed[0].filter).toBe(JSON.stringify(job().filter));
    expect(listed[1]).toMatchObject({ name: null, enabled: false });

    const created = await t.api('POST', jobs, {
      dataset: 'dns_logs',
      destination_conf: 'https://x.example.com/',
    });
    expect(created.body.result.id).toBeGreaterThan(71);
    await t.api('DELETE', `${jobs}/70`);
    await t.api('DELETE', `${ps}/${POLICY}`);
    await t.restart();
    // what the API deleted stays deleted
    expect((await t.api('GET', ps)).body.result).toEqual([]);
    expect((await t.api('GET', jobs)).body.result.map((j: { id: number }) => j.id)).toEqual([
      71,
      created.body.result.id,
    ]);
  });

  it("counts a fixture job's destination as proven; another still needs its issued challenge", async () => {
    process.env.ZP_TEST_SECRET = SECRET;
    t = await startTestServer({ fixtures: fixtures() });
    const jobs = `/zones/${ZONE}/logpush/jobs`;
    const body = (destination_conf: string, ownership_challenge?: string) => ({
      name: 'second',
      dataset: 'dns_logs',
      destination_conf,
      ownership_challenge,
    });
    const same = 's3://logs/http?region=us-east-1';
    expect((await t.api('POST', jobs, body(same, 'any-challenge'))).status).toBe(200);
    const none = await t.api('POST', jobs, body(same));
    expect(none.body.errors[0].message).toMatch(/^ownership_challenge: is required/);
    const other = await t.api('POST', jobs, body('s3://elsewhere/http?region=us-east-1', 'any-challenge'));
    expect(other.status).toBe(400);
    expect(other.body.errors[0].message).toBe(
      'ownership_challenge: is not the challenge issued for this destination',
    );
  });

  it('accepts exactly the validated (destination, challenge) pairs of `proven`', async () => {
    process.env.ZP_TEST_SECRET = SECRET;
    const fresh = 's3://fresh/http?region=eu-west-1&secret-access-key=${env:ZP_TEST_SECRET}';
    t = await startTestServer({
      fixtures: fixtures({
        logpush: { jobs: [], proven: [{ destination_conf: fresh, ownership_challenge: 'the-valid-one' }] },
      }),
    });
    const jobs = `/zones/${ZONE}/logpush/jobs`;
    const body = (destination_conf: string, ownership_challenge: string) => ({
      dataset: 'dns_logs',
      destination_conf,
      ownership_challenge,
    });
    // the query (credentials, options) aside, as every proof is keyed
    const other = await t.api('POST', jobs, body('s3://fresh/http?region=eu-west-1', 'another-one'));
    expect(other.body.errors[0].message).toBe(
      'ownership_challenge: is not the challenge issued for this destination',
    );
    const validate = `/zones/${ZONE}/logpush/ownership/validate`;
    const dest = 's3://fresh/http?region=eu-west-1';
    expect((await t.api('POST', validate, body(dest, 'another-one'))).body.result).toEqual({ valid: false });
    expect((await t.api('POST', validate, body(dest, 'the-valid-one'))).body.result).toEqual({ valid: true });
    expect((await t.api('POST', jobs, body(dest, 'the-valid-one'))).status).toBe(200);
    // a pair proves nothing for another destination
    const elsewhere = await t.api('POST', jobs, body('s3://elsewhere/http', 'the-valid-one'));
    expect(elsewhere.status).toBe(400);
  });

  it('reads `$${env:` in a destination as the literal text', async () => {
    const conf = 'https://h.example.com/in?tag=$${env:X}';
    t = await startTestServer({
      fixtures: fixtures({ logpush: { jobs: [job({ destination_conf: conf })] } }),
    });
    const listed = (await t.api('GET', `/zones/${ZONE}/logpush/jobs`)).body.result;
    expect(listed[0].destination_conf).toBe('https://h.example.com/in?tag=${env:X}');
  });

  it('names the place of each mistake, never quoting a secret', async () => {
    const cases: [Record<string, unknown>, Record<string, unknown>, RegExp][] = [
      [
        {},
        {},
        /zones\[0\]\.logpush\.jobs\[0\]\.destination_conf: the environment variable ZP_TEST_SECRET is not set/,
      ],
      [
        { page_shield: { policies: [{ ...policy, id: 'nope' }] } },
        {},
        /zones\[0\]\.page_shield\.policies\[0\]\.id: must be 32 hexadecimal characters/,
      ],
      [
        { page_shield: { policies: [{ ...policy, action: 'block' }] } },
        {},
        /zones\[0\]\.page_shield\.policies\[0\]\.action: /,
      ],
      [{ logpush: { jobs: [job({ name: 'bad name' })] } }, {}, /zones\[0\]\.logpush\.jobs\[0\]\.name: /],
      [
        { logpush: { jobs: [job({ colour: 'red' })] } },
        {},
        /jobs\[0\]\.colour: is not a field of a Logpush job/,
      ],
      [{ logpush: { job: [] } }, {}, /zones\[0\]\.logpush\.job: is not a logpush fixture key; use jobs/],
      [
        { logpush: { proven: [{ destination_conf: 's3://b/p' }] } },
        {},
        /zones\[0\]\.logpush\.proven\[0\]\.ownership_challenge: must be a non-empty string/,
      ],
      [
        { logpush: { proven: [{ destination_conf: 'not a uri', ownership_challenge: 'c' }] } },
        {},
        /zones\[0\]\.logpush\.proven\[0\]\.destination_conf: must not contain whitespace/,
      ],
      [
        {},
        { logpush: { jobs: [job({ destination_conf: 'https://h.example.com/' })] } },
        /zones\[1\]\.logpush\.jobs\[0\]\.id: the job id 70 already belongs to another zone/,
      ],
    ];
    for (const [i, [zone, other, expected]] of cases.entries()) {
      if (i > 0) process.env.ZP_TEST_SECRET = SECRET;
      const message = await failure(fixtures(zone, other));
      expect(message).toMatch(expected);
      expect(message).not.toContain(SECRET);
    }
  });
});
