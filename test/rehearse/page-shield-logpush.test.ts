/**
 * Page Shield and Logpush through `export --as fixtures` and `plan --rehearse`, against a `serve`
 * standing in for production: the copy plans step for step like the original (ids and
 * fingerprints), a rehearsal converges sending the target reads only, a Logpush job whose
 * destination ownership is not proven (the target's validation says so) is refused by the
 * rehearsal with the API's message, and no
 * destination secret reaches the exported file or any output.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliAt, writeYaml } from '../cli-reconcile/helpers.js';
import { exampleZoneFile, exportCopy, bedsClosedAfterEach, cliWatched, productionFixtures } from './bed.js';

const ZONE_ID = '023e105f4ecef8ad9ca31a8372d0c353';
const KEY_ID = 'AKIAEXAMPLE0123456789';
const SECRET_KEY = 'wJalrXUtnFEMI0K7MDENG0bPxRfiCYEXAMPLEKEY';
const BEARER = 'Bearer%20tok3n4x9q7m2p8r5v1w6y0z';
const BEARER_DECODED = 'Bearer tok3n4x9q7m2p8r5v1w6y0z';
const S3 = `s3://prod-logs/http?region=us-east-1&access-key-id=${KEY_ID}&secret-access-key=${SECRET_KEY}`;
const HTTPS = `https://logs.example.com/ingest?header_Authorization=${BEARER}`;
const SECRETS = [KEY_ID, SECRET_KEY, BEARER, BEARER_DECODED, 'tok3n4x9q7m2p8r5v1w6y0z'];

const id32 = (prefix: string, n: number) => `${prefix.repeat(30)}${String(n).padStart(2, '0')}`;

const PRODUCTION = productionFixtures({
  id: ZONE_ID,
  page_shield: {
    enabled: true,
    use_cloudflare_reporting_endpoint: false,
    use_connection_url_path: true,
    policies: [
      {
        id: id32('b', 1),
        description: 'app scripts',
        action: 'allow',
        expression: 'http.request.uri.path contains "/app"',
        value: "script-src 'self'",
        enabled: true,
      },
      {
        id: id32('b', 2),
        description: 'old images',
        action: 'log',
        expression: 'http.host eq "example.com"',
        value: "img-src 'self'",
        enabled: false,
      },
    ],
    scripts: [
      { id: id32('c', 1), url: 'https://cdn.example.net/a.js', js_integrity_score: 80 },
      { id: id32('c', 2), url: 'https://cdn.example.net/bad.js', js_integrity_score: 4 },
      { id: id32('c', 3), url: 'https://old.example.net/x.js', status: 'inactive' },
      { id: id32('c', 4), url: 'https://example.com/cdn-cgi/y.js', status: 'infrequent' },
    ],
    connections: [{ id: id32('d', 1), url: 'https://api.example.net/collect', url_reported_malicious: true }],
    cookies: [{ id: id32('e', 1), name: 'session', host: 'example.com', secure_attribute: true }],
  },
  logpush: {
    jobs: [
      {
        id: 41,
        name: 'http-to-bucket',
        dataset: 'http_requests',
        destination_conf: S3,
        enabled: true,
        filter: '{"where":{"key":"ClientRequestHost","operator":"eq","value":"example.com"}}',
        output_options: { field_names: ['ClientIP', 'EdgeResponseStatus'] },
      },
      {
        id: 42,
        name: 'http-to-endpoint',
        dataset: 'http_requests',
        destination_conf: HTTPS,
        enabled: true,
      },
      { id: 43, dataset: 'dns_logs', destination_conf: 'https://dns.example.com/in' },
    ],
  },
});

/** The desired file's secrets, as the user's environment holds them. */
const ENV = { LP_KEY_ID: KEY_ID, LP_SECRET: SECRET_KEY, LP_BEARER: BEARER };

/** One change in each kind: a policy updated, one created, one deleted; a job updated, one created, one deleted. */
const DESIRED = `version: 1
zones:
  - name: example.com
    page_shield:
      enabled: true
      max_malicious_scripts: 1
      policies:
        - description: app scripts
          action: allow
          expression: http.request.uri.path contains "/app"
          value: "script-src 'self' https://cdn.example.net"
        - description: report everything
          action: log
          expression: http.host eq "example.com"
          value: "default-src 'self'"
    logpush:
      jobs:
        - name: http-to-bucket
          dataset: http_requests
          destination_conf: s3://prod-logs/http?region=us-east-1&access-key-id=\${env:LP_KEY_ID}&secret-access-key=\${env:LP_SECRET}
          filter: { where: { key: ClientRequestHost, operator: eq, value: www.example.com } }
          output_options: { field_names: [ClientIP, EdgeResponseStatus] }
        - name: http-to-endpoint
          dataset: http_requests
          destination_conf: https://logs.example.com/ingest?header_Authorization=\${env:LP_BEARER}
        - name: firewall-to-endpoint
          dataset: firewall_events
          destination_conf: https://fw.example.com/in
`;

const startProduction = bedsClosedAfterEach();
const setEnv: string[] = [];
afterEach(() => {
  while (setEnv.length > 0) delete process.env[setEnv.pop()!];
});

function expectNoSecret(...texts: string[]): void {
  for (const text of texts) for (const s of SECRETS) expect(text).not.toContain(s);
}

describe('Page Shield and Logpush in a copy of live state', () => {
  it('export --as fixtures: the served copy plans step for step like the original', async () => {
    const prod = await startProduction({ fixtures: PRODUCTION });
    const desired = writeYaml(prod.dir, 'zones.yaml', DESIRED);
    const exp = await exportCopy(prod);
    expect(exp.code).toBe(0);
    const text = readFileSync(join(prod.dir, 'copy.json'), 'utf8');
    expectNoSecret(text, exp.stdout, exp.stderr);
    const variables = {
      ZONEPLAN_LOGPUSH_EXAMPLE_COM_HTTP_TO_BUCKET_ACCESS_KEY_ID: KEY_ID,
      ZONEPLAN_LOGPUSH_EXAMPLE_COM_HTTP_TO_BUCKET_SECRET_ACCESS_KEY: SECRET_KEY,
      ZONEPLAN_LOGPUSH_EXAMPLE_COM_HTTP_TO_ENDPOINT_HEADER_AUTHORIZATION: BEARER,
    };
    for (const name of Object.keys(variables)) {
      expect(exp.stderr).toContain(name);
      expect(text).toContain(`\${env:${name}}`);
    }

    const copy = JSON.parse(text) as { zones: Record<string, any>[] };
    const ps = copy.zones[0].page_shield;
    expect(ps).toMatchObject({
      enabled: true,
      use_cloudflare_reporting_endpoint: false,
      use_connection_url_path: true,
    });
    expect(ps.policies.map((p: { id: string }) => p.id)).toEqual([id32('b', 1), id32('b', 2)]);
    // every status, the cdn-cgi script too: the lists' defaults would hide them
    expect(ps.scripts.map((s: { id: string }) => s.id).sort()).toEqual([1, 2, 3, 4].map((n) => id32('c', n)));
    expect(ps.connections[0]).toMatchObject({ id: id32('d', 1), url_reported_malicious: true });
    expect(ps.cookies[0]).toMatchObject({ id: id32('e', 1), name: 'session', secure_attribute: true });
    expect(copy.zones[0].logpush.jobs.map((j: { id: number }) => j.id)).toEqual([41, 42, 43]);
    // validated ownership pairs are a rehearsal's, in memory only
    expect(copy.zones[0].logpush.proven).toBeUndefined();

    for (const [name, value] of Object.entries(variables)) {
      process.env[name] = value;
      setEnv.push(name);
    }
    const sandbox = await startProduction({
      fixtures: join(prod.dir, 'copy.json') as unknown as Record<string, unknown>,
    });
    const a = await cliAt(prod, ['plan', desired, '--format', 'json'], ENV);
    if (!a.stdout) throw new Error(a.stderr);
    const b = await cliAt(sandbox, ['plan', desired, '--format', 'json'], ENV);
    expect(b.stderr).toBe(a.stderr.replaceAll(prod.contract.url, sandbox.contract.url));
    const steps = JSON.parse(a.stdout).steps as { id: string; fingerprint?: string }[];
    expect(steps.map((s) => s.id).sort()).toEqual(
      [
        'example.com/logpush/41',
        'example.com/logpush/43',
        'example.com/logpush/create:firewall-to-endpoint',
        `example.com/page_shield/${id32('b', 1)}`,
        `example.com/page_shield/${id32('b', 2)}`,
        'example.com/page_shield/create:report everything',
      ].sort(),
    );
    expect(JSON.parse(b.stdout).steps).toEqual(steps);
    expectNoSecret(a.stdout, a.stderr, b.stdout, b.stderr);

    // the same page-shield report from the copy (detected items, their fields and order)
    const report = [
      'page-shield',
      'report',
      'example.com',
      '--format',
      'json',
      '--status',
      'active,infrequent,inactive',
    ];
    const ra = await cliAt(prod, report);
    const rb = await cliAt(sandbox, report);
    expect(ra.code).toBe(0);
    expect(rb.stdout).toBe(ra.stdout);
  });

  it('plan --rehearse converges in the sandbox and sends the target reads only; apply --rehearse-first applies', async () => {
    const prod = await startProduction({ fixtures: PRODUCTION });
    const desired = writeYaml(prod.dir, 'zones.yaml', DESIRED);
    const { result: before, urls: planReads } = await cliWatched(
      prod,
      ['plan', desired, '--format', 'json'],
      ENV,
    );
    const { result: r, urls: requests } = await cliWatched(prod, ['plan', desired, '--rehearse'], ENV);
    const methods = requests.map((x) => x.split(' ')[0]);
    if (!r.stderr.includes('rehearsed')) throw new Error(r.stderr + r.stdout);
    expect(r.stderr).toContain('rehearsed: 6 steps applied in the sandbox, second plan empty');
    expect(r.stderr).not.toContain('not rehearsed');
    expect(r.stderr).not.toContain('checked with the target');
    expect(r.code).toBe(0);
    expect(methods.filter((m) => m !== 'GET')).toEqual([]);
    // the rehearsal reads what the plan reads, nothing more (no list of detected items)
    expect([...requests].sort()).toEqual([...planReads].sort());
    expectNoSecret(r.stdout, r.stderr);
    const again = await cliAt(prod, ['plan', desired, '--format', 'json'], ENV);
    expect(JSON.parse(again.stdout).steps).toEqual(JSON.parse(before.stdout).steps);

    // and apply --rehearse-first applies it for real
    const applied = await cliAt(prod, ['apply', desired, '--rehearse-first', '--auto-approve'], ENV);
    expect(applied.stderr).toContain('second plan empty');
    expect(applied.code).toBe(0);
    expectNoSecret(applied.stdout, applied.stderr);
    const after = await cliAt(prod, ['plan', desired, '--format', 'json'], ENV);
    expect(JSON.parse(after.stdout).steps).toEqual([]);
  });

  it('a Logpush job whose destination ownership is not proven is refused before any write', async () => {
    const prod = await startProduction({ fixtures: PRODUCTION });
    // the file gives a challenge, so offline checks pass; only the API knows it was never issued
    const file = exampleZoneFile(
      prod.dir,
      'zones.yaml',
      `    logpush:
      purge: false
      jobs:
        - name: to-new-bucket
          dataset: http_requests
          destination_conf: s3://other-bucket/logs?region=us-east-1
          ownership_challenge: \${env:LP_CHALLENGE}
`,
    );
    const env = { LP_CHALLENGE: 'a-challenge-read-from-the-bucket-long-ago' };
    const { result: r, urls: requests } = await cliWatched(prod, ['plan', file, '--rehearse'], env);
    const message = 'ownership_challenge: is not the challenge issued for this destination';
    if (!r.stderr.includes('refused')) throw new Error(r.stderr + r.stdout);
    expect(r.stderr).toMatch(
      /refused: example\.com logpush .*to-new-bucket.*: POST \S+ -> 400 1010 ownership_challenge: is not the challenge issued/,
    );
    expect(r.code).toBe(1);
    // the target was asked whether the challenge is valid (it said no), and nothing else but reads
    expect(requests.filter((x) => !x.startsWith('GET '))).toEqual([
      `POST /zones/${ZONE_ID}/logpush/ownership/validate`,
    ]);
    expect(r.stdout + r.stderr).not.toContain(env.LP_CHALLENGE);
    // production refuses it the same way
    const real = await cliAt(prod, ['apply', file, '--auto-approve'], env);
    expect(real.code).not.toBe(0);
    expect(real.stdout + real.stderr).toContain(message);
  });
});
