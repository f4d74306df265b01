// The GitHub Action's scripts run the way a runner runs them: as child processes with the runner's
// environment variables, zoneplan against the real local API (test/cli-reconcile's bed), and the
// comment step against a local stand-in for the GitHub API (GITHUB_API_URL) that records every
// request. Shared by the action's test files.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { ROOT, type Bed } from '../cli-reconcile/helpers.js';

export const BIN = join(ROOT, 'bin', 'zoneplan.js');
export const GITHUB_TOKEN = 'ghs_testtoken0123456789abcdefABCDEF';

export interface Comment {
  id: number;
  body: string;
}

/** A stand-in for the GitHub REST API's comments on pull request 7 of acme/dns: list, create, update. */
export function fakeGitHub() {
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
  return {
    server,
    comments,
    requests,
    url: '',
    async start() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      this.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    },
    close: () => new Promise((r) => server.close(r)),
  };
}
export type FakeGitHub = ReturnType<typeof fakeGitHub>;

/** The pull request event the runner writes to GITHUB_EVENT_PATH. */
export function writePullRequestEvent(dir: string): void {
  writeFileSync(
    join(dir, 'event.json'),
    JSON.stringify({
      pull_request: { number: 7, head: { sha: 'abcdef0123456789' } },
      repository: { default_branch: 'main' },
    }),
  );
}

export interface ScriptResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** One of action/'s scripts, in `dir`, with the variables a runner sets and `env`. */
export function runScript(
  dir: string,
  github: FakeGitHub,
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<ScriptResult> {
  return new Promise((done) => {
    execFile(
      script.endsWith('.mjs') ? process.execPath : 'bash',
      [join(ROOT, 'action', script), ...args],
      {
        cwd: dir,
        env: {
          PATH: process.env.PATH ?? '',
          NO_COLOR: '1',
          RUNNER_TEMP: dir,
          GITHUB_REPOSITORY: 'acme/dns',
          GITHUB_EVENT_PATH: join(dir, 'event.json'),
          GITHUB_API_URL: github.url,
          ...env,
        },
      },
      (err, stdout, stderr) => done({ code: err ? Number(err.code) : 0, stdout, stderr }),
    );
  });
}

/** What a step wrote to GITHUB_OUTPUT, as name → value. */
export function readOutputs(file: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

/**
 * The run step, as action.yml wires it, against the bed; `env` holds the event's variables and the
 * inputs (ZONEPLAN_FILES, ZONEPLAN_ARGS, ...). Returns its exit code and the outputs it wrote.
 */
export async function runStep(bed: Bed, github: FakeGitHub, env: Record<string, string>) {
  const output = join(bed.dir, `output-${Math.random().toString(36).slice(2)}`);
  writeFileSync(output, '');
  const r = await runScript(bed.dir, github, 'run.sh', [], {
    ZONEPLAN_BIN: `${process.execPath} ${BIN}`,
    ZONEPLAN_FILES: 'zones.yaml',
    ZONEPLAN_DEFAULT_BRANCH: 'main',
    CLOUDFLARE_API_TOKEN: bed.token,
    CLOUDFLARE_BASE_URL: bed.server.url,
    GITHUB_OUTPUT: output,
    ...env,
  });
  return { ...r, outputs: readOutputs(output) };
}
