/**
 * One zone declared in several files (docs/file-format.md, "Many files"), through the built CLI
 * (bin/zoneplan.js as a child process) against the local API: the platform team's file holds the
 * apex, www and `purge: true`, the product team's the blog's records. Planned in both orders (the
 * same steps), applied (asserted on the API's store), planned again (nothing to do); and the
 * conflicts are validation errors naming both places, with no write sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, spawnCli } from '../support/processes.js';
import { ACCOUNT, api, startBed, writeYaml, type Bed } from './helpers.js';

let bed: Bed;

beforeAll(async () => {
  requireBuild();
  bed = await startBed({
    fixtures: {
      accounts: [{ id: ACCOUNT, name: 'Acme' }],
      zones: [
        {
          name: 'acme.com',
          account: ACCOUNT,
          records: [
            { type: 'A', name: '@', content: '192.0.2.1' },
            { type: 'A', name: 'old', content: '192.0.2.99' },
          ],
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

/** A file declaring acme.com with `body` (YAML lines under the zone entry). */
const acme = (...body: string[]) =>
  [
    'version: 1',
    'zones:',
    '  - name: acme.com',
    `    account: ${ACCOUNT}`,
    ...body.map((l) => `    ${l}`),
    '',
  ].join('\n');

const PLATFORM = acme(
  'dns:',
  '  purge: true',
  '  records:',
  '    - { name: "@", type: A, content: 192.0.2.1 }',
  '    - { name: www, type: CNAME, content: acme.com, proxied: true }',
);
/** the product team's file also holds a zone of its own, declared before the shared one */
const PRODUCT = acme(
  'dns:',
  '  records:',
  '    - { name: blog, type: A, content: 192.0.2.10 }',
  '    - { name: blog, type: A, content: 192.0.2.11 }',
).replace(
  'zones:\n',
  `zones:\n  - name: acme-shop.net\n    account: ${ACCOUNT}\n    dns:\n      records:\n        - { name: "@", type: A, content: 192.0.2.20 }\n`,
);

async function storedRecords(): Promise<string[]> {
  const [zone] = await api<{ id: string }[]>(bed, 'GET', '/zones?name=acme.com');
  const records = await api<{ name: string; type: string; content: string }[]>(
    bed,
    'GET',
    `/zones/${zone!.id}/dns_records?per_page=100`,
  );
  return records.map((r) => `${r.name} ${r.type} ${r.content}`).sort();
}

const writes = (from: number) => bed.contract.exchanges.slice(from).filter((x) => x.method !== 'GET');

describe('one zone declared by two teams in two files', () => {
  it('plans the same steps in either order, applies both files, and then has nothing to do', async () => {
    writeYaml(bed.dir, 'platform.yaml', PLATFORM);
    writeYaml(bed.dir, 'product.yaml', PRODUCT);
    const forward = await run(['plan', 'platform.yaml', 'product.yaml', '--format', 'json']);
    const backward = await run(['plan', 'product.yaml', 'platform.yaml', '--format', 'json']);
    expect(forward.code, forward.stderr).toBe(0);
    expect(backward.code, backward.stderr).toBe(0);
    const steps = (out: string) => (JSON.parse(out) as { steps: unknown[] }).steps;
    expect(steps(backward.stdout)).toEqual(steps(forward.stdout));
    expect(backward.stdout).toBe(forward.stdout);
    expect(
      steps(forward.stdout).map(
        (s) => (s as { action: string; address: string }).action + ' ' + (s as { address: string }).address,
      ),
    ).toMatchInlineSnapshot(`
      [
        "create blog A 192.0.2.10",
        "create blog A 192.0.2.11",
        "delete old A 192.0.2.99",
        "create www CNAME acme.com",
        "create zone acme-shop.net",
        "create @ A 192.0.2.20",
      ]
    `);

    const applied = await run(['apply', 'product.yaml', 'platform.yaml', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(await storedRecords()).toEqual([
      'acme.com A 192.0.2.1',
      'blog.acme.com A 192.0.2.10',
      'blog.acme.com A 192.0.2.11',
      'www.acme.com CNAME acme.com',
    ]);
    const again = await run(['plan', 'platform.yaml', 'product.yaml', '--detailed-exitcode']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it('refuses a record, `purge` or a setting declared twice, naming both places, and sends no write', async () => {
    const from = bed.contract.exchanges.length;
    const apex = '    - { name: "@", type: A, content: 192.0.2.1 }';
    writeYaml(
      bed.dir,
      'platform.yaml',
      acme('dns:', '  purge: true', '  records:', apex, 'page_shield: { enabled: true }'),
    );
    writeYaml(
      bed.dir,
      'product.yaml',
      acme(
        'dns:',
        '  purge: false',
        '  records:',
        '    - { name: blog, type: A, content: 192.0.2.10 }',
        'page_shield: { enabled: true }',
      ),
    );
    writeYaml(
      bed.dir,
      'blog.yaml',
      acme('dns:', '  records:', '    - { name: blog.acme.com, type: A, content: 192.0.2.10, ttl: 600 }'),
    );
    // the files are merged in the order of their paths: blog.yaml, platform.yaml, product.yaml
    const expected = [
      'product.yaml:8:11: zones[0].dns.records[0]: zone `acme.com`: this dns.records entry is also declared, with other values, at blog.yaml:7:11; declare it in one file, or the same in both',
      'product.yaml:6:14: zones[0].dns.purge: `dns.purge` of zone `acme.com` is also set at platform.yaml:6:14; a setting is declared in one file only',
      'product.yaml:9:29: zones[0].page_shield.enabled: `page_shield.enabled` of zone `acme.com` is also set at platform.yaml:9:29; a setting is declared in one file only',
    ];
    for (const order of [
      ['platform.yaml', 'product.yaml', 'blog.yaml'],
      ['blog.yaml', 'product.yaml', 'platform.yaml'],
    ]) {
      for (const command of ['validate', 'plan', 'apply']) {
        const refused = await run([command, ...order, ...(command === 'apply' ? ['--auto-approve'] : [])]);
        expect(refused.code, refused.stderr).toBe(1);
        const lines = (refused.stdout + refused.stderr).split('\n');
        for (const line of expected) expect(lines.map((l) => l.replace(/^error: /, ''))).toContain(line);
      }
    }
    expect(writes(from)).toEqual([]);
  });

  it('a plan-time problem with a record of the merged zone names the file of the record', async () => {
    const [zone] = await api<{ id: string }[]>(bed, 'GET', '/zones?name=acme.com');
    await api(bed, 'POST', `/zones/${zone!.id}/dns_records`, {
      type: 'A',
      name: 'shop',
      content: '192.0.2.50',
    });
    writeYaml(bed.dir, 'platform.yaml', PLATFORM.replace('purge: true', 'purge: false'));
    writeYaml(
      bed.dir,
      'product.yaml',
      PRODUCT.replace(
        '192.0.2.11 }',
        '192.0.2.11 }\n        - { name: shop, type: CNAME, content: acme.com }',
      ),
    );
    const from = bed.contract.exchanges.length;
    const refused = await run(['apply', 'platform.yaml', 'product.yaml', '--auto-approve']);
    expect(refused.code, refused.stderr).toBe(1);
    // the platform's two records come first in the merged zone, then the blog's two: shop is the fifth
    expect(refused.stderr).toContain(
      'product.yaml:14:11: zone acme.com: zones[0].dns.records[4]: shop CNAME cannot be created',
    );
    expect(writes(from)).toEqual([]);
  });
});
