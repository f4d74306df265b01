import type { KindDefinition } from '../../core/kind.js';
import { withoutPolicyMarkers } from './owners.js';
import { exportLoadBalancing } from './export.js';
import { loadBalancingFixtures } from './fixtures.js';
import { loadBalancingRuntime } from './runtime.js';
import { loadBalancingSchema } from './schema.js';
import { validateLoadBalancing } from './validate.js';

export const loadBalancingKind: KindDefinition = {
  key: 'load_balancing',
  scope: 'account',
  schema: loadBalancingSchema,
  validate: validateLoadBalancing,
  runtime: loadBalancingRuntime,
  export: { value: (live, ctx) => exportLoadBalancing(withoutPolicyMarkers(live), ctx) },
  fixtures: loadBalancingFixtures,
};
