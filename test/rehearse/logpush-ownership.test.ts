/**
 * A rehearsal decides the ownership of a new Logpush destination the way production would: the
 * challenge a create carries is sent to the target's side-effect-free check
 * (`POST .../logpush/ownership/validate`), and the sandbox accepts exactly the pairs the target
 * called valid. Against a `serve` standing in for production, through the real CLI.
 */
import { describe, expect, it } from 'vitest';
import { cliAt, writeYaml, type Bed } from '../cli-reconcile/helpers.js';
import { exampleZoneFile, bedsClosedAfterEach, cliWatched, productionFixtures } from './bed.js';
import { fetchTestRoute } from '../support/test-routes.js';

const ZONE_ID = '023e105f4ecef8ad9ca31a8372d0c353';
const LIVE_S3 = 's3://prod-logs/http?region=us-east-1';
const KEY_ID = 'AKIAOWNERSHIP0123456';
const SECRET_KEY = 'sEcReTkEyOfTheNewBucket0123456789abcdEF';
/** the new bucket, with credentials in its query (never printed) */
const NEW_S3 = `s3://new-logs/http?region=eu-west-1&access-key-id=${KEY_ID}&secret-access-key=${SECRET_KEY}`;

const PRODUCTION = productionFixtures({
  id: ZONE_ID,
  logpush: {
    jobs: [
      {
        id: 41,
        name: 'http-to-bucket',
        dataset: 'http_requests',
        destination_conf: LIVE_S3,
        enabled: true,
      },
    ],
  },
});

/** The zone's Logpush section up to the live job, which every file here keeps. */
const LIVE_JOB = `    logpush:
      purge: false
      jobs:
        - name: http-to-bucket
          dataset: http_requests
          destination_conf: ${LIVE_S3}
`;

const DESIRED = `version: 1
zones:
  - name: example.com
${LIVE_JOB}        - name: http-to-new-bucket
          dataset: http_requests
          destination_conf: s3://new-logs/http?region=eu-west-1&access-key-id=\${env:LP_KEY_ID}&secret-access-key=\${env:LP_SECRET}
          ownership_challenge: \${env:LP_CHALLENGE}
`;

const startProduction = bedsClosedAfterEach();

/** Issues a challenge on the target as a user would, and reads it as if from the bucket. */
async function issueChallenge(bed: Bed): Promise<string> {
  const issued = await cliAt(bed, ['logpush', 'ownership', 'example.com', NEW_S3]);
  expect(issued.code, issued.stderr).toBe(0);
  const res = await fetchTestRoute(
    bed.server,
    `/zones/${ZONE_ID}/logpush/ownership?destination_conf=${encodeURIComponent(NEW_S3)}`,
  );
  return ((await res.json()) as { result: { ownership_challenge: string } }).result.ownership_challenge;
}

const VALIDATE = `POST /zones/${ZONE_ID}/logpush/ownership/validate`;

function expectNoSecret(challenge: string, ...texts: string[]): void {
  for (const t of texts) for (const s of [KEY_ID, SECRET_KEY, challenge]) expect(t).not.toContain(s);
}

describe('rehearsal: ownership of a new Logpush destination', () => {
  it('a challenge production issued rehearses, and apply --rehearse-first creates the job', async () => {
    const prod = await startProduction({ fixtures: PRODUCTION });
    const challenge = await issueChallenge(prod);
    const file = writeYaml(prod.dir, 'zones.yaml', DESIRED);
    const env = { LP_KEY_ID: KEY_ID, LP_SECRET: SECRET_KEY, LP_CHALLENGE: challenge };

    const { result: r, requests } = await cliWatched(prod, ['plan', file, '--rehearse'], env);
    if (!r.stderr.includes('rehearsed')) throw new Error(r.stderr + r.stdout);
    expect(r.stderr).toContain('rehearsed: 1 step applied in the sandbox, second plan empty');
    expect(r.stderr).toContain(
      `checked with the target (writes nothing): 1 POST /zones/${ZONE_ID}/logpush/ownership/validate`,
    );
    expect(r.stderr).not.toContain('refused');
    expect(r.code).toBe(0);
    expect(requests.filter((x) => !x.startsWith('GET '))).toEqual([VALIDATE]);
    expectNoSecret(challenge, r.stdout, r.stderr);

    const applied = await cliAt(prod, ['apply', file, '--rehearse-first', '--auto-approve'], env);
    expect(applied.stderr).toContain('second plan empty');
    expect(applied.code, applied.stderr).toBe(0);
    expectNoSecret(challenge, applied.stdout, applied.stderr);
    const after = await cliAt(prod, ['plan', file, '--format', 'json'], env);
    expect(JSON.parse(after.stdout).steps).toEqual([]);
  });

  it('a wrong challenge is refused with the API message; the target gets reads and one validation', async () => {
    const prod = await startProduction({ fixtures: PRODUCTION });
    // production issued a challenge for this destination, but the file holds another one
    const issued = await issueChallenge(prod);
    const wrong = 'c29tZS1vdGhlci1jaGFsbGVuZ2UtdGhhbi10aGUtaXNzdWVkLW9uZQ';
    expect(wrong).not.toBe(issued);
    const file = writeYaml(prod.dir, 'zones.yaml', DESIRED);
    const env = { LP_KEY_ID: KEY_ID, LP_SECRET: SECRET_KEY, LP_CHALLENGE: wrong };

    const { result: r, requests } = await cliWatched(prod, ['plan', file, '--rehearse'], env);
    if (!r.stderr.includes('refused')) throw new Error(r.stderr + r.stdout);
    expect(r.stderr).toMatch(
      /refused: example\.com logpush job "http-to-new-bucket": POST \S+ -> 400 1010 ownership_challenge: is not the challenge issued for this destination/,
    );
    expect(r.code).toBe(1);
    expect(requests.filter((x) => !x.startsWith('GET '))).toEqual([VALIDATE]);
    expectNoSecret(wrong, r.stdout, r.stderr);

    // apply --rehearse-first stops before any write
    const { result: a, requests: applyRequests } = await cliWatched(
      prod,
      ['apply', file, '--rehearse-first', '--auto-approve'],
      env,
    );
    expect(a.code).not.toBe(0);
    expect(a.stderr).toContain('the rehearsal did not pass; nothing was applied to the target');
    expect(applyRequests.filter((x) => !x.startsWith('GET '))).toEqual([VALIDATE]);
  });

  it('a plan whose Logpush steps need no new proof sends the target reads only', async () => {
    const prod = await startProduction({ fixtures: PRODUCTION });
    // a second job for the live job's bucket: proven by the live job, nothing to ask the target
    const file = exampleZoneFile(
      prod.dir,
      'zones.yaml',
      `${LIVE_JOB}          enabled: false
        - name: dns-to-same-bucket
          dataset: dns_logs
          destination_conf: s3://prod-logs/http?region=us-east-1
          ownership_challenge: \${env:LP_CHALLENGE}
        - name: dns-to-endpoint
          dataset: dns_logs
          destination_conf: https://logs.example.com/in
`,
    );
    const { result: r, requests } = await cliWatched(prod, ['plan', file, '--rehearse'], {
      LP_CHALLENGE: 'any-challenge-of-the-bucket',
    });
    if (!r.stderr.includes('rehearsed')) throw new Error(r.stderr + r.stdout);
    expect(r.stderr).toContain('rehearsed: 3 steps applied in the sandbox, second plan empty');
    expect(r.stderr).not.toContain('checked with the target');
    expect(r.code).toBe(0);
    expect(requests.filter((x) => !x.startsWith('GET '))).toEqual([]);
  });
});
