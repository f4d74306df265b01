/**
 * Account notification policies (alerting v3), plus the test-only pool health hook that records
 * alerts and legacy e-mails (see ./health-hook.ts). Accepts API tokens and e-mail/key pairs. The
 * fixtures section `accounts[].notification_policies` seeds policies (./fixtures.ts).
 */
import type { AreaModule } from '../../area.js';
import { loadPolicyFixtures } from './fixtures.js';
import { healthTestRoutes } from './health-hook.js';
import { NOTIFICATION_MIGRATIONS, policyRoutes } from './policies.js';

export const notificationsArea: AreaModule = {
  name: 'notifications',
  permissions: [{ name: 'notifications' }],
  migrations: NOTIFICATION_MIGRATIONS,
  routes(router) {
    policyRoutes(router);
  },
  fixtures: { account: { notification_policies: loadPolicyFixtures } },
  testRoutes(router) {
    healthTestRoutes(router);
  },
};
