import { describe, expect, it } from 'vitest';
import { checkFile } from '../../../src/config/load.js';

const example = (name: string) => new URL(`../../../examples/${name}`, import.meta.url).pathname;

describe('examples/page-shield.yaml', () => {
  it('examples/page-shield.yaml validates with no diagnostics', async () => {
    const r = await checkFile(example('page-shield.yaml'), { env: {} });
    expect(r.diagnostics).toEqual([]);
    expect(r.desired?.zones[0].page_shield?.policies?.[1].path).toBe('zones[0].page_shield.policies[1]');
  });
});
