/**
 * `${env:NAME}` is refused where a value becomes an identifier (zone names and accounts, account
 * ids, DNS record names, Logpush job names, the target's URL and local database): an identifier is
 * printed in every plan, lower-cased in DNS names, so it could never be kept secret. Each case runs
 * the built CLI: the error names the file, line and column and says why, the value read from the
 * environment is printed in no form, and nothing is created (no zone on the API, no local database).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../support/processes.js';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { ACCOUNT, tempDir } from '../cli-reconcile/helpers.js';
import { findForms } from './secret-forms.js';

const TOKEN = 'tok-identifiers-4f1c9a7e2b';
const VALUE = 'Hidden-IDENTIFIER-Value-77';
let dir: string;
let server: RunningServer;

beforeAll(async () => {
  dir = tempDir();
  server = await startServer({
    db: join(dir, 'api.db'),
    fixtures: { accounts: [{ id: ACCOUNT, name: 'A' }], tokens: [{ name: 'ci', value: TOKEN }] },
    quiet: true,
  });
});
afterAll(() => server?.close());

const zoneFile = (zone: string, account: string, recordName: string, top = '') => `version: 1
${top}zones:
  - name: ${zone}
    account: ${account}
    dns:
      records:
        - { name: '@', type: A, content: 192.0.2.1 }
        - { name: ${recordName}, type: TXT, content: 'v=1' }
    logpush:
      jobs: []
`;

/** `line:col` (1-based) of the first occurrence of `needle` in `text`. */
function where(text: string, needle: string): string {
  const at = text.indexOf(needle);
  const before = text.slice(0, at).split('\n');
  return `${before.length}:${before[before.length - 1].length + 1}`;
}

const cases: { field: string; text: string; needle: string; hint?: RegExp }[] = [
  {
    field: 'zones[0].dns.records[1].name',
    text: zoneFile('ids.example', ACCOUNT, "'${env:SECRET_ID}'"),
    needle: "'${env:SECRET_ID}'",
  },
  {
    field: 'zones[0].dns.records[1].name',
    text: zoneFile('ids.example', ACCOUNT, "'${env:SECRET_ID}-www'"),
    needle: "'${env:SECRET_ID}-www'",
  },
  {
    field: 'zones[0].name',
    text: zoneFile('${env:SECRET_ID}.example', ACCOUNT, 'www'),
    needle: '${env:SECRET_ID}.example',
  },
  {
    field: 'zones[0].account',
    text: zoneFile('ids.example', '${env:SECRET_ID}', 'www'),
    needle: '${env:SECRET_ID}',
  },
  {
    field: 'zones[0].logpush.jobs[0].name',
    text: zoneFile('ids.example', ACCOUNT, 'www').replace(
      'jobs: []',
      "jobs: [{ name: '${env:SECRET_ID}', dataset: http_requests, destination_conf: 'https://c.example/i' }]",
    ),
    needle: "'${env:SECRET_ID}'",
  },
  {
    field: 'target.api_url',
    text: zoneFile('ids.example', ACCOUNT, 'www', "target: { api_url: '${env:SECRET_ID}' }\n"),
    needle: "'${env:SECRET_ID}'",
    hint: /set CLOUDFLARE_BASE_URL, or pass --api-url/,
  },
  {
    field: 'target.local.db',
    text: zoneFile('ids.example', ACCOUNT, 'www', "target: { local: { db: '${env:SECRET_ID}' } }\n"),
    needle: "'${env:SECRET_ID}'",
  },
];

describe('${env:} where a value becomes an identifier', () => {
  it.each(cases.map((c, i) => [`${c.field} (${i})`, c] as const))(
    'is refused at its place in %s, by validate, plan and apply',
    async (_name, c) => {
      const file = `ids-${cases.indexOf(c)}.yaml`;
      writeFileSync(join(dir, file), c.text);
      const env = { CLOUDFLARE_API_TOKEN: TOKEN, SECRET_ID: VALUE };
      const expected = `${file}:${where(c.text, c.needle)}: ${c.field}: \`\${env:SECRET_ID}\` cannot be used here: this value is an identifier, printed in every plan, journal and log, so it cannot be kept secret; write the value itself, or \`\${var:SECRET_ID}\` for a value that changes per environment`;
      for (const args of [['validate'], ['plan'], ['apply', '--auto-approve']]) {
        const apiUrl = c.field.startsWith('target.') ? [] : ['--api-url', server.url];
        const run = await spawnCli([...args, file, ...apiUrl], { cwd: dir, env, timeoutMs: 30_000 });
        expect(run.code, `${args[0]}: ${run.stderr}`).toBe(1);
        // validate reports on stdout, the other commands on stderr
        expect(run.stdout + run.stderr).toContain(expected);
        if (c.hint) expect(run.stdout + run.stderr).toMatch(c.hint);
        expect(findForms(run.stdout + run.stderr, { SECRET_ID: VALUE })).toEqual([]);
      }
      // nothing was created: no local database at the path from env, no zone on the API
      expect(existsSync(join(dir, VALUE))).toBe(false);
      expect(existsSync(join(dir, '.zoneplan', 'local.db'))).toBe(false);
      const zones = (await (
        await fetch(`${server.url}/zones`, { headers: { authorization: `Bearer ${TOKEN}` } })
      ).json()) as { result: unknown[] };
      expect(zones.result).toEqual([]);
    },
    60_000,
  );

  it('stays accepted in values, and `${var:}` in identifiers', async () => {
    writeFileSync(
      join(dir, 'values.yaml'),
      zoneFile('ids.example', ACCOUNT, "'${var:record}'").replace(
        "content: 'v=1'",
        "content: '${env:SECRET_ID}'",
      ),
    );
    const run = await spawnCli(['plan', 'values.yaml', '--var', 'record=www', '--api-url', server.url], {
      cwd: dir,
      env: { CLOUDFLARE_API_TOKEN: TOKEN, SECRET_ID: VALUE },
      timeoutMs: 30_000,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('(from env SECRET_ID)');
    expect(findForms(run.stdout + run.stderr, { SECRET_ID: VALUE })).toEqual([]);
  });
});
