/**
 * What only the live state reveals: a new CNAME at a name where the service keeps a record of its
 * own (an app's A record, locked). No plan sees service-managed records, so `plan` proposes the
 * CNAME with purge off; the API refuses it (a CNAME must be alone at its name). The rehearsal's
 * sandbox holds that record too, so it meets the same refusal before anything is written.
 */
import { describe, expect, it } from 'vitest';
import { cliAt, writeYaml } from '../cli-reconcile/helpers.js';
import { APEX_A, bedsClosedAfterEach, cliWatched, productionFixtures } from './bed.js';

const PRODUCTION = productionFixtures({
  records: [
    APEX_A,
    { id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa02', name: 'www', type: 'A', content: '192.0.2.11' },
    {
      id: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb01',
      name: 'shop',
      type: 'A',
      content: '192.0.2.50',
      locked: true,
      meta: { managed_by_apps: true },
    },
  ],
});

// purge off: the file names only what it adds; `shop` holds nothing the plan can see
const DESIRED = `version: 1
zones:
  - name: example.com
    dns:
      purge: false
      records:
        - { name: blog, type: AAAA, content: '2001:db8::1' }
        - { name: shop, type: CNAME, content: shops.example.net }
`;

const startProduction = bedsClosedAfterEach();

// the API's own words (81053), on the CNAME's step only: the AAAA beside it in the batch was not at fault
const CNAME_REFUSED =
  /refused: example\.com dns shop CNAME shops\.example\.net: POST \/zones\/:id\/dns_records\/batch -> 400 81053 An A, AAAA, or CNAME record with that host already exists\./;

describe('rehearsal of a CNAME beside a service-managed record', () => {
  it('plan shows the CNAME; plan --rehearse reports the API refusal, exit 1, reads only', async () => {
    const prod = await startProduction({ fixtures: PRODUCTION });
    const file = writeYaml(prod.dir, 'zones.yaml', DESIRED);

    // offline validation and the plan cannot know: the plan is two creates, exit 0
    const plain = await cliAt(prod, ['plan', file, '--format', 'json']);
    expect(plain.code).toBe(0);
    const steps = (JSON.parse(plain.stdout) as { steps: { action: string }[] }).steps;
    expect(steps.map((s) => s.action)).toEqual(['create', 'create']);

    const { result: r, methods } = await cliWatched(prod, ['plan', file, '--rehearse']);
    if (!r.stderr.includes('refused')) throw new Error(r.stderr + r.stdout);
    expect(r.stderr).toMatch(CNAME_REFUSED);
    expect(r.stderr).toContain(
      'rehearsed: 0 steps applied in the sandbox, second plan has 2 steps, 1 not run',
    );
    expect(r.stderr).not.toMatch(/refused: .*blog/);
    expect(r.code).toBe(1);
    expect(methods.length).toBeGreaterThan(0);
    expect(methods.filter((m) => m !== 'GET')).toEqual([]);
  });

  it('apply --rehearse-first writes nothing; a plain apply meets the same refusal at the target', async () => {
    const prod = await startProduction({ fixtures: PRODUCTION });
    const file = writeYaml(prod.dir, 'zones.yaml', DESIRED);

    const { result: r, methods } = await cliWatched(prod, [
      'apply',
      file,
      '--rehearse-first',
      '--auto-approve',
    ]);
    expect(r.stderr).toMatch(CNAME_REFUSED);
    expect(r.stderr).toContain('the rehearsal did not pass; nothing was applied to the target');
    expect(r.code).toBe(1);
    expect(methods.filter((m) => m !== 'GET')).toEqual([]);

    // the sandbox said what production says: the same code, for the same record
    const real = await cliAt(prod, ['apply', file, '--auto-approve']);
    expect(real.code).not.toBe(0);
    expect(real.stdout).toMatch(
      /failed: example\.com dns shop CNAME shops\.example\.net: POST \S+ -> 400 81053 An A, AAAA, or CNAME record with that host already exists\.\n {2}not run: example\.com dns blog AAAA/,
    );
  });
});
