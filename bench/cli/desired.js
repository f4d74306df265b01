// The desired-state files of bench/cli/run.js: one zone's records (bench/plan/records.js) written
// in the layouts users write them, each the same data.
import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { record } from '../plan/records.js';

/** The records of `zone` as a desired file lists them (names relative to the zone). */
export function recordsFor(zone, count) {
  return Array.from({ length: count }, (_, i) => {
    const { name: full, type, content, ttl, proxied } = record(i, zone);
    return { name: full.slice(0, -(zone.length + 1)), type, content, ttl, proxied };
  });
}

const quoted = (s) => `'${s.replaceAll("'", "''")}'`;

/**
 * Writes a desired file naming `zones` (name to record count) with exactly their live records: a
 * plan with no changes. `layout`: `block` (as `yaml` writes it), `flow` (one flow mapping per
 * record, as `zoneplan export` writes them: a 100,000-record zone in block style is over the
 * 10 MiB limit of a desired-state file), `json` (JSON syntax, which is YAML too), `anchors` (block
 * style with anchors and aliases: in each run of 100 records, the first of each type anchors its
 * `type` and `ttl` and the first its `proxied`, and the others alias them) or `expanded` (the
 * `anchors` file with every alias written out: the same text but for the `&` and `*`).
 */
export function writeDesired(file, account, zones, layout = 'block') {
  const entries = Object.entries(zones);
  if (layout === 'block' || layout === 'json') {
    const doc = {
      version: 1,
      zones: entries.map(([name, count]) => ({ name, account, dns: { records: recordsFor(name, count) } })),
    };
    writeFileSync(file, layout === 'json' ? JSON.stringify(doc, null, 2) : stringify(doc));
    return file;
  }
  const lines = ['version: 1', 'zones:'];
  for (const [name, count] of entries) {
    lines.push(`  - name: ${name}`, `    account: '${account}'`, '    dns:', '      records:');
    const records = recordsFor(name, count);
    for (let i = 0; i < records.length; i++) {
      const r = records[i];
      if (layout === 'flow') {
        lines.push(
          `        - { name: ${r.name}, type: ${r.type}, content: ${quoted(r.content)}, ttl: ${r.ttl}, proxied: ${r.proxied} }`,
        );
        continue;
      }
      // anchors (or, expanded, the same values written out) for a run of 100 records
      const run = Math.floor(i / 100);
      const firstOfType = i % 100 < 4;
      const value = (anchor, text, first) =>
        layout === 'expanded' ? text : first ? `&${anchor} ${text}` : `*${anchor}`;
      lines.push(
        `        - name: ${r.name}`,
        `          type: ${value(`type${run}${r.type}`, r.type, firstOfType)}`,
        `          content: ${quoted(r.content)}`,
        `          ttl: ${value(`ttl${run}${r.type}`, String(r.ttl), firstOfType)}`,
        `          proxied: ${value(`proxied${run}`, String(r.proxied), i % 100 === 0)}`,
      );
    }
  }
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}
