import type { KindDefinition } from '../../core/kind.js';
import { withoutPolicyMarkers } from './owners.js';
import { buildPageShield } from './build.js';
import { exportPageShield } from './export.js';
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
  export: { value: (live, ctx) => exportPageShield(withoutPolicyMarkers(live), ctx) },
  fixtures: pageShieldFixtures,
};
