import { it } from 'vitest';
import { startAreaServer, ZONES, ACCOUNT } from '../setup.js';
it('smoke', async () => {
  const t = await startAreaServer();
  for (const p of [`/zones/${ZONES.pro}/page_shield`, `/zones/${ZONES.pro}/page_shield/scripts?per_page=3`, `/zones/${ZONES.pro}/waf_migration/check?phase_two=1`, `/zones/${ZONES.pro}/waf_migration/config?phase_two=1`, `/zones/${ZONES.pro}/waf_migration/status`, `/accounts/${ACCOUNT}/load_balancers/pools`, `/zones/${ZONES.pro}/firewall/waf/packages`]) {
    const r = await t.api('GET', p);
    console.log(p, r.status, r.text.slice(0, 600));
  }
  await t.close();
});
