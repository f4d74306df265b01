#!/usr/bin/env node
// The action's comment step: posts the Markdown plan on the pull request, or updates the comment it
// posted before (found by a hidden marker), so a pull request carries one plan comment that always
// shows its latest push. Plain node, no dependencies; it talks to GITHUB_API_URL, so a test runs it
// against a local stand-in for the GitHub API.
// Usage: node comment.mjs PLAN.md [ERRORS.txt]
// Environment: GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_EVENT_PATH, GITHUB_API_URL, ZONEPLAN_RAN,
// ZONEPLAN_EXIT_CODE (the run step's outputs).
import { existsSync, readFileSync } from 'node:fs';

const MARKER = '<!-- zoneplan-plan -->';
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

const command = process.env.ZONEPLAN_RAN || 'plan';
const code = process.env.ZONEPLAN_EXIT_CODE ?? '';
const read = (f) => (f && existsSync(f) ? readFileSync(f, 'utf8').trim() : '');
const plan = read(markdownFile);
const errors = read(errorsFile);

function body() {
  const head = `${MARKER}\n### zoneplan ${command}${code === '1' ? ' failed' : ''}\n\n`;
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
    const mine = comments.find((c) => typeof c.body === 'string' && c.body.startsWith(MARKER));
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
