/**
 * Owners of DNS records when the zone's plan changes (docs/sharing-a-zone.md, "The marker of each
 * kind"): a record marked with a tag on a paid zone keeps its owner when the zone moves to Free, and
 * its next write moves the marker into the comment, since the API refuses every write of a record
 * that holds a tag on a Free zone (1004/9300). The built CLI as a child process against the local
 * API; assertions on the stored records.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { requireBuild, spawnCli } from '../support/processes.js';
import { ACCOUNT, api, startBed, type Bed } from './helpers.js';

const SHOP = 'shop.example';
const SPARE = 'spare.example';

let bed: Bed | undefined;
beforeAll(() => requireBuild());
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

type Zone = { id: string; plan: { id: string } };
type Stored = { name: string; comment: string | null; tags: string[] };

async function zoneOf(name: string): Promise<Zone> {
  return (await api<Zone[]>(bed!, 'GET', `/zones?name=${name}`))[0]!;
}

/** `name | comment | tags` of the zone's A records, sorted. */
async function records(zoneId: string): Promise<string[]> {
  const all = await api<Stored[]>(bed!, 'GET', `/zones/${zoneId}/dns_records?type=A`);
  return all.map((r) => `${r.name} | ${r.comment ?? ''} | ${(r.tags ?? []).join(',')}`).sort();
}

function writeFile(dir: string, lines: string[]): void {
  writeFileSync(join(dir, 'zones.yaml'), ['version: 1', 'zones:', ...lines].join('\n') + '\n');
}

function run(dir: string, args: string[]) {
  return spawnCli([args[0]!, join(dir, 'zones.yaml'), ...args.slice(1), '--api-url', bed!.contract.url], {
    cwd: dir,
    env: { CLOUDFLARE_API_TOKEN: bed!.token },
  });
}

it('a paid zone that moves to Free: the next write of a tag-marked record moves the marker to the comment', async () => {
  bed = await startBed({
    fixtures: {
      accounts: [{ id: ACCOUNT, name: 'Shared' }],
      zones: [
        { name: SHOP, account: ACCOUNT, plan: 'pro', records: [] },
        { name: SPARE, account: ACCOUNT, plan: 'free', records: [] },
      ],
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'zp-owner-plan-'));
  const entry = (comment: string) => [
    `  - name: ${SHOP}`,
    '    owner: blog',
    '    dns:',
    '      purge: true',
    '      records:',
    `        - { name: blog, type: A, content: 192.0.2.2, comment: ${comment} }`,
    '        - { name: keep, type: A, content: 192.0.2.3 }',
  ];
  writeFile(dir, entry('the blog'));
  const first = await run(dir, ['apply', '--auto-approve']);
  expect(first.code, first.stdout + first.stderr).toBe(0);
  const shop = await zoneOf(SHOP);
  expect(await records(shop.id)).toEqual([
    'blog.shop.example | the blog | zoneplan-owner:blog',
    'keep.shop.example |  | zoneplan-owner:blog',
  ]);

  // the paid plan ends: the zone is on the Free plan (the plan id a Free zone shows)
  await api(bed, 'PATCH', `/zones/${shop.id}`, { plan: { id: (await zoneOf(SPARE)).plan.id } });
  const unchanged = await run(dir, ['plan', '--detailed-exitcode']);
  expect(unchanged.code, unchanged.stdout + unchanged.stderr).toBe(0);

  writeFile(dir, entry('the blog v2'));
  const second = await run(dir, ['apply', '--auto-approve']);
  expect(second.code, second.stdout + second.stderr).toBe(0);
  // the written record carries the comment marker and no tag; the untouched one keeps its tag
  expect(await records(shop.id)).toEqual([
    'blog.shop.example | the blog v2 [zoneplan-owner:blog] | ',
    'keep.shop.example |  | zoneplan-owner:blog',
  ]);
  const again = await run(dir, ['plan', '--detailed-exitcode']);
  expect(again.code, again.stdout + again.stderr).toBe(0);
  expect(again.stdout).toContain('No changes.');
});
