// The GitHub Action (action.yml) run the way a runner runs it: its scripts as child processes with
// the runner's environment variables, zoneplan against the real local API, and the comment step
// against a local stand-in for the GitHub API (GITHUB_API_URL) that records every request.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, startBed, zoneRecords, type Bed } from '../cli-reconcile/helpers.js';

const BIN = join(ROOT, 'bin', 'zoneplan.js');
const GITHUB_TOKEN = 'ghs_testtoken0123456789abcdefABCDEF';

interface Comment {
  id: number;
  body: string;
}
/** A stand-in for the GitHub REST API's issue comments: list, create, update. */
function fakeGitHub() {
  const comments: Comment[] = [];
  const requests: { method: string; url: string; auth?: string }[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      requests.push({ method: req.method!, url: req.url!, auth: req.headers.authorization });
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${GITHUB_TOKEN}`)
        return json(401, { message: 'Bad credentials' });
      const list = /^\/repos\/acme\/dns\/issues\/7\/comments\?/.exec(req.url!);
      const one = /^\/repos\/acme\/dns\/issues\/comments\/(\d+)$/.exec(req.url!);
      if (req.method === 'GET' && list) return json(200, comments);
      if (req.method === 'POST' && req.url === '/repos/acme/dns/issues/7/comments') {
        const c = { id: 1000 + comments.length, body: JSON.parse(raw).body as string };
        comments.push(c);
        return json(201, c);
      }
      if (req.method === 'PATCH' && one) {
        const c = comments.find((x) => x.id === Number(one[1]));
        if (!c) return json(404, { message: 'Not Found' });
        c.body = JSON.parse(raw).body;
        return json(200, c);
      }
      json(404, { message: 'Not Found' });
    });
  });
  return { server, comments, requests };
}

let bed: Bed;
const github = fakeGitHub();
let githubUrl: string;

beforeAll(async () => {
  bed = await startBed();
  copyFileSync(join(ROOT, 'examples', 'quickstart.yaml'), join(bed.dir, 'zones.yaml'));
  writeFileSync(
    join(bed.dir, 'event.json'),
    JSON.stringify({
      pull_request: { number: 7, head: { sha: 'abcdef0123456789' } },
      repository: { default_branch: 'main' },
    }),
  );
  await new Promise<void>((r) => github.server.listen(0, '127.0.0.1', r));
  const address = github.server.address() as { port: number };
  githubUrl = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await bed?.close();
  await new Promise((r) => github.server.close(r));
});

function sh(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(
      script.endsWith('.mjs') ? process.execPath : 'bash',
      [join(ROOT, 'action', script), ...args],
      {
        cwd: bed.dir,
        env: {
          PATH: process.env.PATH ?? '',
          NO_COLOR: '1',
          RUNNER_TEMP: bed.dir,
          GITHUB_REPOSITORY: 'acme/dns',
          GITHUB_EVENT_PATH: join(bed.dir, 'event.json'),
          GITHUB_API_URL: githubUrl,
          ...env,
        },
      },
      (err, stdout, stderr) => done({ code: err ? Number(err.code) : 0, stdout, stderr }),
    );
  });
}

/** The run step, as action.yml wires it; returns its exit code and the outputs it wrote. */
async function runStep(event: Record<string, string>, files = 'zones.yaml') {
  const output = join(bed.dir, `output-${Math.random().toString(36).slice(2)}`);
  writeFileSync(output, '');
  const r = await sh('run.sh', [], {
    ZONEPLAN_BIN: `${process.execPath} ${BIN}`,
    ZONEPLAN_FILES: files,
    ZONEPLAN_DEFAULT_BRANCH: 'main',
    CLOUDFLARE_API_TOKEN: bed.token,
    CLOUDFLARE_BASE_URL: bed.server.url,
    GITHUB_OUTPUT: output,
    ...event,
  });
  const outputs = Object.fromEntries(
    readFileSync(output, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  return { ...r, outputs };
}

describe('the GitHub Action', () => {
  it('action.yml wires only scripts that exist, inputs it declares and outputs the run step writes', () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8'));
    expect(action.runs.using).toBe('composite');
    const text = readFileSync(join(ROOT, 'action.yml'), 'utf8');
    for (const [, script] of text.matchAll(/\$GITHUB_ACTION_PATH\/(action\/[\w.-]+)/g))
      expect(existsSync(join(ROOT, script)), script).toBe(true);
    for (const [, input] of text.matchAll(/inputs\.([\w-]+)/g))
      expect(Object.keys(action.inputs)).toContain(input);
    const runScript = readFileSync(join(ROOT, 'action', 'run.sh'), 'utf8');
    for (const [, out] of text.matchAll(/steps\.run\.outputs\.([\w-]+)/g))
      expect(runScript).toContain(`echo "${out}=`);
  });

  it('on a pull request: plans, and posts one comment that later pushes update', async () => {
    const plan = await runStep({ GITHUB_EVENT_NAME: 'pull_request' });
    expect(plan.code).toBe(0);
    expect(plan.outputs).toMatchObject({ command: 'plan', 'exit-code': '2', changes: 'true' });
    const markdown = readFileSync(plan.outputs.markdown, 'utf8');
    expect(markdown).toMatch(/quickstart\.example/);

    const env = { GITHUB_TOKEN, ZONEPLAN_RAN: 'plan', ZONEPLAN_EXIT_CODE: '2' };
    const first = await sh('comment.mjs', [plan.outputs.markdown, plan.outputs.errors], env);
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(/posted the plan comment/);
    const second = await sh('comment.mjs', [plan.outputs.markdown, plan.outputs.errors], env);
    expect(second.stdout).toMatch(/updated the plan comment 1000/);
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0].body).toContain('<!-- zoneplan-plan -->');
    expect(github.comments[0].body).toContain(markdown.trim().split('\n')[0]);
    expect(github.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'GET', 'PATCH']);
    // the token goes in the header only, never into output
    expect(first.stdout + second.stdout + first.stderr + second.stderr).not.toContain(GITHUB_TOKEN);
  });

  it('a failed plan still comments, with the error, and the verdict fails the job', async () => {
    writeFileSync(
      join(bed.dir, 'broken.yaml'),
      'version: 1\nzones:\n  - name: broken.example\n    dns: { records: [ { type: A } ] }\n',
    );
    const plan = await runStep({ GITHUB_EVENT_NAME: 'pull_request' }, 'broken.yaml');
    expect(plan.outputs['exit-code']).toBe('1');
    const r = await sh('comment.mjs', [plan.outputs.markdown, plan.outputs.errors], {
      GITHUB_TOKEN,
      ZONEPLAN_RAN: 'plan',
      ZONEPLAN_EXIT_CODE: '1',
    });
    expect(r.code).toBe(0);
    expect(github.comments[0].body).toMatch(/zoneplan plan failed/);
    expect(github.comments[0].body).toMatch(/broken\.yaml:4/);
    const verdict = await sh('verdict.sh', [], { ZONEPLAN_RAN: 'plan', ZONEPLAN_EXIT_CODE: '1' });
    expect(verdict.code).toBe(1);
  });

  it('on a push to the default branch: applies; then a scheduled run finds no drift', async () => {
    const apply = await runStep({ GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main' });
    expect(apply.outputs).toMatchObject({ command: 'apply', 'exit-code': '0' });
    expect((await zoneRecords(bed, 'quickstart.example')).length).toBeGreaterThanOrEqual(13);
    const drift = await runStep({ GITHUB_EVENT_NAME: 'schedule' });
    expect(drift.outputs).toMatchObject({ command: 'drift', 'exit-code': '0', changes: 'false' });
    // a push to another branch only plans
    const other = await runStep({ GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/feature' });
    expect(other.outputs).toMatchObject({ command: 'plan', 'exit-code': '0' });
  });

  it('the verdict: a plan with changes passes, drift and errors fail', async () => {
    const verdict = (ran: string, code: string) =>
      sh('verdict.sh', [], { ZONEPLAN_RAN: ran, ZONEPLAN_EXIT_CODE: code });
    expect((await verdict('plan', '2')).code).toBe(0);
    expect((await verdict('plan', '0')).code).toBe(0);
    expect((await verdict('drift', '2')).code).toBe(2);
    expect((await verdict('apply', '1')).code).toBe(1);
    expect((await verdict('apply', '130')).code).toBe(130);
  });

  it('the comment step refuses to run outside a pull request or without a token', async () => {
    writeFileSync(join(bed.dir, 'push.json'), JSON.stringify({ ref: 'refs/heads/main' }));
    const noPr = await sh('comment.mjs', ['x.md'], {
      GITHUB_TOKEN,
      GITHUB_EVENT_PATH: join(bed.dir, 'push.json'),
    });
    expect(noPr.code).toBe(1);
    expect(noPr.stderr).toMatch(/not a pull request event/);
    const noToken = await sh('comment.mjs', ['x.md'], {});
    expect(noToken.stderr).toMatch(/GITHUB_TOKEN is not set/);
  });
});
