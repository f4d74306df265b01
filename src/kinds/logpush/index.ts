import type { KindDefinition } from '../../core/kind.js';
import { withoutJobMarkers } from './owners.js';
import { buildLogpush } from './build.js';
import { exportLogpush } from './export.js';
import { unmanagedLogpush } from './unmanaged.js';
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
  // a job is identified by its name (./plan.ts pairs by it); `purge` is a setting
  merge: { lists: { jobs: (job) => String(job.name) } },
  export: {
    value: (live, ctx) => exportLogpush(withoutJobMarkers(live), ctx),
    unmanaged: (live, desired) => unmanagedLogpush(withoutJobMarkers(live), desired),
  },
  fixtures: logpushFixtures,
};
