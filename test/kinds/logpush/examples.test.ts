import { describe, expect, it } from 'vitest';
import { checkFile } from '../../../src/config/load.js';

const example = (name: string) => new URL(`../../../examples/${name}`, import.meta.url).pathname;

describe('examples/logpush.yaml', () => {
  it('examples/logpush.yaml validates once its variables are set, and needs them', async () => {
    const env = { LOGPUSH_S3_CHALLENGE: 'b3duZXJzaGlwLWNoYWxsZW5nZQ', LOGPUSH_HTTP_TOKEN: 'c0llect0r-t0ken' };
    const ok = await checkFile(example('logpush.yaml'), { env });
    expect(ok.diagnostics).toEqual([]);
    expect(ok.desired?.zones[0].logpush?.jobs[0].filter).toMatchObject({ where: { and: expect.any(Array) } });
    const missing = await checkFile(example('logpush.yaml'), { env: {} });
    expect(missing.diagnostics.map((d) => d.message).join('\n')).toMatch(/LOGPUSH_S3_CHALLENGE/);
  });
});
