/**
 * Page Shield: settings, detected scripts/connections/cookies (from fixtures), CSP policies.
 * Token-only, like the real API (its permission area is declared `tokenOnly`).
 */
import type { AreaModule } from '../../area.js';
import { detectedItemRoutes } from './detected.js';
import { loadPageShieldFixtures } from './fixtures.js';
import { pageShieldSettingsAndPolicyRoutes } from './settings-policies.js';
import { PAGE_SHIELD_MIGRATIONS } from './store.js';

export const pageShieldArea: AreaModule = {
  name: 'page_shield',
  permissions: [{ name: 'page_shield', tokenOnly: true }],
  migrations: PAGE_SHIELD_MIGRATIONS,
  routes(router) {
    pageShieldSettingsAndPolicyRoutes(router);
    detectedItemRoutes(router);
  },
  fixtures: { zone: { page_shield: loadPageShieldFixtures } },
  onZoneDeleted(app, zone) {
    for (const t of ['page_shield_settings', 'page_shield_items', 'page_shield_policies']) {
      app.db.prepare(`DELETE FROM ${t} WHERE zone_id = ?`).run(zone.id);
    }
  },
};
