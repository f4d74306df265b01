import type { KindDefinition } from '../../core/kind.js';
import { withoutPolicyMarkers } from './owners.js';
import { buildPageShield } from './build.js';
import { exportPageShield } from './export.js';
import { unmanagedPageShield } from './unmanaged.js';
import { pageShieldFixtures } from './fixtures.js';
import { pageShieldRuntime } from './runtime.js';
import { pageShieldSchema } from './schema.js';
import { validatePageShield } from './validate.js';

export const pageShieldKind: KindDefinition = {
  key: 'page_shield',
  scope: 'zone',
  schema: pageShieldSchema,
  validate: validatePageShield,
  runtime: pageShieldRuntime,
  build: buildPageShield,
  // a policy is identified by its description (./plan.ts pairs by it); `enabled` and the rest are settings
  merge: { lists: { policies: (policy) => String(policy.description) } },
  export: {
    value: (live, ctx) => exportPageShield(withoutPolicyMarkers(live), ctx),
    unmanaged: (live, desired) => unmanagedPageShield(withoutPolicyMarkers(live), desired),
  },
  fixtures: pageShieldFixtures,
};
