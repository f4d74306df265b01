/**
 * The DNS plan limits from the reconciler's side (docs/kinds/dns.md, "Comments, tags and plan
 * limits"), through the built CLI (bin/zoneplan.js as a child process) against the local API:
 * what the file alone can know is a validation error at file:line:col; what only the zone's plan
 * tells is a plan error at the record's place, and `apply` sends no write (asserted on the requests
 * that reached the API and on its store). Comments and tags themselves are planned in every format,
 * exported, and drift sees another client's edit of them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, spawnCli } from '../support/processes.js';
import { ACCOUNT, api, startBed, writeYaml, zoneFile, type Bed } from './helpers.js';

let bed: Bed;

/** 199 records: one more fits the Free quota of a zone created now (200), two do not. */
const NEARLY_FULL = [
  { type: 'A', name: '@', content: '192.0.2.1' },
  ...Array.from({ length: 198 }, (_, i) => ({ type: 'TXT', name: `t${i}`, content: 'x' })),
];

beforeAll(async () => {
  requireBuild();
  bed = await startBed({
    fixtures: {
      accounts: [{ id: ACCOUNT, name: 'Limits' }],
      zones: [
        { name: 'free.example', account: ACCOUNT, plan: 'free', records: [NEARLY_FULL[0]] },
        { name: 'pro.example', account: ACCOUNT, plan: 'pro', records: [NEARLY_FULL[0]] },
        { name: 'full.example', account: ACCOUNT, plan: 'free', records: NEARLY_FULL },
        {
          name: 'older.example',
          account: ACCOUNT,
          plan: 'free',
          created_on: '2023-05-01T00:00:00Z',
          records: NEARLY_FULL,
        },
      ],
    },
  });
});
afterAll(() => bed.close());

function run(args: string[]) {
  return spawnCli([...args, '--api-url', bed.contract.url], {
    cwd: bed.dir,
    env: { CLOUDFLARE_API_TOKEN: bed.token },
  });
}

/** Requests other than reads that reached the API since `from` (an index into the exchanges). */
const writesSince = (from: number) =>
  bed.contract.exchanges
    .slice(from)
    .filter((x) => x.method !== 'GET')
    .map((x) => `${x.method} ${x.url}`);

async function stored(zone: string): Promise<string> {
  const [z] = await api<{ id: string }[]>(bed, 'GET', `/zones?name=${zone}`);
  return JSON.stringify(await api(bed, 'GET', `/zones/${z!.id}/dns_records?per_page=5000`));
}

const apex = "{ name: '@', type: A, content: 192.0.2.1 }";

/** plan and apply both refuse with `message`, exit 1, and nothing is written. */
async function refusedBeforeAnyWrite(zone: string, file: string, message: RegExp): Promise<void> {
  const before = await stored(zone);
  const from = bed.contract.exchanges.length;
  for (const args of [
    ['plan', file],
    ['apply', file, '--auto-approve'],
  ]) {
    const r = await run(args);
    expect(r.code, `${args[0]}\n${r.stdout}${r.stderr}`).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).not.toContain('Applied');
  }
  expect(writesSince(from)).toEqual([]);
  expect(await stored(zone)).toBe(before);
}

describe('what only the zone’s plan tells: a plan error, no write', () => {
  it('tags on a Free zone', async () => {
    const file = writeYaml(
      bed.dir,
      'tags-free.yaml',
      zoneFile('free.example', [apex, "{ name: www, type: A, content: 192.0.2.2, tags: ['team:web'] }"]),
    );
    await refusedBeforeAnyWrite(
      'free.example',
      file,
      /tags-free\.yaml:8:\d+: zone free\.example: zones\[0\]\.dns\.records\[1\]: www A has 1 tag, and the zone's Free plan allows 0 per record \(the API refuses it with 1004\/9300 "DNS record has 1 tags, exceeding the quota of 0\."\)/,
    );
  });

  it('tags added to a live record of a Free zone (an update)', async () => {
    const file = writeYaml(
      bed.dir,
      'tags-update.yaml',
      zoneFile('free.example', ["{ name: '@', type: A, content: 192.0.2.1, tags: [a, b] }"]),
    );
    await refusedBeforeAnyWrite(
      'free.example',
      file,
      /tags-update\.yaml:7:\d+: zone free\.example: zones\[0\]\.dns\.records\[0\]: @ A has 2 tags, and the zone's Free plan allows 0/,
    );
  });

  it('tags in a zone the plan creates: a new zone starts on Free', async () => {
    const file = writeYaml(
      bed.dir,
      'tags-new.yaml',
      zoneFile('new.example', ["{ name: '@', type: A, content: 192.0.2.1, tags: ['team:web'] }"]),
    );
    const from = bed.contract.exchanges.length;
    const r = await run(['apply', file, '--auto-approve']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toMatch(/tags-new\.yaml:7:\d+: zone new\.example: .*allows 0 per record/);
    expect(writesSince(from)).toEqual([]);
    expect(await api<unknown[]>(bed, 'GET', '/zones?name=new.example')).toEqual([]);
  });

  it('a comment over 100 characters on a Free zone; the same file applies to a paid zone', async () => {
    const comment = 'c'.repeat(150);
    const records = [apex, `{ name: www, type: A, content: 192.0.2.2, comment: ${comment} }`];
    const file = writeYaml(bed.dir, 'comment-free.yaml', zoneFile('free.example', records));
    await refusedBeforeAnyWrite(
      'free.example',
      file,
      /comment-free\.yaml:8:\d+: zone free\.example: zones\[0\]\.dns\.records\[1\]: www A has a comment of 150 characters, and the zone's Free plan allows 100; shorten it/,
    );
    const paid = writeYaml(bed.dir, 'comment-pro.yaml', zoneFile('pro.example', records));
    const applied = await run(['apply', paid, '--auto-approve']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
  });

  it('the record quota: 199 records and 2 more on a Free zone', async () => {
    const records = [
      ...NEARLY_FULL.slice(1).map((r) => `{ name: ${r.name}, type: TXT, content: x }`),
      apex,
      '{ name: one, type: TXT, content: x }',
      '{ name: two, type: TXT, content: x }',
    ];
    const file = writeYaml(bed.dir, 'quota.yaml', zoneFile('full.example', records));
    await refusedBeforeAnyWrite(
      'full.example',
      file,
      /quota\.yaml:206:\d+: zone full\.example: zones\[0\]\.dns\.records\[199\]: the plan would leave the zone with 201 records \(199 now, 2 created, 0 deleted\), over its quota of 200 on the Free plan \(the API refuses the creates with 81045 "The record quota has been exceeded\."\)/,
    );
    // one more fills the quota exactly
    writeYaml(bed.dir, 'quota.yaml', zoneFile('full.example', records.slice(0, -1)));
    const fits = await run(['apply', file, '--auto-approve']);
    expect(fits.code, fits.stdout + fits.stderr).toBe(0);
  });

  it('a Free zone created before 2024-09-01 (fixtures’ created_on) holds 1,000: 199 and 2 more apply', async () => {
    const records = [
      ...NEARLY_FULL.slice(1).map((r) => `{ name: ${r.name}, type: TXT, content: x }`),
      apex,
      '{ name: one, type: TXT, content: x }',
      '{ name: two, type: TXT, content: x }',
    ];
    const file = writeYaml(bed.dir, 'older.yaml', zoneFile('older.example', records));
    const applied = await run(['apply', file, '--auto-approve']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(JSON.parse(await stored('older.example'))).toHaveLength(201);
  });
});

describe('what the file alone knows: a validation error at file:line:col, on every plan', () => {
  it('a newline in a comment', async () => {
    const file = writeYaml(
      bed.dir,
      'newline.yaml',
      zoneFile('pro.example', [apex, '{ name: www, type: A, content: 192.0.2.2, comment: "two\\nlines" }']),
    );
    for (const command of ['validate', 'plan']) {
      const from = bed.contract.exchanges.length;
      const r = await run([command, file]);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stdout + r.stderr).toMatch(
        /newline\.yaml:8:62: zones\[0\]\.dns\.records\[1\]\.comment: "comment" may not hold a newline or a carriage return/,
      );
      expect(writesSince(from)).toEqual([]);
    }
  });

  it('a comment over 500 characters', async () => {
    const file = writeYaml(
      bed.dir,
      'long.yaml',
      zoneFile('pro.example', [
        apex,
        `{ name: www, type: A, content: 192.0.2.2, comment: ${'c'.repeat(501)} }`,
      ]),
    );
    const r = await run(['validate', file]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/long\.yaml:8:\d+: zones\[0\]\.dns\.records\[1\]\.comment: .*500/);
  });
});

describe('comments and tags are planned, exported and drift-checked', () => {
  const tagged = "{ name: api, type: A, content: 192.0.2.3, comment: the API, tags: ['team:api'] }";

  it('every plan format shows them; export writes them; drift sees another client’s edit', async () => {
    const file = writeYaml(bed.dir, 'tagged.yaml', zoneFile('pro.example', [apex, tagged]));
    const text = await run(['plan', file]);
    expect(text.stdout).toContain('team:api');
    expect(text.stdout).toContain('the API');
    const markdown = await run(['plan', file, '--format', 'markdown']);
    expect(markdown.stdout).toContain('team:api');
    expect(markdown.stdout).toContain('the API');
    const json = await run(['plan', file, '--format', 'json']);
    expect(json.stdout).toMatch(/"tags":\s*\[\s*"team:api"\s*\]/);
    expect(json.stdout).toMatch(/"comment":\s*"the API"/);
    expect((await run(['apply', file, '--auto-approve'])).code).toBe(0);
    expect((await run(['drift', file])).code).toBe(0);

    const exported = join(bed.dir, 'exported.yaml');
    const ex = await run(['export', '--zone', 'pro.example', '--kinds', 'dns', '--out', exported]);
    expect(ex.code, ex.stderr).toBe(0);
    const written = readFileSync(exported, 'utf8');
    expect(written).toContain('team:api');
    expect(written).toContain('the API');

    // another client changes the tags and the comment: drift names the record and both fields
    const [z] = await api<{ id: string }[]>(bed, 'GET', '/zones?name=pro.example');
    const [rec] = await api<{ id: string }[]>(bed, 'GET', `/zones/${z!.id}/dns_records?name=api.pro.example`);
    await api(bed, 'PATCH', `/zones/${z!.id}/dns_records/${rec!.id}`, {
      tags: ['team:other'],
      comment: 'edited',
    });
    const drift = await run(['drift', file]);
    expect(drift.code, drift.stdout + drift.stderr).toBe(2);
    expect(drift.stdout).toContain('api');
    expect(drift.stdout).toContain('team:other');
    expect(drift.stdout).toContain('edited');
  });
});
