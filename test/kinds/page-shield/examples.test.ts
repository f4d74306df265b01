import { describe, expect, it } from 'vitest';
import { checkFile } from '../../../src/config/load.js';
import type { DesiredPageShield } from '../../../src/kinds/page-shield/desired.js';

const example = (name: string) => new URL(`../../../examples/${name}`, import.meta.url).pathname;

describe('examples/page-shield.yaml', () => {
  it('examples/page-shield.yaml validates with no diagnostics', async () => {
    const r = await checkFile(example('page-shield.yaml'), { env: {} });
    expect(r.diagnostics).toEqual([]);
    expect((r.desired?.zones[0].page_shield as DesiredPageShield | undefined)?.policies?.[1].path).toBe(
      'zones[0].page_shield.policies[1]',
    );
  });
});

describe('examples/page-shield.yaml planned against the local API', () => {
  it('plans the switch and both policies', async () => {
    const { fixtures, harness } = await import('./helpers.js');
    const h = await harness(fixtures([{ name: 'shop.example', page_shield: { enabled: false } }]));
    try {
      const r = await h.cli(['plan', example('page-shield.yaml'), '--detailed-exitcode']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toContain('~ update settings');
      expect(r.stdout).toContain('+ create policy "log third-party scripts"');
      expect(r.stdout).toContain('+ create policy "checkout allow-list"');
    } finally {
      await h.close();
    }
  });
});
