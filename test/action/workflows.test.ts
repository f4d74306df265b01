// The action in the workflows people write (docs/ci.md): two plan jobs on one pull request
// (staging and production), a shard matrix, `args` with shell quoting, and the two-job recipe
// that applies the plan artifact the pull request's job saved. The scripts run as a runner runs
// them (./runner.ts), zoneplan against the real local API, the comments against a stand-in for GitHub.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBed, writeYaml, zoneFile, zoneRecords, type Bed } from '../cli-reconcile/helpers.js';
import { GITHUB_TOKEN, fakeGitHub, runScript, runStep, writePullRequestEvent } from './runner.js';

let bed: Bed;
const github = fakeGitHub();

beforeAll(async () => {
  bed = await startBed();
  writePullRequestEvent(bed.dir);
  await github.start();
  writeYaml(
    bed.dir,
    'staging.yaml',
    zoneFile('staging.acme.net', ['{ name: www, type: A, content: 192.0.2.1 }']),
  );
  writeYaml(bed.dir, 'production.yaml', zoneFile('acme.org', ['{ name: www, type: A, content: 192.0.2.2 }']));
  mkdirSync(join(bed.dir, 'fleet'));
  writeYaml(
    bed.dir,
    'fleet/zones.yaml',
    [
      'version: 1',
      'zones:',
      ...['a.acme.net', 'b.acme.net', 'c.acme.net', 'other.example'].map(
        (z) => `  - { name: ${z}, account: 0123456789abcdef0123456789abcdef, dns: { records: [] } }`,
      ),
    ].join('\n') + '\n',
  );
});
afterAll(async () => {
  await bed?.close();
  await github.close();
});

/** A job on the pull request: the run step, then the comment step with the same inputs. */
async function planJob(job: string, inputs: Record<string, string>) {
  const plan = await runStep(bed, github, { GITHUB_EVENT_NAME: 'pull_request', GITHUB_JOB: job, ...inputs });
  const comment = await runScript(
    bed.dir,
    github,
    'comment.mjs',
    [plan.outputs.markdown, plan.outputs.errors],
    {
      GITHUB_TOKEN,
      GITHUB_JOB: job,
      ZONEPLAN_RAN: plan.outputs.command,
      ZONEPLAN_EXIT_CODE: plan.outputs['exit-code'],
      ...inputs,
    },
  );
  expect(comment.stderr).toBe('');
  return { plan, comment };
}

const commentOf = (zone: string) => github.comments.filter((c) => c.body.includes(zone));

describe('the action in real workflows', () => {
  it('two plan jobs on one pull request keep one comment each, updated in place', async () => {
    const staging = { ZONEPLAN_FILES: 'staging.yaml' };
    const production = { ZONEPLAN_FILES: 'production.yaml' };
    await planJob('plan-staging', staging);
    await planJob('plan-production', production);
    // the next push: both jobs run again
    const again = await planJob('plan-staging', staging);
    await planJob('plan-production', production);
    expect(again.comment.stdout).toMatch(/updated the plan comment/);
    expect(github.comments).toHaveLength(2);
    expect(commentOf('staging.acme.net')).toHaveLength(1);
    expect(commentOf('acme.org')).toHaveLength(1);
    expect(commentOf('staging.acme.net')[0].body).toMatch(/### zoneplan plan: plan-staging `staging\.yaml`/);
    expect(github.requests.filter((r) => r.method !== 'GET').map((r) => r.method)).toEqual([
      'POST',
      'POST',
      'PATCH',
      'PATCH',
    ]);
  });

  it('the legs of a shard matrix (one job id, other args) keep one comment each', async () => {
    const before = github.comments.length;
    const shard = (i: number) => ({ ZONEPLAN_FILES: 'fleet/', ZONEPLAN_ARGS: `--shard ${i}/2` });
    for (const round of [1, 2])
      for (const i of [1, 2]) {
        const { plan, comment } = await planJob('plan', shard(i));
        expect(plan.outputs['exit-code'], plan.stderr).toBe('2');
        expect(comment.stdout).toMatch(round === 1 ? /posted/ : /updated/);
      }
    const legs = github.comments.slice(before);
    expect(legs).toHaveLength(2);
    // together the shards plan every zone once
    const zones = legs.flatMap((c) => [...c.body.matchAll(/#### zone ([\w.]+)/g)].map((m) => m[1])).sort();
    expect(zones).toEqual(['a.acme.net', 'b.acme.net', 'c.acme.net', 'other.example']);
    // a comment-id names the comment whatever the inputs
    const named = await planJob('plan', { ...shard(1), ZONEPLAN_COMMENT_ID: 'fleet shard 1' });
    expect(named.comment.stdout).toMatch(/posted/);
    expect(github.comments.at(-1)!.body).toMatch(
      /^<!-- zoneplan-plan fleet-shard-1 -->\n### zoneplan plan: fleet shard 1\n/,
    );
  });

  it('args are split as a shell splits them: a quoted pattern reaches zoneplan without its quotes', async () => {
    const plan = await runStep(bed, github, {
      GITHUB_EVENT_NAME: 'pull_request',
      ZONEPLAN_FILES: 'fleet/zones.yaml',
      ZONEPLAN_ARGS: `--zone '*.acme.net'`,
    });
    expect(plan.outputs['exit-code'], plan.stderr).toBe('2');
    const markdown = readFileSync(plan.outputs.markdown, 'utf8');
    expect(markdown).toContain('a.acme.net');
    expect(markdown).not.toContain('other.example');
    // nothing is expanded: a command substitution reaches zoneplan as text, and never runs
    const sneaky = await runStep(bed, github, {
      GITHUB_EVENT_NAME: 'pull_request',
      ZONEPLAN_FILES: 'fleet/zones.yaml',
      ZONEPLAN_ARGS: `--zone "$(touch pwned)" --zone '\`touch pwned\`'`,
    });
    expect(sneaky.outputs['exit-code']).toBe('1');
    expect(readFileSync(sneaky.outputs.errors, 'utf8')).toContain(
      'error: --zone $(touch pwned), --zone `touch pwned`: matches no zone',
    );
    expect(existsSync(join(bed.dir, 'pwned'))).toBe(false);
    // an unclosed quote fails the step with the input named, before zoneplan runs
    const bad = await runStep(bed, github, {
      GITHUB_EVENT_NAME: 'pull_request',
      ZONEPLAN_ARGS: `--zone '*.acme.net`,
    });
    expect(bad.outputs['exit-code']).toBe('1');
    expect(readFileSync(bad.outputs.errors, 'utf8')).toMatch(
      /input args: a single quote at character 8 is not closed/,
    );
  });

  it('the two-job recipe: the pull request saves its plan, the push applies that artifact, with a summary and changes=true', async () => {
    writeYaml(
      bed.dir,
      'recipe.yaml',
      zoneFile('recipe.example', [
        '{ name: www, type: A, content: 192.0.2.7 }',
        '{ name: api, type: A, content: 192.0.2.8 }',
      ]),
    );
    const planned = await runStep(bed, github, {
      GITHUB_EVENT_NAME: 'pull_request',
      ZONEPLAN_FILES: 'recipe.yaml',
      ZONEPLAN_PLAN_FILE: 'recipe-plan.json',
    });
    expect(planned.outputs).toMatchObject({ command: 'plan', 'exit-code': '2', changes: 'true' });
    expect(existsSync(join(bed.dir, 'recipe-plan.json'))).toBe(true);

    const summary = join(bed.dir, 'summary.md');
    writeFileSync(summary, '');
    const apply = () =>
      runStep(bed, github, {
        GITHUB_EVENT_NAME: 'push',
        GITHUB_REF: 'refs/heads/main',
        GITHUB_STEP_SUMMARY: summary,
        ZONEPLAN_FILES: 'recipe.yaml',
        ZONEPLAN_PLAN_FILE: 'recipe-plan.json',
      });
    const applied = await apply();
    expect(applied.outputs, applied.stderr).toMatchObject({
      command: 'apply',
      'exit-code': '0',
      changes: 'true',
    });
    expect(applied.stdout).toMatch(/zoneplan apply: applied 3 of 3 steps/);
    expect((await zoneRecords(bed, 'recipe.example')).map((r) => r.name).sort()).toEqual([
      'api.recipe.example',
      'www.recipe.example',
    ]);
    const written = readFileSync(summary, 'utf8');
    expect(written).toMatch(/^## zoneplan apply\n/);
    expect(written).toContain('#### Applied 3 of 3 steps');
    expect(written).toContain('recipe.example');

    // the same artifact again: the live state moved since it was made, so it is refused, nothing applied
    const stale = await apply();
    expect(stale.outputs).toMatchObject({ command: 'apply', 'exit-code': '1', changes: 'false' });
    expect(readFileSync(stale.outputs.errors, 'utf8')).toMatch(/stale/);
    // the files themselves: nothing left to apply
    const again = await runStep(bed, github, {
      GITHUB_EVENT_NAME: 'push',
      GITHUB_REF: 'refs/heads/main',
      ZONEPLAN_FILES: 'recipe.yaml',
    });
    expect(again.outputs).toMatchObject({ command: 'apply', 'exit-code': '0', changes: 'false' });
  });
});
