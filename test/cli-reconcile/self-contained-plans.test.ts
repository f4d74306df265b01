/**
 * Saved plans that carry what made them (docs/plan-and-apply.md, "Saved plans"): the two-job
 * recipe step by step against the local API, in a checkout (a directory holding `.git`). The plan
 * is made with --var-file, --api-url and --out; `apply plan.json` then takes no other flag, from
 * another directory of the checkout, after the plan was copied, and from another checkout of the
 * same commit; a variable given again with another value, or another target, is refused by name
 * before anything is written; the credential is never in the plan.
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/canonical.js';
import { ACCOUNT, cli, startBed, tempDir, zoneRecords, type Bed } from './helpers.js';

let bed: Bed | undefined;
let other: Server | undefined;
afterEach(async () => {
  await bed?.close();
  await new Promise((done) => (other ? other.close(done) : done(undefined)));
  bed = other = undefined;
});

/** A checkout: `.git`, zones/zones.yaml declaring its variables, and two var files. */
function checkout(zone: string, apiUrl: string): string {
  const repo = join(tempDir(), 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(join(repo, 'zones'));
  mkdirSync(join(repo, 'vars'));
  writeFileSync(
    join(repo, 'zones', 'zones.yaml'),
    [
      'version: 1',
      'variables:',
      '  apex_origin:',
      '    type: string',
      '    description: where the apex points',
      '  ttl:',
      '    type: number',
      '    default: 300',
      'zones:',
      `  - name: ${zone}`,
      `    account: ${ACCOUNT}`,
      '    dns:',
      '      records:',
      '        - { name: "@", type: A, content: "${var:apex_origin}", ttl: "${var:ttl}" }',
      '',
    ].join('\n'),
  );
  writeFileSync(join(repo, 'vars', 'staging.yaml'), 'apex_origin: 192.0.2.10\n');
  writeFileSync(
    join(repo, 'vars', 'production.yaml'),
    `target:\n  api_url: ${apiUrl}\napex_origin: 192.0.2.20\nttl: 600\n`,
  );
  return repo;
}

/** Another API that counts what reaches it and refuses it. */
async function countingServer(): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  other = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: false, errors: [{ code: 10000, message: 'Authentication error' }] }));
  });
  await new Promise<void>((done) => other!.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(other.address() as AddressInfo).port}/client/v4`, requests };
}

/** The requests that reached the bed's API other than reads. */
const writes = (b: Bed) =>
  b.contract.exchanges.filter((x) => x.method !== 'GET').map((x) => x.method + ' ' + x.url);

/** `plan zones --var-file vars/production.yaml --api-url URL --out plan.json` in the checkout. */
async function planProduction(b: Bed, repo: string) {
  const planned = await cli(
    [
      'plan',
      'zones',
      '--var-file',
      'vars/production.yaml',
      '--api-url',
      b.contract.url,
      '--out',
      'plan.json',
    ],
    { cwd: repo, env: { CLOUDFLARE_API_TOKEN: b.token } },
  );
  expect(planned.code, planned.stderr).toBe(0);
  expect(planned.stderr).toContain('apply it with `zoneplan apply plan.json`');
  return readFileSync(join(repo, 'plan.json'), 'utf8');
}

describe('a saved plan carries what made it', () => {
  it('the two-job recipe: apply the copied artifact from another directory with no flag; other values or targets refused', async () => {
    const b = (bed = await startBed());
    const zone = 'recipe.example';
    const repo = checkout(zone, b.contract.url);
    const text = await planProduction(b, repo);
    const saved = JSON.parse(text);
    expect(saved.variables).toEqual({ apex_origin: '192.0.2.20', ttl: 600 });
    expect(saved.target).toBe(b.contract.url);
    expect(saved.credential).toBe('token');
    expect(saved.desired).toMatchObject({
      relative_to: 'repository',
      paths: ['zones'],
      files: [{ file: 'zones/zones.yaml' }],
    });
    expect(text).not.toContain(b.token);
    const env = { CLOUDFLARE_API_TOKEN: b.token };

    // another value of a variable: refused by name, nothing written
    const otherValue = await cli(
      ['apply', 'plan.json', '--auto-approve', '--var', 'apex_origin=192.0.2.99'],
      {
        cwd: repo,
        env,
      },
    );
    expect(otherValue.code).toBe(1);
    expect(otherValue.stderr).toContain(
      '--var apex_origin=...: variable apex_origin is "192.0.2.99" here, but the plan was made with "192.0.2.20"',
    );
    // the staging var file against the production plan: its line, the variable
    const staging = await cli(['apply', 'plan.json', '--auto-approve', '--var-file', 'vars/staging.yaml'], {
      cwd: repo,
      env,
    });
    expect(staging.code).toBe(1);
    expect(staging.stderr).toContain('vars/staging.yaml:1:1: variable apex_origin is "192.0.2.10" here');
    // the same values again are the plan's own: not refused for that (checked by the apply below)
    // another target: refused before any request reaches it
    const elsewhere = await countingServer();
    const otherTarget = await cli(['apply', 'plan.json', '--auto-approve', '--api-url', elsewhere.url], {
      cwd: repo,
      env,
    });
    expect(otherTarget.code).toBe(1);
    expect(otherTarget.stderr).toContain(`the saved plan was made against ${b.contract.url}`);
    expect(elsewhere.requests).toEqual([]);
    // another sort of credential: its permissions are another's
    const byKey = await cli(['apply', 'plan.json', '--auto-approve'], {
      cwd: repo,
      env: { CLOUDFLARE_EMAIL: 'ops@example.com', CLOUDFLARE_API_KEY: 'k'.repeat(37) },
    });
    expect(byKey.code).toBe(1);
    expect(byKey.stderr).toContain(
      'the saved plan was made with an API token, but this run has an e-mail and key',
    );
    expect(writes(b)).toEqual([]);
    expect(await zoneRecords(b, zone)).toEqual([]);

    // the artifact downloaded into another folder, applied from another directory of the checkout
    mkdirSync(join(repo, 'ci', 'artifact'), { recursive: true });
    cpSync(join(repo, 'plan.json'), join(repo, 'ci', 'artifact', 'plan.json'));
    const applied = await cli(['apply', '../ci/artifact/plan.json', '--auto-approve'], {
      cwd: join(repo, 'zones'),
      env,
    });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toContain(`target: ${b.contract.url} (from the saved plan)`);
    const [a] = await zoneRecords(b, zone);
    expect(a).toMatchObject({ type: 'A', content: '192.0.2.20', ttl: 600 });
    expect(writes(b).some((w) => w.startsWith('POST /zones/') && w.includes('/dns_records'))).toBe(true);
  });

  it('another checkout of the same commit applies the plan kept outside it; a changed file there is refused', async () => {
    const b = (bed = await startBed());
    const zone = 'checkout.example';
    const repo = checkout(zone, b.contract.url);
    await planProduction(b, repo);
    const artifacts = tempDir();
    cpSync(join(repo, 'plan.json'), join(artifacts, 'plan.json'));
    const second = join(tempDir(), 'second');
    cpSync(repo, second, { recursive: true });
    rmSync(join(second, 'plan.json'));
    const env = { CLOUDFLARE_API_TOKEN: b.token };

    writeFileSync(
      join(second, 'zones', 'zones.yaml'),
      readFileSync(join(repo, 'zones', 'zones.yaml'), 'utf8') + '\n',
    );
    const changed = await cli(['apply', join(artifacts, 'plan.json'), '--auto-approve'], {
      cwd: second,
      env,
    });
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain('zones/zones.yaml changed since it was made');

    cpSync(join(repo, 'zones', 'zones.yaml'), join(second, 'zones', 'zones.yaml'));
    // the plan's own var file given again says the same: accepted
    const applied = await cli(
      ['apply', join(artifacts, 'plan.json'), '--auto-approve', '--var-file', 'vars/production.yaml'],
      { cwd: second, env },
    );
    expect(applied.code, applied.stderr).toBe(0);
    expect((await zoneRecords(b, zone))[0]).toMatchObject({ content: '192.0.2.20', ttl: 600 });
  });

  it('plan --out refuses a path outside the repository root before reading the target', async () => {
    const b = (bed = await startBed());
    const repo = checkout('outside.example', b.contract.url);
    const outside = join(tempDir(), 'zones.yaml');
    cpSync(join(repo, 'zones', 'zones.yaml'), outside);
    const r = await cli(
      ['plan', outside, '--var', 'apex_origin=192.0.2.1', '--api-url', b.contract.url, '--out', 'plan.json'],
      { cwd: repo, env: { CLOUDFLARE_API_TOKEN: b.token } },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`--out: ${outside} is outside the repository root ${repo}`);
    expect(b.contract.exchanges).toEqual([]);
  });

  it('a plan that records no base (made before plans did) names its files relative to itself', async () => {
    const b = (bed = await startBed());
    const zone = 'older.example';
    const repo = checkout(zone, b.contract.url);
    const saved = JSON.parse(await planProduction(b, repo));
    // as an older zoneplan wrote it: the paths relative to the plan file, which sits in zones/
    delete saved.desired.relative_to;
    saved.desired.paths = ['.'];
    saved.desired.file = saved.desired.files[0].file = 'zones.yaml';
    const { digest: _, ...rest } = saved;
    saved.digest = 'sha256:' + createHash('sha256').update(canonicalJson(rest)).digest('hex');
    writeFileSync(join(repo, 'zones', 'older.json'), JSON.stringify(saved, null, 2));
    const applied = await cli(['apply', 'zones/older.json', '--auto-approve'], {
      cwd: repo,
      env: { CLOUDFLARE_API_TOKEN: b.token },
    });
    expect(applied.code, applied.stderr).toBe(0);
    expect((await zoneRecords(b, zone))[0]).toMatchObject({ content: '192.0.2.20', ttl: 600 });
  });
});
