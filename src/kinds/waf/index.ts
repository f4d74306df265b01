import type { KindDefinition } from '../../core/kind.js';
import { exportWaf } from './export.js';
import { wafFixtures } from './fixtures.js';
import { wafRuntime } from './runtime.js';
import { wafSchema } from './schema.js';
import { validateWaf } from './validate.js';

export const wafKind: KindDefinition = {
  key: 'waf',
  scope: 'zone',
  schema: wafSchema,
  validate: validateWaf,
  runtime: wafRuntime,
  export: { value: exportWaf },
  fixtures: wafFixtures,
};
