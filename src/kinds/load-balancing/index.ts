import type { KindDefinition } from '../../core/kind.js';
import { withoutPolicyMarkers } from './owners.js';
import { exportLoadBalancing } from './export.js';
import { unmanagedLoadBalancing } from './unmanaged.js';
import { loadBalancingFixtures } from './fixtures.js';
import { loadBalancingRuntime } from './runtime.js';
import { loadBalancingSchema } from './schema.js';
import { validateLoadBalancing } from './validate.js';

export const loadBalancingKind: KindDefinition = {
  key: 'load_balancing',
  scope: 'account',
  schema: loadBalancingSchema,
  validate: validateLoadBalancing,
  // a policy is identified by its name, as ./validate.ts compares names (trimmed, any case)
  merge: { lists: { notifications: (policy) => String(policy.name).trim().toLowerCase() } },
  runtime: loadBalancingRuntime,
  export: {
    value: (live, ctx) => exportLoadBalancing(withoutPolicyMarkers(live), ctx),
    unmanaged: (live, desired) => unmanagedLoadBalancing(withoutPolicyMarkers(live), desired),
  },
  fixtures: loadBalancingFixtures,
};
