/**
 * `plan --rehearse` against a `serve` standing in for production: the plan is applied to an
 * in-memory copy, planned again there, and the target receives reads only.
 */
import { describe, expect, it } from 'vitest';
import { cliAt } from '../cli-reconcile/helpers.js';
import {
  APEX_A,
  WWW_CNAME,
  exampleZoneFile,
  bedsClosedAfterEach,
  cliWatched,
  productionFixtures,
} from './bed.js';

const PRODUCTION = productionFixtures({
  records: [
    APEX_A,
    WWW_CNAME,
    { id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa05', name: 'old', type: 'A', content: '192.0.2.99', ttl: 120 },
    { id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa07', name: 'shop', type: 'A', content: '192.0.2.50', ttl: 120 },
  ],
});

/** A file with only a CNAME at shop: a plan the API refuses (see the test that uses it first). */
const ONLY_SHOP_CNAME = `    dns:
      records:
        - { name: shop, type: CNAME, content: shop.example.net }
`;

const startProduction = bedsClosedAfterEach();

describe('plan --rehearse', () => {
  it('applies in the sandbox, finds the second plan empty, and sends the target reads only', async () => {
    const prod = await startProduction({ fixtures: PRODUCTION });
    const file = exampleZoneFile(
      prod.dir,
      'zones.yaml',
      `    dns:
      purge: true
      records:
        - { name: '@', type: A, content: 192.0.2.10, proxied: true }
        - { name: www, type: CNAME, content: example.com, ttl: 600 }
        - { name: shop, type: A, content: 192.0.2.50, ttl: 120 }
        - { name: new, type: AAAA, content: '2001:db8::1' }
`,
    );
    const before = await cliAt(prod, ['plan', file, '--format', 'json']);
    const { result: r, methods } = await cliWatched(prod, ['plan', file, '--rehearse']);
    if (!r.stderr.includes('rehearsed')) throw new Error(r.stderr + r.stdout + r.code);
    expect(r.stderr).toContain('rehearsed: 3 steps applied in the sandbox, second plan empty');
    expect(r.stderr).toMatch(/the real apply would send: \d+ (POST|PATCH|PUT|DELETE)/);
    expect(r.code).toBe(0);
    expect(methods.length).toBeGreaterThan(0);
    expect(methods.filter((m) => m !== 'GET')).toEqual([]);
    // nothing changed on the target
    const again = await cliAt(prod, ['plan', file, '--format', 'json']);
    expect(JSON.parse(again.stdout).steps).toEqual(JSON.parse(before.stdout).steps);

    const md = await cliAt(prod, ['plan', file, '--rehearse', '--format', 'markdown']);
    expect(md.stdout).toContain('**rehearsed: 3 steps applied in the sandbox, second plan empty**');
  });

  it('reports what the sandbox refused, with the API message, and exits 1 without writing', async () => {
    const prod = await startProduction({ fixtures: PRODUCTION });
    // the file lists only a CNAME: with purge on (the default) every address record goes, which the
    // API refuses (a zone keeps one A or AAAA); the plan alone cannot know, the sandbox says so
    const file = exampleZoneFile(prod.dir, 'zones.yaml', ONLY_SHOP_CNAME);
    const { result: r, methods } = await cliWatched(prod, ['plan', file, '--rehearse']);
    if (!r.stderr.includes('refused')) throw new Error(r.stderr + r.stdout);
    expect(r.stderr).toMatch(/refused: example\.com dns .*without any A or AAAA record/);
    expect(r.stderr).toContain('second plan has');
    expect(r.code).toBe(1);
    expect(methods.filter((m) => m !== 'GET')).toEqual([]);
  });

  it('apply --rehearse-first applies only after a passing rehearsal', async () => {
    const prod = await startProduction({ fixtures: PRODUCTION });
    const bad = exampleZoneFile(prod.dir, 'bad.yaml', ONLY_SHOP_CNAME);
    const { result: r, methods } = await cliWatched(prod, [
      'apply',
      bad,
      '--rehearse-first',
      '--auto-approve',
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('the rehearsal did not pass; nothing was applied to the target');
    expect(methods.filter((m) => m !== 'GET')).toEqual([]);

    const good = exampleZoneFile(
      prod.dir,
      'good.yaml',
      `    dns:
      purge: false
      records:
        - { name: new, type: AAAA, content: '2001:db8::1' }
`,
    );
    const ok = await cliAt(prod, ['apply', good, '--rehearse-first', '--auto-approve']);
    expect(ok.stderr).toContain('second plan empty');
    expect(ok.code).toBe(0);
    const after = await cliAt(prod, ['plan', good, '--format', 'json']);
    expect(JSON.parse(after.stdout).steps).toEqual([]);
  });
});
