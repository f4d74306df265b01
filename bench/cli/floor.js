#!/usr/bin/env node
// The floor of a `zoneplan plan`: a fresh `node` that looks each zone up and fetches and parses the
// same DNS pages the plan reads, and nothing else. Run as a child process, exactly like the
// command it stands beside, so both pay the same start-up.
// argv: URL TOKEN fetch|http ZONE...
import http from 'node:http';

const [url, token, how, ...zones] = process.argv.slice(2);
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

let records = 0;
for (const name of zones) {
  const zone = (await getJson(`/zones?name=${encodeURIComponent(name)}&per_page=50`)).result[0];
  for (let page = 1; ; page++) {
    const env = await getJson(`/zones/${zone.id}/dns_records?per_page=5000000&page=${page}`);
    records += env.result.length;
    if (!env.result_info || page >= env.result_info.total_pages) break;
  }
}
process.stdout.write(`${records}\n`);
// a keep-alive socket must not hold the process: the floor ends when its work ends
process.exit(0);
