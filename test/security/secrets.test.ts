/**
 * Secrets never leave: every command (validate, plan with --out and every format, apply of a saved
 * plan and of the file with its journal, drift with the CI summary, export to a file and to stdout,
 * page-shield report, logpush ownership, serve with fixtures, and failing runs) is run with an API
 * token, an e-mail/key pair, Logpush destinations holding secrets and TXT records read from
 * `${env:}` set; none of the secret values may appear in stdout, stderr, or any file the runs wrote
 * (plan files, journals, exported YAML, the step summary), in any form a renderer may give them
 * (./secret-forms.ts: JSON-escaped, YAML-quoted, lower-cased, URL-encoded, line by line, wrapped).
 * The TXT values hold what escapes and wraps: quotes, backslashes, `|`, line breaks, upper-case
 * letters, characters that URL-encode, and a value longer than a text plan's line.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli, startServe, type CliRun } from '../support/processes.js';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { fetchTestRoute } from '../support/test-routes.js';
import { tempDir } from '../cli-reconcile/helpers.js';
import { findForms } from './secret-forms.js';

const ACCOUNT = '0123456789abcdef0123456789abcdef';
const ZONE = 'secret.example';
const TOKEN = 'tok-SECRET-4f1c9a7e2b';
const EMAIL = 'login-SECRET-7d2e@vault.example';
const KEY = 'key-SECRET-0a9b8c7d6e';
const LOGPUSH = 'bearer-SECRET-93be17';
const SERVE_TOKEN = 'serve-SECRET-55aa11';
const S3 = 's3://secret-logs/http?region=us-east-1';
const QUOTED_ZONE = 'quoted.example';
const TXT_QUOTED = `Quoted-SECRET"With"Quote42\\back\\slash|pipe'apostrophe`;
const TXT_LINES = 'First-Line-SECRET-7f3a\nSecond-Line-SECRET-9c2e\tTAB';
const TXT_LONG = Array.from({ length: 5 }, (_, i) => `Long SECRET/${i}+Value=With&Url%Chars?And Spaces`).join(
  ' ',
);
/** a wrong token that escapes in every renderer, for the failing run that echoes what it was given */
const BAD_TOKEN = 'Bad"Token\\SECRET\nsecond-line-4455';
const SECRETS = { TOKEN, EMAIL, KEY, LOGPUSH, SERVE_TOKEN, TXT_QUOTED, TXT_LINES, TXT_LONG, BAD_TOKEN };

let dir: string;
let server: RunningServer;
let challenge = '';
const runs: { name: string; run: CliRun }[] = [];

const fixtures = {
  accounts: [
    { id: ACCOUNT, name: 'Secret', pools: [{ name: 'p1', notification_email: 'ops@secret.example' }] },
  ],
  zones: [
    {
      name: ZONE,
      account: ACCOUNT,
      plan: 'business',
      records: [{ name: '@', type: 'A', content: '192.0.2.10' }],
      page_shield: {
        enabled: true,
        scripts: [{ url: 'https://evil.example.org/skim.js', js_integrity_score: 3 }],
      },
    },
  ],
  tokens: [{ name: 'ci', value: TOKEN }],
  keys: [{ email: EMAIL, key: KEY }],
};

function desired(withS3: boolean): string {
  return `version: 1
zones:
  - name: ${ZONE}
    account: ${ACCOUNT}
    dns:
      records:
        - { name: '@', type: A, content: 192.0.2.10 }
        - { name: www, type: A, content: 192.0.2.11 }
    page_shield:
      enabled: true
      max_malicious_scripts: 5
      policies:
        - { description: log all, action: log, expression: 'http.host eq "${ZONE}"', value: "script-src 'self'" }
    logpush:
      jobs:
        - name: http-to-collector
          dataset: http_requests
          destination_conf: https://collector.example/ingest?header_Authorization=Bearer%20\${env:LOGPUSH_TOKEN}
          output_options: { field_names: [ClientIP] }
${
  withS3
    ? `        - name: to-bucket
          dataset: firewall_events
          destination_conf: ${S3}
          ownership_challenge: \${env:LOGPUSH_CHALLENGE}
          output_options: { field_names: [ClientIP] }
`
    : ''
}  - name: ${QUOTED_ZONE}
    account: ${ACCOUNT}
    dns:
      records:
        - { name: '@', type: A, content: 192.0.2.20 }
        - { name: quoted, type: TXT, content: '\${env:TXT_QUOTED}' }
        - { name: lines, type: TXT, content: '\${env:TXT_LINES}' }
        - { name: long, type: TXT, content: 'v=long1; k=\${env:TXT_LONG}' }
accounts:
  - id: ${ACCOUNT}
    load_balancing:
      legacy_pool_emails: remove
      notifications:
        - { name: health, alert_type: load_balancing_health_alert, pools: all, new_health: [Unhealthy, Healthy], event_source: [pool, origin], email: [ops@secret.example] }
`;
}

/** Token, key pair and Logpush secret all set at once (the token wins; the rest must not leak either). */
const env = (): Record<string, string> => ({
  CLOUDFLARE_API_TOKEN: TOKEN,
  CLOUDFLARE_EMAIL: EMAIL,
  CLOUDFLARE_API_KEY: KEY,
  LOGPUSH_TOKEN: LOGPUSH,
  LOGPUSH_CHALLENGE: challenge,
  TXT_QUOTED,
  TXT_LINES,
  TXT_LONG,
  GITHUB_STEP_SUMMARY: join(dir, 'step-summary.md'),
});
const keyEnv = (): Record<string, string> => {
  const { CLOUDFLARE_API_TOKEN: _, ...rest } = env();
  return rest;
};

async function cli(name: string, args: string[], e = env()): Promise<CliRun> {
  const run = await spawnCli(['-v', ...args, '--api-url', server.url], {
    cwd: dir,
    env: e,
    timeoutMs: 30_000,
  });
  runs.push({ name, run });
  return run;
}

function filesUnder(d: string): string[] {
  return readdirSync(d).flatMap((f) => {
    const p = join(d, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Which secrets show up in `text`, and in which form. */
function leaks(text: string): string[] {
  return findForms(text, { ...SECRETS, ...(challenge ? { CHALLENGE: challenge } : {}) });
}

beforeAll(async () => {
  dir = tempDir();
  server = await startServer({ db: join(dir, 'api.db'), fixtures, quiet: true, testRoutes: true });
});
afterAll(() => server?.close());

describe('secrets in every command', () => {
  it('runs every command; each does its work', async () => {
    writeFileSync(join(dir, 'zones.yaml'), desired(false));
    // the S3 destination needs a challenge first: `logpush ownership` asks for it, then the test-only
    // route stands in for reading the file the API wrote into the bucket
    const own = await cli('logpush ownership', ['logpush', 'ownership', ZONE, S3]);
    expect(own.code, own.stderr).toBe(0);
    const zoneId = (
      (await (
        await fetch(`${server.url}/zones?name=${ZONE}`, { headers: { authorization: `Bearer ${TOKEN}` } })
      ).json()) as any
    ).result[0].id;
    const issued = (await (
      await fetchTestRoute(
        server,
        `/zones/${zoneId}/logpush/ownership?destination_conf=${encodeURIComponent(S3)}`,
      )
    ).json()) as any;
    challenge = issued.result.ownership_challenge;
    expect(challenge.length).toBeGreaterThan(8);
    writeFileSync(join(dir, 'zones.yaml'), desired(true));

    expect((await cli('validate', ['validate', 'zones.yaml'])).code).toBe(0);
    const plan = await cli('plan --out', ['plan', 'zones.yaml', '--out', 'plan.json']);
    expect(plan.code, plan.stderr).toBe(0);
    await cli('plan json', ['plan', 'zones.yaml', '--format', 'json']);
    await cli('plan markdown', ['plan', 'zones.yaml', '--format', 'markdown']);
    const apply = await cli('apply plan.json', ['apply', 'plan.json', '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(0);
    // the secrets were really in play: the server holds the destination with its credential
    const quoted = (await (
      await fetch(`${server.url}/zones?name=${QUOTED_ZONE}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      })
    ).json()) as any;
    const txt = (await (
      await fetch(`${server.url}/zones/${quoted.result[0].id}/dns_records?type=TXT`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      })
    ).json()) as any;
    expect(txt.result.map((r: { content: string }) => r.content).sort()).toEqual(
      [TXT_QUOTED, TXT_LINES, `v=long1; k=${TXT_LONG}`].sort(),
    );
    const jobs = (await (
      await fetch(`${server.url}/zones/${zoneId}/logpush/jobs`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      })
    ).json()) as any;
    expect(JSON.stringify(jobs.result)).toContain(LOGPUSH);
    const drift = await cli('drift', ['drift', 'zones.yaml']);
    expect(drift.code, drift.stderr).toBe(0);
    const exp = await cli('export --out', [
      'export',
      '--zone',
      ZONE,
      '--account',
      ACCOUNT,
      '--out',
      'exported.yaml',
    ]);
    expect(exp.code, exp.stderr).toBe(0);
    await cli('export stdout', ['export', '--zone', ZONE, '--account', ACCOUNT]);
    const report = await cli('page-shield report', ['page-shield', 'report', ZONE]);
    expect(report.stdout + report.stderr).toMatch(/skim\.js/);
    await cli('page-shield report json', ['page-shield', 'report', ZONE, '--format', 'json']);
    // the e-mail/key pair alone, on what it may reach (DNS, Logpush)
    writeFileSync(
      join(dir, 'dns-logpush.yaml'),
      desired(true)
        .replace(/ {4}page_shield:[\s\S]*? {4}logpush:/, '    logpush:')
        .replace(/accounts:[\s\S]*$/, ''),
    );
    const keyPlan = await cli(
      'plan with the key pair',
      ['plan', 'dns-logpush.yaml', '--out', 'key-plan.json'],
      keyEnv(),
    );
    expect(keyPlan.code, keyPlan.stderr).toBe(0);
    const keyApply = await cli(
      'apply with the key pair',
      ['apply', 'dns-logpush.yaml', '--auto-approve'],
      keyEnv(),
    );
    expect(keyApply.code, keyApply.stderr).toBe(0);
    // the files the scan below reads were really written
    const written = filesUnder(dir).map((f) => f.slice(dir.length + 1));
    expect(written.some((f) => f.includes('journal'))).toBe(true);
    expect(written).toEqual(
      expect.arrayContaining(['plan.json', 'key-plan.json', 'exported.yaml', 'step-summary.md']),
    );
  }, 120_000);

  it('failing runs do not echo secrets either', async () => {
    await cli('plan with a wrong token', ['plan', 'zones.yaml'], {
      ...env(),
      CLOUDFLARE_API_TOKEN: `${TOKEN}-wrong`,
    });
    const escaping = await cli('plan with a wrong token that escapes', ['plan', 'zones.yaml'], {
      ...env(),
      CLOUDFLARE_API_TOKEN: BAD_TOKEN,
    });
    expect(escaping.code).toBe(1);
    // a path nobody redacts on purpose (the target line shows the URL): the stderr sink masks it
    const inPath = `${server.url.replace(/\/client\/v4$/, '')}/${TOKEN}/client/v4`;
    const tokenInUrl = await spawnCli(['-v', 'plan', 'zones.yaml', '--api-url', inPath], {
      cwd: dir,
      env: env(),
      timeoutMs: 30_000,
    });
    runs.push({ name: 'plan with the token in the API URL', run: tokenInUrl });
    expect(tokenInUrl.code).toBe(1);
    await cli('apply a denied key pair on Page Shield', ['apply', 'zones.yaml', '--auto-approve'], keyEnv());
    writeFileSync(join(dir, 'bad.yaml'), desired(true).replace('https://collector', 'http://collector'));
    const bad = await cli('validate a bad destination', ['validate', 'bad.yaml']);
    expect(bad.code).toBe(1);
    await cli('plan a bad destination', ['plan', 'bad.yaml']);
    const { LOGPUSH_TOKEN: _unset, ...withoutSecret } = env();
    const noEnv = await cli('plan with the secret variable unset', ['plan', 'zones.yaml'], withoutSecret);
    expect(noEnv.code).toBe(1);
  }, 60_000);

  it('serve with fixtures prints no credential', async () => {
    writeFileSync(
      join(dir, 'serve-fixtures.yaml'),
      `accounts: [{ id: ${ACCOUNT}, name: S }]\ntokens:\n  - { name: ci, value: '\${env:ZONEPLAN_LOCAL_TOKEN}' }\nkeys:\n  - { email: ${EMAIL}, key: ${KEY} }\n`,
    );
    const serve = await startServe({
      db: join(dir, 'serve.db'),
      fixtures: 'serve-fixtures.yaml',
      cwd: dir,
      env: { ZONEPLAN_LOCAL_TOKEN: SERVE_TOKEN },
    });
    const denied = await fetch(`${serve.url}/zones`, {
      headers: { authorization: `Bearer ${SERVE_TOKEN}x` },
    });
    expect(denied.status).toBe(401);
    expect(leaks(await denied.text())).toEqual([]);
    await serve.stop();
    expect(serve.output()).toMatch(/listening on/);
    expect(leaks(serve.output())).toEqual([]);
  });

  it('no secret in any output or any file written', () => {
    expect(runs.length).toBeGreaterThanOrEqual(18);
    const found: string[] = [];
    for (const { name, run } of runs) {
      for (const s of leaks(run.stdout)) found.push(`${name}: ${s} in stdout`);
      for (const s of leaks(run.stderr)) found.push(`${name}: ${s} in stderr`);
    }
    const inputs = new Set(['serve-fixtures.yaml']); // the fixtures file names the key pair itself
    for (const file of filesUnder(dir)) {
      if (/\.db(-wal|-shm)?$/.test(file) || inputs.has(file.slice(dir.length + 1))) continue;
      for (const s of leaks(readFileSync(file, 'utf8'))) found.push(`${file.slice(dir.length + 1)}: ${s}`);
    }
    expect(found).toEqual([]);
  });
});
