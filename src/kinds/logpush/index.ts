import type { KindDefinition } from '../../core/kind.js';
import { withoutJobMarkers } from './owners.js';
import { buildLogpush } from './build.js';
import { exportLogpush } from './export.js';
import { logpushFixtures } from './fixtures.js';
import { logpushRuntime } from './runtime.js';
import { logpushEditorSchema, logpushSchema } from './schema.js';
import { validateLogpush } from './validate.js';

export const logpushKind: KindDefinition = {
  key: 'logpush',
  scope: 'zone',
  schema: logpushSchema,
  editorSchema: logpushEditorSchema,
  validate: validateLogpush,
  validatesPartly: true,
  runtime: logpushRuntime,
  build: buildLogpush,
  export: { value: (live, ctx) => exportLogpush(withoutJobMarkers(live), ctx) },
  fixtures: logpushFixtures,
};
