/**
 * Logpush: zone jobs and destination ownership challenges. Accepts API tokens and e-mail/key pairs.
 * Fixtures: `zones[].logpush.jobs` (./fixtures.ts).
 * Test-only: `GET /__zoneplan/zones/:zone_id/logpush/ownership?destination_conf=...` reveals the
 * issued challenge.
 */
import type { AreaModule } from '../../area.js';
import { loadLogpushFixtures } from './fixtures.js';
import { logpushJobRoutes } from './jobs.js';
import { ownershipRoutes, ownershipTestRoutes } from './ownership.js';
import { LOGPUSH_MIGRATIONS } from './store.js';

export const logpushArea: AreaModule = {
  name: 'logpush',
  permissions: [{ name: 'logpush' }],
  migrations: LOGPUSH_MIGRATIONS,
  routes(router) {
    logpushJobRoutes(router);
    ownershipRoutes(router);
  },
  testRoutes(router) {
    ownershipTestRoutes(router);
  },
  fixtures: { zone: { logpush: loadLogpushFixtures } },
  onZoneDeleted(app, zone) {
    for (const t of ['logpush_jobs', 'logpush_ownership', 'logpush_proven', 'logpush_validated'])
      app.db.prepare(`DELETE FROM ${t} WHERE zone_id = ?`).run(zone.id);
  },
};
