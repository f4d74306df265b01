/**
 * The scan of a desired-state file's text (src/cli/pipeline/early-scan.ts), which lets the early reads look
 * the zones up before the file is parsed, must give what the parsed file gives at the levels the
 * early reads look at, or nothing: a wrong owner would be a request the plan never needed. Here
 * hand-written texts and random ones, in the spellings YAML allows at those levels, are held to
 * `yaml`'s parse of the same text.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { scanOwners } from '../../src/cli/pipeline/early-scan.js';
import { rng } from '../support/scenario.js';

/**
 * A document as the early reads see it: each top-level key (only `target`'s presence matters),
 * and each zone entry's values, a string as itself, a number or boolean as itself (the scan must
 * never type one), any nested or empty value as `{}`.
 */
function view(doc: unknown): unknown {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return 'not a mapping';
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc)) {
    if (k !== 'zones') out[k] = '-';
    else if (!Array.isArray(v)) out[k] = 'not a list';
    else
      out[k] = v.map((entry: unknown) =>
        entry && typeof entry === 'object' && !Array.isArray(entry)
          ? Object.fromEntries(
              Object.entries(entry).map(([ek, ev]) => [
                ek,
                typeof ev === 'string' || typeof ev === 'number' || typeof ev === 'boolean' ? ev : {},
              ]),
            )
          : entry,
      );
  }
  return out;
}

/** The scan of `text`, checked against the parse: undefined or the same view. */
function scanned(text: string): Record<string, unknown> | undefined {
  const scan = scanOwners(text);
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch {
    return scan; // a file that does not parse has errors: its early reads are dropped unseen
  }
  if (scan !== undefined) expect(view(scan), text).toEqual(view(parsed));
  return scan;
}

const ACCOUNT = '0123456789abcdef0123456789abcdef';

describe('the scan of a file for its owners', () => {
  it('reads the common shape: zones with their names and accounts, deeper content unread', () => {
    const text = [
      '# the production zones',
      'version: 1',
      'zones:',
      '  - name: example.com # the main one',
      `    account: '${ACCOUNT}'`,
      '    dns:',
      '      records:',
      '        - { name: www, type: A, content: 192.0.2.1 }',
      '        - name: mail',
      '          type: MX',
      '',
      '  - name: "example.net"',
      '    dns: {}',
      '',
    ].join('\n');
    expect(scanned(text)).toEqual({
      version: {},
      zones: [
        { name: 'example.com', account: ACCOUNT, dns: {} },
        { name: 'example.net', dns: {} },
      ],
    });
    // a sequence at the key's own column, CRLF line ends
    expect(scanned('zones:\r\n- name: a.example\r\n  dns:\r\n    records: []\r\n')).toEqual({
      zones: [{ name: 'a.example', dns: {} }],
    });
  });

  it('gives up on whatever it cannot read with certainty', () => {
    const giveUp = [
      'zones: [{ name: a.example }]', // flow style at the zones level
      '{ "zones": [{ "name": "a.example" }] }', // JSON
      'zones:\n  - name: 1.5', // a number
      'zones:\n  - name: yes', // a YAML 1.1 boolean
      'zones:\n  - name: a.example\n    account: 0123', // a number
      'zones:\n  - name: a.example\n    delete: true', // a boolean the readers would see
      'zones:\n  - name: a.example\n    continued', // a plain scalar on two lines
      'zones:\n  - name: &n a.example', // an anchor
      'zones:\n  - name: !!str a.example', // a tag
      'zones:\n  - name: "a\\u002eexample"', // an escape
      "zones:\n  - name: 'a #b", // an unterminated quote
      'zones:\n  - name: |\n      a.example', // a block scalar
      'accounts:\n  - id: x\nzones:\n  - name: a.example', // accounts
      '---\nzones:\n  - name: a.example', // a document marker
      'zones:\n  -\n    name: a.example', // an entry that starts on the next line
      'zones:\n   - name: a.example\n  - name: b.example', // inconsistent indentation
      'zones:\n\t- name: a.example', // a tab
      'zones:', // nothing under zones
      'version: 1', // no zones
    ];
    for (const text of giveUp) expect(scanned(text), text).toBeUndefined();
  });

  it('gives what yaml parses, or nothing, for random files in many spellings', () => {
    const random = rng(17);
    const rnd = (n: number) => Math.floor(random() * n);
    const pick = <T>(xs: readonly T[]): T => xs[rnd(xs.length)]!;
    const names = [
      'a.example',
      'B.Example.COM',
      "'a.example'",
      '"a.example"',
      "'it''s.example'",
      'a.example # c',
      "'a #b' # c",
      '1.5',
      '0123',
      'true',
      'Yes',
      'null',
      '~',
      '2024-01-01',
      '0x1f',
      '1e5',
      '.inf',
      '-a.example',
      '${var:zone}',
      '"${env:ZONE}"',
      'a.example:',
      'a: b',
      'xn--bcher-kva.example',
      '',
    ];
    const nested = [
      ['dns:', '  records:', '    - { name: www, type: A, content: 192.0.2.1 }'],
      ['dns:', '  records: []'],
      ['dns: {}'],
      ['dns: { records: [] }'],
      ['dns:'],
      ['dns: [1, 2]'],
      ['page_shield:', '  scripts: []'],
      ['vars:', '  - a'],
    ];
    const scalars = [
      `account: ${ACCOUNT}`,
      `account: '${ACCOUNT}'`,
      'account: 12345678901234567890123456789012',
      'delete: true',
      'plan: pro',
      'comment: "two words"',
      'note: hello # world',
      'note: multi',
      '# a comment between keys',
      '',
    ];
    let read = 0;
    for (let i = 0; i < 3000; i++) {
      const seqIndent = pick([0, 2, 2, 4]);
      const dash = pick(['- ', '- ', '-  ']);
      const keyIndent = ' '.repeat(seqIndent + dash.length);
      const lines: string[] = [];
      if (rnd(2)) lines.push('version: 1');
      if (rnd(8) === 0) lines.push('target:', '  api_url: http://127.0.0.1:1');
      if (rnd(6) === 0) lines.push('vars:', '  zone: a.example');
      if (rnd(4) === 0) lines.push('# a comment');
      lines.push(pick(['zones:', 'zones: # all of them', 'zones:  ']));
      const zones = 1 + rnd(3);
      for (let z = 0; z < zones; z++) {
        lines.push(`${' '.repeat(seqIndent)}${dash}name: ${pick(names)}`);
        for (let k = rnd(4); k > 0; k--) {
          if (rnd(2)) lines.push(...pick(nested).map((l) => keyIndent + l));
          else {
            const s = pick(scalars);
            lines.push(s === '' ? '' : keyIndent + s);
            if (s === 'note: multi' && rnd(2)) lines.push(`${keyIndent}  line`);
          }
        }
      }
      if (rnd(6) === 0) lines.push('other: 1');
      const text = lines.join(rnd(10) === 0 ? '\r\n' : '\n') + '\n';
      if (scanned(text) !== undefined) read++;
    }
    // a good part of these are of the shape the scan reads (most names picked above are not)
    expect(read).toBeGreaterThan(150);
  });
});
