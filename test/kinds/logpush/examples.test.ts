import { describe, expect, it } from 'vitest';
import { checkFile } from '../../../src/config/load.js';
import type { DesiredLogpush } from '../../../src/kinds/logpush/desired.js';

const example = (name: string) => new URL(`../../../examples/${name}`, import.meta.url).pathname;

describe('examples/logpush.yaml', () => {
  it('examples/logpush.yaml validates once its variables are set, and needs them', async () => {
    const env = { LOGPUSH_S3_CHALLENGE: 'b3duZXJzaGlwLWNoYWxsZW5nZQ', LOGPUSH_HTTP_TOKEN: 'c0llect0r-t0ken' };
    const ok = await checkFile(example('logpush.yaml'), { env });
    expect(ok.diagnostics).toEqual([]);
    expect((ok.desired?.zones[0].logpush as DesiredLogpush | undefined)?.jobs[0].filter).toMatchObject({
      where: { and: expect.any(Array) },
    });
    const missing = await checkFile(example('logpush.yaml'), { env: {} });
    expect(missing.diagnostics.map((d) => d.message).join('\n')).toMatch(/LOGPUSH_S3_CHALLENGE/);
  });
});

describe('examples/logpush.yaml planned against the local API', () => {
  it('plans both jobs without printing its secrets', async () => {
    const { fixtures, harness } = await import('../page-shield/helpers.js');
    const h = await harness(fixtures([{ name: 'logs.example' }]));
    const env = { LOGPUSH_S3_CHALLENGE: 'b3duZXJzaGlwLWNoYWxsZW5nZQ', LOGPUSH_HTTP_TOKEN: 'c0llect0r-t0ken' };
    try {
      const r = await h.cli(['plan', example('logpush.yaml'), '--detailed-exitcode'], env);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toContain('+ create job "http-to-bucket"');
      expect(r.stdout).toContain('+ create job "firewall-to-collector"');
      for (const secret of Object.values(env)) expect(r.stdout + r.stderr).not.toContain(secret);
    } finally {
      await h.close();
    }
  });
});
