#!/usr/bin/env node
// The floor of a fleet plan on this machine: a fresh `node` that sends the very requests the plan
// sends (the zone list's pages, then per zone the DNS list and, with `ps`, the Page Shield
// settings), 8 in flight over undici's pool like the CLI, JSON-parses the answers, and does
// nothing else. Run as a child process beside the command, so both pay the same start-up and the
// same loaded machine.
// argv: URL TOKEN ACCOUNT dns|ps
import { Agent, request } from 'undici';

const [url, token, account, kinds] = process.argv.slice(2);
const CONCURRENCY = 8;
const agent = new Agent({ connections: CONCURRENCY });
const headers = { authorization: `Bearer ${token}` };
let requests = 0;
async function get(path) {
  requests++;
  const res = await request(url + path, { dispatcher: agent, headers });
  return res.body.json();
}

const ids = [];
for (let page = 1; ; page++) {
  const env = await get(`/zones?account.id=${account}&page=${page}&per_page=50`);
  for (const z of env.result) ids.push(z.id);
  if (page >= (env.result_info?.total_pages ?? page)) break;
}
const tasks = ids.flatMap((id) => [
  `/zones/${id}/dns_records?per_page=5000000&page=1`,
  ...(kinds === 'ps' ? [`/zones/${id}/page_shield`] : []),
]);
let next = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < tasks.length) await get(tasks[next++]);
  }),
);
process.stdout.write(`${requests}\n`);
process.exit(0);
