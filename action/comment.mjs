#!/usr/bin/env node
// The action's comment step: posts the Markdown plan on the pull request, or updates the comment it
// posted before (found by a hidden marker), so each job carries one plan comment on the pull request
// that always shows its latest push. The marker names the job: the `comment-id` input, or else the
// job's id and a digest of the inputs that make it another plan (command, working directory, files,
// args), so a staging and a production job, or the legs of a shard matrix (one job id, other args),
// each keep their own comment. Plain node, no dependencies; it talks to GITHUB_API_URL, so a test
// runs it against a local stand-in for the GitHub API.
// Usage: node comment.mjs PLAN.md [ERRORS.txt]
// Environment: GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_EVENT_PATH, GITHUB_API_URL, GITHUB_JOB,
// ZONEPLAN_RAN, ZONEPLAN_EXIT_CODE (the run step's outputs), ZONEPLAN_COMMENT_ID,
// ZONEPLAN_WORKING_DIRECTORY, ZONEPLAN_FILES, ZONEPLAN_ARGS (the inputs).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';

const env = process.env;
const command = env.ZONEPLAN_RAN || 'plan';
/** What tells this job's plan from another job's on the same pull request. */
function commentId() {
  const given = (env.ZONEPLAN_COMMENT_ID ?? '').trim();
  // the marker is an HTML comment: nothing in it may end it
  if (given) return given.replace(/[^\w.:/@+=-]+/g, '-');
  const inputs = [
    command,
    env.ZONEPLAN_WORKING_DIRECTORY || '.',
    env.ZONEPLAN_FILES ?? '',
    env.ZONEPLAN_ARGS ?? '',
  ];
  const digest = createHash('sha256').update(JSON.stringify(inputs)).digest('hex').slice(0, 12);
  return `${(env.GITHUB_JOB || 'job').replace(/[^\w.-]+/g, '-')}-${digest}`;
}
const MARKER = `<!-- zoneplan-plan ${commentId()} -->`;
/**
 * The heading's name for the job, so reviewers tell the comments apart: the comment-id, or the job
 * and its files. Never the args: a `--var` there may carry a value a public comment must not show.
 */
function jobLabel() {
  const given = (env.ZONEPLAN_COMMENT_ID ?? '').trim();
  if (given) return given;
  const files = (env.ZONEPLAN_FILES ?? '').trim();
  return [env.GITHUB_JOB, files && `\`${files.replace(/`/g, "'")}\``].filter(Boolean).join(' ');
}
// GitHub refuses a comment body over 65,536 characters
const LIMIT = 65_536;

function fail(message) {
  process.stderr.write(`zoneplan comment: ${message}\n`);
  process.exit(1);
}

const [markdownFile, errorsFile] = process.argv.slice(2);
const api = (process.env.GITHUB_API_URL || 'https://api.github.com').replace(/\/$/, '');
const token = process.env.GITHUB_TOKEN;
const repo = process.env.GITHUB_REPOSITORY;
if (!token) fail('GITHUB_TOKEN is not set (the action passes inputs.github-token)');
if (!repo) fail('GITHUB_REPOSITORY is not set');
const event = process.env.GITHUB_EVENT_PATH
  ? JSON.parse(readFileSync(process.env.GITHUB_EVENT_PATH, 'utf8'))
  : {};
const number = event.pull_request?.number ?? event.issue?.number;
if (!number) fail('not a pull request event: nothing to comment on');

const code = process.env.ZONEPLAN_EXIT_CODE ?? '';
const read = (f) => (f && existsSync(f) ? readFileSync(f, 'utf8').trim() : '');
const plan = read(markdownFile);
const errors = read(errorsFile);

function body() {
  const label = jobLabel();
  const head = `${MARKER}\n### zoneplan ${command}${code === '1' ? ' failed' : ''}${label ? `: ${label}` : ''}\n\n`;
  const sha = event.pull_request?.head?.sha;
  const foot = sha ? `\n\n<sub>for ${sha.slice(0, 7)}</sub>` : '';
  let text = plan || (code === '1' ? '' : '_No output._');
  if (code === '1' && errors) text += `${text ? '\n\n' : ''}\`\`\`\n${errors}\n\`\`\``;
  const room = LIMIT - head.length - foot.length;
  if (text.length > room) {
    const note = '\n\n_The plan is longer than a comment can hold; the full plan is in the job summary._';
    text = text.slice(0, room - note.length) + note;
  }
  return head + text + foot;
}

async function github(method, path, payload) {
  const res = await fetch(api + path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': 'zoneplan-action',
      ...(payload ? { 'content-type': 'application/json' } : {}),
    },
    body: payload ? JSON.stringify(payload) : undefined,
  });
  if (!res.ok) fail(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return res.status === 204 ? null : res.json();
}

/** The comment this action posted before, if any: the first one carrying the marker. */
async function previous() {
  for (let page = 1; page <= 50; page++) {
    const comments = await github(
      'GET',
      `/repos/${repo}/issues/${number}/comments?per_page=100&page=${page}`,
    );
    // the marker line whole: one job's marker is never the start of another's
    const mine = comments.find((c) => typeof c.body === 'string' && c.body.split('\n', 1)[0] === MARKER);
    if (mine) return mine;
    if (comments.length < 100) return undefined;
  }
  return undefined;
}

const existing = await previous();
if (existing) {
  await github('PATCH', `/repos/${repo}/issues/comments/${existing.id}`, { body: body() });
  process.stdout.write(`updated the plan comment ${existing.html_url ?? existing.id}\n`);
} else {
  const created = await github('POST', `/repos/${repo}/issues/${number}/comments`, { body: body() });
  process.stdout.write(`posted the plan comment ${created.html_url ?? created.id}\n`);
}
