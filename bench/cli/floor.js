#!/usr/bin/env node
// The floor of a `zoneplan plan`: a fresh `node` that looks each zone up and fetches and parses the
// same DNS pages the plan reads, and nothing else. Run as a child process, exactly like the
// command it stands beside, so both pay the same start-up.
// argv: URL TOKEN fetch|http ZONE... [--read FILE]
// With --read, it also reads and parses FILE with zoneplan's own YAML reader (the fast path of
// dist/config/, as a plan of a block-style file parses it) while its first DNS list is on its way,
// and counts the live records the file names: the least a plan of that file can do, with no checks,
// no normalising and no planning (docs/benchmarks.md, "Where the 10,000-record plan's time goes").
import http from 'node:http';

const args = process.argv.slice(2);
const readAt = args.indexOf('--read');
const file = readAt >= 0 ? args.splice(readAt, 2)[1] : undefined;
const [url, token, how, ...zones] = args;
const headers = { authorization: `Bearer ${token}` };

async function getJson(path) {
  if (how === 'http') {
    return new Promise((resolve, reject) => {
      http
        .get(url + path, { headers }, (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
        })
        .on('error', reject);
    });
  }
  // Node's own fetch: a bare fetch with nothing loaded beyond what `node` brings
  const res = await fetch(url + path, { headers });
  return res.json();
}

/** The names and types of the file's records, read as zoneplan reads a block-style file. */
async function namesInFile() {
  const { readFileSync } = await import('node:fs');
  const { decodeUtf8 } = await import('../../dist/config/utf8-text.js');
  const { parseBlockYamlFast } = await import('../../dist/config/yaml-fast-path.js');
  const doc = parseBlockYamlFast(decodeUtf8(readFileSync(file)), 64);
  const names = new Set();
  for (const zone of doc.zones)
    for (const r of zone.dns.records)
      names.add(`${r.name === '@' ? zone.name : `${r.name}.${zone.name}`}|${r.type}`);
  return names;
}

let records = 0;
let named = 0;
for (const name of zones) {
  const zone = (await getJson(`/zones?name=${encodeURIComponent(name)}&per_page=50`)).result[0];
  for (let page = 1; ; page++) {
    const answer = getJson(`/zones/${zone.id}/dns_records?per_page=5000000&page=${page}`);
    const names = file && page === 1 ? await namesInFile() : undefined;
    const env = await answer;
    records += env.result.length;
    if (names) for (const r of env.result) if (names.has(`${r.name}|${r.type}`)) named++;
    if (!env.result_info || page >= env.result_info.total_pages) break;
  }
}
process.stdout.write(file ? `${records} ${named}\n` : `${records}\n`);
// a keep-alive socket must not hold the process: the floor ends when its work ends
process.exit(0);
