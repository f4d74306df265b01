import type { KindDefinition } from '../../core/kind.js';
import { zonesFixtures } from './fixtures.js';
import { zonesRuntime } from './runtime.js';

/** Zones themselves: created when missing, deleted only with `delete: true`. No key of its own. */
export const zonesKind: KindDefinition = {
  key: '',
  scope: 'zone',
  runtime: zonesRuntime,
  fixtures: zonesFixtures,
};
