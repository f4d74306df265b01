/**
 * Logpush: zone jobs and destination ownership challenges. Accepts API tokens and e-mail/key pairs.
 * Test-only: `GET /__zoneplan/zones/:zone_id/logpush/ownership?destination_conf=...` reveals the
 * issued challenge.
 */
import type { AreaModule } from '../../area.js';
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
  onZoneDeleted(app, zone) {
    app.db.prepare('DELETE FROM logpush_jobs WHERE zone_id = ?').run(zone.id);
    app.db.prepare('DELETE FROM logpush_ownership WHERE zone_id = ?').run(zone.id);
  },
};
