/**
 * Tampered saved plans, through the built CLI: a plan saved by `plan --out`, then edited (its
 * desired paths sent outside the checkout, at absolute paths, /proc and /dev, a FIFO, a symbolic
 * link; its digest, files and target changed; with and without a recomputed digest), is refused
 * by `apply` before anything it names is read or created: no `.zoneplan/` appears beside the path
 * it names, nothing of the file there is echoed, no request changes the target, and every run ends
 * within seconds. The intact plan still applies (the control).
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { canonicalJson } from '../../src/core/canonical.js';
import { requireBuild, spawnCli, type CliRun } from '../support/processes.js';
import { tempDir } from '../cli-reconcile/helpers.js';

const ACCOUNT = '7a3e7a3e7a3e7a3e7a3e7a3e7a3e7a3e';
const TOKEN = 'tamper-token-0123456789abcdef';
const ZONE = 'tamper.example';
/** what the outside file holds; none of it may appear in any output */
const SECRET = 'wJalrXUtnFEMI-SECRET-K7MDENG';
const ENV_TEXT = `AWS_SECRET_ACCESS_KEY=${SECRET}\n`;
/** in the CLI's environment: /proc/self/environ would echo it */
const ENVIRON_MARK = 'environ-SECRET-5f2a';

let root: string;
let repo: string;
let other: string;
let server: RunningServer;
let plan: PlanJson;

/** The fields of a saved plan that the cases edit (all optional: a case may delete one). */
interface PlanJson {
  digest?: string;
  target?: string;
  desired: { file?: string; sha256?: string; paths?: string[]; files?: { file: string; sha256: string }[] };
  steps: { after?: unknown }[];
}

const desired = `version: 1
zones:
  - name: ${ZONE}
    account: ${ACCOUNT}
    dns:
      records:
        - { name: "@", type: A, content: 192.0.2.7 }
`;

function run(args: string[]): Promise<CliRun> {
  return spawnCli([...args, '--api-url', server.url], {
    cwd: repo,
    env: { CLOUDFLARE_API_TOKEN: TOKEN, MARK: ENVIRON_MARK },
    timeoutMs: 15_000,
  });
}

/** The plan with `edit` applied, written as `name`; `redigest` recomputes the digest as plan would. */
function tampered(name: string, edit: (p: PlanJson) => void, redigest = true): string {
  const p = structuredClone(plan);
  edit(p);
  if (redigest) {
    const { digest: _, ...rest } = p;
    p.digest = 'sha256:' + createHash('sha256').update(canonicalJson(rest)).digest('hex');
  }
  writeFileSync(join(repo, name), JSON.stringify(p, null, 2));
  return name;
}

/** Every path of `desired` sent to `to` (a file's hash kept: the tamperer does not know it). */
const allPathsTo = (to: string) => (p: PlanJson) => {
  p.desired.paths = [to];
  p.desired.file = to;
  p.desired.files = [{ file: to, sha256: p.desired.files![0].sha256 }];
};

async function zoneExists(): Promise<boolean> {
  const res = await fetch(`${server.url}/zones?name=${ZONE}`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  return ((await res.json()) as { result: unknown[] }).result.length > 0;
}

/** The refusal: exit 1 in time, the reason given, nothing echoed, nothing created, nothing applied. */
async function expectRefused(name: string, reason: RegExp, passesTheChecks = false): Promise<void> {
  const r = await run(['apply', name, '--auto-approve']);
  const output = r.stdout + r.stderr;
  expect(r.timedOut, `${name} did not end`).toBe(false);
  expect(r.code, output).toBe(1);
  expect(r.stderr).toMatch(reason);
  for (const leak of [SECRET, 'AWS_SECRET_ACCESS_KEY', ENVIRON_MARK, 'root:x:0'])
    expect(output, `${name} echoed ${leak}`).not.toContain(leak);
  // the lock's directory is made after the checks: not beside the named path, not in the checkout
  // (a plan that passes every check of its own is refused later: its lock is in the checkout)
  for (const dir of passesTheChecks ? [other, root] : [other, repo, root])
    expect(existsSync(join(dir, '.zoneplan')), dir).toBe(false);
  rmSync(join(repo, '.zoneplan'), { recursive: true, force: true });
  expect(r.ms).toBeLessThan(10_000);
  expect(await zoneExists()).toBe(false);
}

beforeAll(async () => {
  requireBuild();
  root = tempDir();
  repo = join(root, 'repo');
  other = join(root, 'other');
  mkdirSync(repo);
  mkdirSync(other);
  writeFileSync(join(other, '.env'), ENV_TEXT);
  writeFileSync(join(repo, 'secrets.env'), ENV_TEXT);
  writeFileSync(join(repo, 'zones.yaml'), desired);
  server = await startServer({
    db: join(root, 'api.db'),
    quiet: true,
    fixtures: {
      accounts: [{ id: ACCOUNT, name: 'Tamper' }],
      tokens: [{ name: 'ci', value: TOKEN, zones: 'all', accounts: 'all', permissions: 'edit' }],
    },
  });
  const planned = await run(['plan', 'zones.yaml', '--out', 'plan.json']);
  expect(planned.code, planned.stderr).toBe(0);
  plan = JSON.parse(readFileSync(join(repo, 'plan.json'), 'utf8'));
  expect(plan.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
});
afterAll(() => server?.close());

describe('apply of a tampered saved plan', () => {
  it('a path edited to a file outside the checkout: refused by the digest, and by the path once re-digested', async () => {
    const edit = (p: PlanJson) => (p.desired.paths![0] = '../other/.env');
    await expectRefused(tampered('outside-stale.json', edit, false), /does not match its digest/);
    await expectRefused(tampered('outside.json', edit), /paths\[0\] "\.\.\/other\/\.env" is outside/);
    await expectRefused(tampered('outside-all.json', allPathsTo('../other/.env')), /is outside/);
  });

  it('absolute paths: the outside file, /etc/passwd, /proc/self/environ, /dev/zero', async () => {
    for (const [i, to] of [join(other, '.env'), '/etc/passwd', '/proc/self/environ', '/dev/zero'].entries())
      await expectRefused(tampered(`absolute-${i}.json`, allPathsTo(to)), /is an absolute path/);
    expect(existsSync('/etc/.zoneplan')).toBe(false);
  });

  it('/proc and /dev reached by climbing out of the checkout', async () => {
    const up = '../'.repeat(root.split('/').length + 2);
    await expectRefused(tampered('proc.json', allPathsTo(`${up}proc/self/environ`)), /is outside/);
    await expectRefused(tampered('dev.json', allPathsTo(`${up}dev/zero`)), /is outside/);
  });

  it('a FIFO in the checkout: refused as not a regular file, without waiting for a writer', async () => {
    execFileSync('mkfifo', [join(repo, 'pipe.yaml')]);
    await expectRefused(tampered('fifo.json', allPathsTo('pipe.yaml')), /is not a regular file/);
  });

  it('a symbolic link in the checkout to a file outside it', async () => {
    symlinkSync(join(other, '.env'), join(repo, 'link.yaml'));
    await expectRefused(tampered('symlink.json', allPathsTo('link.yaml')), /through a symbolic link/);
  });

  it('a file of the checkout that is not the one planned: refused by its hash, before it is parsed', async () => {
    await expectRefused(
      tampered('other-file.json', allPathsTo('secrets.env')),
      /secrets\.env changed since it was made/,
    );
    // with the hash of that file (a tamperer who can read it): parsed, and still nothing quoted
    const hash = createHash('sha256').update(ENV_TEXT).digest('hex');
    await expectRefused(
      tampered('other-file-hashed.json', (p) => {
        allPathsTo('secrets.env')(p);
        p.desired.sha256 = p.desired.files![0].sha256 = hash;
      }),
      /expected a map of keys, got text \(not shown/,
      true,
    );
  });

  it('the digest removed or changed, a file hash or a field edited', async () => {
    await expectRefused(
      tampered('no-digest.json', (p) => delete p.digest, false),
      /has no digest/,
    );
    await expectRefused(
      tampered(
        'bad-digest.json',
        (p) => (p.digest = p.digest!.replace(/.$/, (c: string) => (c === '0' ? '1' : '0'))),
        false,
      ),
      /does not match its digest/,
    );
    await expectRefused(
      tampered('file-hash.json', (p) => (p.desired.files![0].sha256 = '0'.repeat(64))),
      /zones\.yaml changed since it was made/,
    );
    await expectRefused(
      tampered('no-files.json', (p) => delete p.desired.files),
      /`desired` is not the list of paths and files/,
    );
    await expectRefused(
      tampered('step.json', (p) => (p.steps[0].after = { name: 'evil.example' }), false),
      /does not match its digest/,
    );
  });

  it('the target changed: refused by the digest, and as another target once re-digested', async () => {
    const edit = (p: PlanJson) => (p.target = 'http://127.0.0.1:9/client/v4');
    await expectRefused(tampered('target-stale.json', edit, false), /does not match its digest/);
    await expectRefused(
      tampered('target.json', edit),
      /the saved plan was made against http:\/\/127\.0\.0\.1:9/,
      true,
    );
  });

  it('the intact plan applies (the control)', async () => {
    const r = await run(['apply', 'plan.json', '--auto-approve']);
    expect(r.code, r.stderr).toBe(0);
    expect(await zoneExists()).toBe(true);
  });
});
