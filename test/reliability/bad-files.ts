/**
 * A seeded generator of malformed and hostile desired-state files, made by mutating the examples
 * (the desired-state ones: not fixtures*.yaml). Each case is bytes to write plus a name that says
 * what was done, so a failure can be replayed with the same seed and read at a glance.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { HOSTILE_VALUES, pick, seeded, type Random } from './hostile.js';

export interface BadFile {
  name: string;
  bytes: Buffer;
  /** a file near the 10 MiB limit: checked against the larger limits of big files */
  big?: boolean;
}

export function desiredExamples(root: string): { name: string; text: string }[] {
  const dir = join(root, 'examples');
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f) && !f.startsWith('fixtures'))
    .sort()
    .map((f) => ({ name: f, text: readFileSync(join(dir, f), 'utf8') }));
}

type Path = (string | number)[];

/** Every path into a parsed document (maps, lists and leaves). */
function paths(v: unknown, at: Path = [], out: Path[] = []): Path[] {
  if (at.length > 0) out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (v && typeof v === 'object') for (const k of Object.keys(v)) paths((v as any)[k], [...at, k], out);
  return out;
}

function setAt(doc: any, path: Path, value: unknown): void {
  let node = doc;
  for (const k of path.slice(0, -1)) node = node[k];
  node[path.at(-1)!] = value;
}

/** A YAML text nested `depth` levels deep, alternating flow lists and block maps. */
const deepYaml = (depth: number) => '['.repeat(depth) + '1' + ']'.repeat(depth);

/** Billion laughs: 9 levels of 9 aliases each (387M strings if expanded). */
function anchorBomb(): string {
  let s = 'lol0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
  for (let i = 1; i <= 9; i++)
    s += `lol${i}: &l${i} [${Array(9)
      .fill(`*l${i - 1}`)
      .join(',')}]\n`;
  return s;
}

/** Mutations of one parsed example: a random node gets a value of the wrong type or shape. */
function typeMutations(random: Random, example: { name: string; text: string }, n: number): BadFile[] {
  const out: BadFile[] = [];
  for (let i = 0; i < n; i++) {
    const doc = parse(example.text);
    const all = paths(doc);
    const path = pick(random, all);
    const value = pick(random, HOSTILE_VALUES);
    setAt(doc, path, value);
    const shown = JSON.stringify(value)?.slice(0, 30) ?? String(value);
    out.push({ name: `${example.name}: ${path.join('.')} = ${shown}`, bytes: Buffer.from(stringify(doc)) });
  }
  return out;
}

/** Text and byte level damage that a parser must survive. */
function rawMutations(random: Random, example: { name: string; text: string }): BadFile[] {
  const text = example.text;
  const lines = text.split('\n');
  const at = (max: number) => Math.floor(random() * max);
  const line = at(lines.length);
  const insertLine = (extra: string) => [...lines.slice(0, line), extra, ...lines.slice(line)].join('\n');
  const bytes = Buffer.from(text);
  const cut = at(bytes.length);
  const flip = Buffer.from(bytes);
  for (let i = 0; i < 5; i++) flip[at(flip.length)] = at(256);
  return [
    { name: 'truncated at a random byte', bytes: bytes.subarray(0, cut) },
    { name: 'five random bytes changed', bytes: flip },
    {
      name: 'invalid UTF-8 inside a value',
      bytes: Buffer.concat([
        bytes.subarray(0, cut),
        Buffer.from([0xc3, 0x28, 0xff, 0xfe]),
        bytes.subarray(cut),
      ]),
    },
    { name: 'a NUL byte', bytes: Buffer.from(insertLine('\u0000')) },
    {
      name: 'a tab in the indentation',
      bytes: Buffer.from(lines.map((l, i) => (i === line ? l.replace(/^ +/, '\t') : l)).join('\n')),
    },
    { name: 'a duplicate top-level key', bytes: Buffer.from(text + '\nversion: 1\n') },
    {
      name: 'an unknown tag',
      bytes: Buffer.from(text.replace(/version: 1/, 'version: !!js/function "function(){}"')),
    },
    { name: 'a custom tag', bytes: Buffer.from(text.replace(/version: 1/, 'version: !evil 1')) },
    { name: 'a merge key from nowhere', bytes: Buffer.from(text + '\nextra:\n  <<: *nothing\n') },
    { name: 'a complex key', bytes: Buffer.from(text + '\n? [a, b]\n: c\n') },
    {
      name: 'a __proto__ key',
      bytes: Buffer.from(text.replace(/^zones:/m, '__proto__: { polluted: true }\nzones:')),
    },
    { name: 'two documents', bytes: Buffer.from(text + '\n---\nversion: 1\n') },
    { name: 'a YAML anchor bomb', bytes: Buffer.from(text + '\n' + anchorBomb()) },
    { name: 'an anchor bomb as the zones', bytes: Buffer.from(`version: 1\n${anchorBomb()}zones: *l9\n`) },
    { name: 'nesting 20,000 deep', bytes: Buffer.from(`version: 1\nzones: ${deepYaml(20_000)}\n`) },
    {
      name: 'block nesting 2,000 deep',
      bytes: Buffer.from(
        'version: 1\nzones:\n' +
          Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i * 2 + 2)}- k${i}:`).join('\n') +
          ' 1\n',
      ),
    },
    {
      name: 'a 2 MB string',
      bytes: Buffer.from(text.replace(/name: ([a-z.]+)/, `name: ${'a'.repeat(2 * 1024 * 1024)}`)),
    },
    {
      name: 'a 1 MB line of flow mapping',
      bytes: Buffer.from(`version: 1\nzones: [${'{},'.repeat(350_000)}]\n`),
      big: true,
    },
    { name: 'an empty file', bytes: Buffer.alloc(0) },
    { name: 'only a comment', bytes: Buffer.from('# nothing here\n') },
    { name: 'a list at the top', bytes: Buffer.from('- version: 1\n') },
    { name: 'a byte-order mark then garbage', bytes: Buffer.from('\ufeff: : :\n') },
  ];
}

/**
 * Big files: just under the 10 MiB limit of desired-state files (parsed and checked in full: about
 * 160,000 records, every 7th with a bad TTL), just over it (refused before parsing), and a 10 MB comment.
 */
function bigFiles(): BadFile[] {
  const head =
    'version: 1\nzones:\n  - name: big.example\n    account: 0123456789abcdef0123456789abcdef\n    dns:\n      records:\n';
  const records = (limit: number) => {
    const recs: string[] = [];
    let size = head.length;
    for (let i = 0; ; i++) {
      const l = `        - { name: host-${i}, type: A, content: 192.0.${Math.floor(i / 250) % 250}.${(i % 250) + 1}, ttl: ${i % 7 === 0 ? '"soon"' : 300} }`;
      if (size + l.length + 1 > limit) break;
      recs.push(l);
      size += l.length + 1;
    }
    return Buffer.from(head + recs.join('\n') + '\n');
  };
  return [
    { name: 'a 9.9 MB file of records (every 7th TTL wrong)', bytes: records(10_400_000), big: true },
    { name: 'a 10.5 MB file of records', bytes: records(11_000_000) },
    {
      name: 'a 10 MB comment',
      bytes: Buffer.from('version: 1\n# ' + 'x'.repeat(10_000_000) + '\nzones: 3\n'),
    },
  ];
}

/** The whole corpus for a seed: type mutations of every example, raw damage of one, and the big files. */
export function badFiles(root: string, seed: number, perExample = 3): BadFile[] {
  const random = seeded(seed);
  const examples = desiredExamples(root);
  const out: BadFile[] = [];
  for (const ex of examples) out.push(...typeMutations(random, ex, perExample));
  out.push(...rawMutations(random, pick(random, examples)));
  out.push(...bigFiles());
  return out;
}
