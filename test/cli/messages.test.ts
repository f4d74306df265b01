/**
 * Messages that lead somewhere (issue 27 item 5): a mistyped flag gets one line with the closest
 * one, a name that ends in another domain and a CNAME target written relative to the zone are
 * warned about at file:line:col, a plan's warning says `warning:` once, and a base URL without
 * `/client/v4` gets the URL to use. The CLI runs in-process against the real local API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pos, writeTemp, zoneWith } from '../config/helpers.js';
import { cliAt, startBed, writeYaml, zoneFile, type Bed } from '../cli-reconcile/helpers.js';
import { runCli } from '../support/cli.js';

const offline = (args: string[]) =>
  runCli(args, { env: { CLOUDFLARE_BASE_URL: 'http://127.0.0.1:1/client/v4' } });

describe('a mistyped flag or command', () => {
  it('gets one line with the closest option and where the full list is', async () => {
    const r = await offline(['plan', 'zones.yaml', '--lokal']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "error: unknown option '--lokal' (did you mean --local?); see `zoneplan plan --help`\n",
    );
    expect(r.stdout).toBe('');
  });

  it('names the command it was made in, and works for commands and arguments too', async () => {
    expect((await offline(['plna'])).stderr).toBe(
      "error: unknown command 'plna' (did you mean plan?); see `zoneplan --help`\n",
    );
    expect((await offline(['page-shield', 'report', 'x', '--statu', 'active'])).stderr).toBe(
      "error: unknown option '--statu' (did you mean --status?); see `zoneplan page-shield report --help`\n",
    );
    expect((await offline(['plan', 'z.yaml', '--format', 'yaml'])).stderr).toBe(
      "error: option '--format <format>' argument 'yaml' is invalid. Allowed choices are text, json, markdown; see `zoneplan --help`\n",
    );
    expect((await offline(['apply'])).stderr).toBe(
      "error: missing required argument 'paths-or-plan'; see `zoneplan apply --help`\n",
    );
  });
});

describe('names that are valid but likely not meant', () => {
  it('warns at the name that ends in another domain, and at a relative-looking CNAME target', async () => {
    const src = zoneWith(
      [
        "{ name: '@', type: A, content: 192.0.2.1 }",
        '{ name: www.acme.org, type: A, content: 192.0.2.2 }',
        '{ name: app, type: A, content: 192.0.2.3 }',
        '{ name: blog, type: CNAME, content: www }',
        '{ name: shop, type: CNAME, content: app }',
        '{ name: docs.int, type: A, content: 192.0.2.4 }',
        '{ name: help, type: CNAME, content: docs.int }',
      ],
      'acme.com',
    );
    const file = writeTemp(src);
    const r = await offline(['validate', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      `${file}:${pos(src, 'www.acme.org')}: zones[0].dns.records[1].name: warning: www.acme.org looks like a name in another domain, but a name is relative to its zone: this record is www.acme.org.acme.com; if that is meant, write it in full (\`www.acme.org.acme.com\`), otherwise move the record to the zone of www.acme.org`,
      `${file}:${pos(src, 'www }')}: zones[0].dns.records[3].content: warning: www looks like a name of this zone, but a CNAME target is a full name: this record points at www itself, not at www.acme.com; write \`www.acme.com\` to point in the zone, or \`www.\` to keep the name as it is`,
      `${file}:${pos(src, 'app }')}: zones[0].dns.records[4].content: warning: app looks like a name of this zone, but a CNAME target is a full name: this record points at app itself, not at app.acme.com; write \`app.acme.com\` to point in the zone, or \`app.\` to keep the name as it is`,
      `${file}:${pos(src, 'docs.int }')}: zones[0].dns.records[6].content: warning: docs.int looks like a name of this zone, but a CNAME target is a full name: this record points at docs.int itself, not at docs.int.acme.com; write \`docs.int.acme.com\` to point in the zone, or \`docs.int.\` to keep the name as it is`,
      `ok: ${file}: 1 zone, 7 records`,
    ]);
  });

  it('is silent for names written in full, targets elsewhere and targets with a final dot', async () => {
    const file = writeTemp(
      zoneWith(
        [
          "{ name: '@', type: A, content: 192.0.2.1 }",
          '{ name: www.acme.org.acme.com, type: A, content: 192.0.2.2 }',
          '{ name: eu.west, type: A, content: 192.0.2.3 }',
          '{ name: blog, type: CNAME, content: www.example.net }',
          '{ name: shop, type: CNAME, content: eu.west.acme.com }',
          '{ name: wiki, type: CNAME, content: intranet. }',
        ],
        'acme.com',
      ),
    );
    const r = await offline(['validate', file]);
    expect(r.stdout).toBe(`ok: ${file}: 1 zone, 6 records\n`);
  });
});

describe('against the local API', () => {
  let bed: Bed;
  beforeAll(async () => {
    bed = await startBed();
  });
  afterAll(() => bed.close());

  it("prints a file's warning with `warning:` once, at its place", async () => {
    const src = zoneFile('warn-once.example', [
      "{ name: '@', type: A, content: 192.0.2.1 }",
      '{ name: x, type: A, content: 192.0.2.3, ttl: 30 }',
    ]);
    const file = writeYaml(bed.dir, 'warn-once.yaml', src);
    const r = await cliAt(bed, ['plan', file]);
    expect(r.code, r.stderr).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('warning'));
    expect(warnings).toEqual([
      `${file}:${pos(src, '30 }')}: zones[0].dns.records[1].ttl: warning: a TTL under 60 seconds is accepted only on Enterprise zones`,
    ]);
  });

  it('suggests /client/v4 when the base URL without it answers 7000', async () => {
    const file = writeYaml(
      bed.dir,
      'no-route.yaml',
      zoneFile('no-route.example', ["{ name: '@', type: A, content: 192.0.2.1 }"]),
    );
    const origin = new URL(bed.server.url).origin;
    const r = await runCli(['plan', file, '--api-url', origin], {
      cwd: bed.dir,
      env: { CLOUDFLARE_API_TOKEN: bed.token },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `GET /zones -> 404 7000 No route for that URI; the API URL ${origin} does not end in /client/v4, ` +
        `under which the API answers: try ${origin}/client/v4\n`,
    );
    // a base URL that lacks only the version gets it added once
    const client = await runCli(['plan', file, '--api-url', `${origin}/client`], {
      cwd: bed.dir,
      env: { CLOUDFLARE_API_TOKEN: bed.token },
    });
    expect(client.stderr).toContain(
      `does not end in /client/v4, under which the API answers: try ${origin}/client/v4\n`,
    );
    // the URL it suggests is the right one
    const ok = await runCli(['plan', file, '--api-url', `${origin}/client/v4`], {
      cwd: bed.dir,
      env: { CLOUDFLARE_API_TOKEN: bed.token },
    });
    expect(ok.code, ok.stderr).toBe(0);
  });
});
