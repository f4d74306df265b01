// The GitHub Action (action.yml) run the way a runner runs it: its scripts as child processes with
// the runner's environment variables, zoneplan against the real local API, and the comment step
// against a local stand-in for the GitHub API (GITHUB_API_URL) that records every request.
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, startBed, zoneRecords, type Bed } from '../cli-reconcile/helpers.js';
import {
  GITHUB_TOKEN,
  fakeGitHub,
  runScript,
  runStep as runStepOn,
  writePullRequestEvent,
} from './runner.js';

let bed: Bed;
const github = fakeGitHub();

beforeAll(async () => {
  bed = await startBed();
  copyFileSync(join(ROOT, 'examples', 'quickstart.yaml'), join(bed.dir, 'zones.yaml'));
  writePullRequestEvent(bed.dir);
  await github.start();
});
afterAll(async () => {
  await bed?.close();
  await github.close();
});

const sh = (script: string, args: string[], env: Record<string, string>) =>
  runScript(bed.dir, github, script, args, env);
const runStep = (event: Record<string, string>, files = 'zones.yaml') =>
  runStepOn(bed, github, { ZONEPLAN_FILES: files, ...event });

describe('the GitHub Action', () => {
  it('action.yml wires only scripts that exist, inputs it declares and outputs the run step writes', () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8'));
    expect(action.runs.using).toBe('composite');
    const text = readFileSync(join(ROOT, 'action.yml'), 'utf8');
    for (const [, script] of text.matchAll(/\$GITHUB_ACTION_PATH\/(action\/[\w.-]+)/g))
      expect(existsSync(join(ROOT, script)), script).toBe(true);
    for (const [, input] of text.matchAll(/inputs\.([\w-]+)/g))
      expect(Object.keys(action.inputs)).toContain(input);
    const runSh = readFileSync(join(ROOT, 'action', 'run.sh'), 'utf8');
    for (const [, out] of text.matchAll(/steps\.run\.outputs\.([\w-]+)/g))
      expect(runSh).toContain(`echo "${out}=`);
    const installSh = readFileSync(join(ROOT, 'action', 'install.sh'), 'utf8');
    for (const [, out] of text.matchAll(/steps\.source\.outputs\.([\w-]+)/g))
      expect(installSh).toContain(`echo "${out}=`);
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
    expect(github.comments[0].body).toMatch(/^<!-- zoneplan-plan [\w.-]+ -->\n/);
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
    // 14 steps applied: the run changed something
    expect(apply.outputs).toMatchObject({ command: 'apply', 'exit-code': '0', changes: 'true' });
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
