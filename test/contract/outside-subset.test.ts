/**
 * The operations the 2024 OpenAPI subset lacks, checked by hand against docs/reference/api-facts.md on the
 * exchanges the reconciler really has with the local API: the DNS batch (docs/reference/api-facts.md "DNS records",
 * (new) Batch) and the WAF migration endpoints (docs/reference/api-facts.md "WAF migration"; docs/reference/service-api.md).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cliAt, startBed, writeYaml, zoneFile, type Bed } from '../cli-reconcile/helpers.js';
import { fixtures, startBed as startWafBed, type Bed as WafBed } from '../kinds/load-balancing/harness.js';
import type { Exchange } from './openapi.js';

type Json = Record<string, any>;
const pathOf = (x: Exchange) => x.url.split('?')[0]!;

let bed: Bed | undefined;
let wafBed: WafBed | undefined;
afterEach(async () => {
  await bed?.close();
  await wafBed?.close();
  bed = wafBed = undefined;
});

describe('operations outside the subset, against docs/reference/api-facts.md', { timeout: 120_000 }, () => {
  it('DNS batch: {deletes, patches, puts, posts} in, the same four lists of full records out', async () => {
    bed = await startBed();
    const file = writeYaml(
      bed.dir,
      'dns.yaml',
      zoneFile('batch.example', [
        '{ name: www, type: A, content: 192.0.2.1 }',
        '{ name: old, type: TXT, content: x }',
      ]),
    );
    expect((await cliAt(bed, ['apply', file, '--auto-approve'])).code).toBe(0);
    writeYaml(bed.dir, 'dns.yaml', zoneFile('batch.example', ['{ name: www, type: A, content: 192.0.2.2 }']));
    expect((await cliAt(bed, ['apply', file, '--auto-approve'])).code).toBe(0);

    const batches = bed.contract.exchanges.filter(
      (x) => x.method === 'POST' && pathOf(x).endsWith('/dns_records/batch'),
    );
    expect(batches.length).toBeGreaterThanOrEqual(2);
    for (const x of batches) {
      const req = x.requestBody as Json;
      expect(Object.keys(req).every((k) => ['deletes', 'patches', 'puts', 'posts'].includes(k))).toBe(true);
      for (const d of req.deletes ?? []) expect(Object.keys(d)).toEqual(['id']);
      for (const p of [...(req.patches ?? []), ...(req.puts ?? [])]) expect(typeof p.id).toBe('string');
      for (const p of req.posts ?? [])
        expect(p).toMatchObject({ name: expect.any(String), type: expect.any(String) });
      expect(x.status).toBe(200);
      const res = x.responseBody as Json;
      expect(res).toMatchObject({ success: true, errors: [], messages: [] });
      for (const list of ['deletes', 'patches', 'puts', 'posts']) {
        const sent = (req[list] ?? []) as unknown[];
        const got = (res.result[list] ?? []) as Json[];
        expect(got.length, list).toBe(sent.length);
        // full records: the response fields of docs/reference/api-facts.md "DNS records"
        for (const r of got) {
          expect(r).toMatchObject({
            id: expect.any(String),
            zone_id: expect.any(String),
            zone_name: 'batch.example',
            name: expect.any(String),
            type: expect.any(String),
            proxiable: expect.any(Boolean),
            created_on: expect.any(String),
            modified_on: expect.any(String),
          });
        }
      }
    }
  });

  it('WAF migration: status, check and config answer the documented fields', async () => {
    wafBed = await startWafBed(
      fixtures({ zones: [{ name: 'pro.example', plan: 'pro', waf: { firewall_rules: 3 } }] }),
    );
    const file = wafBed.file(
      'waf.yaml',
      'version: 1\nzones:\n  - name: pro.example\n    waf:\n      managed_rules: new\n',
    );
    expect((await wafBed.cli(['apply', file, '--auto-approve', '--allow-irreversible'])).code).toBe(0);

    const seen = wafBed.contract.exchanges.filter((x) => pathOf(x).includes('/waf_migration/'));
    const status = seen.filter((x) => pathOf(x).endsWith('/waf_migration/status'));
    expect(status.length).toBeGreaterThan(0);
    for (const x of status) {
      const r = (x.responseBody as Json).result;
      expect(['default', 'start', 'validation', 'complete']).toContain(r.migration_state);
      expect(['enabled', 'disabled']).toContain(r.old_waf_status);
      expect(['enabled', 'disabled']).toContain(r.new_waf_status);
      expect(['defaults', 'zone']).toContain(r.source);
      expect(r).toHaveProperty('created');
    }
    for (const x of seen.filter((e) => pathOf(e).endsWith('/waf_migration/check'))) {
      expect(x.url).toContain('phase_two=1');
      expect((x.responseBody as Json).result).toMatchObject({
        compatible: expect.any(Boolean),
        migration_state: expect.any(String),
      });
    }
    const config = seen.filter((x) => pathOf(x).endsWith('/waf_migration/config'));
    expect(config.length).toBeGreaterThan(0);
    for (const x of config) {
      expect(x.url).toContain('phase_two=1');
      expect((x.responseBody as Json).result).toMatchObject({ rules: expect.any(Array) });
    }
    // the migrating PUT carries the documented query (docs/reference/service-api.md, "Update zone entry point ruleset")
    const put = wafBed.contract.exchanges.find(
      (x) => x.method === 'PUT' && pathOf(x).endsWith('/entrypoint'),
    );
    expect(put?.url).toMatch(/waf_migration=(pending|1)&phase_two=1|phase_two=1&waf_migration=(pending|1)/);
  });
});
