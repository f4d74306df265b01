import type { KindDefinition } from '../../core/kind.js';
import { withoutRecordMarkers } from './owners.js';
import { buildDns } from './build.js';
import type { DesiredDns } from './desired.js';
import { exportDns } from './export.js';
import { unmanagedDns } from './unmanaged.js';
import { checkDnsRecords } from './export-check.js';
import { dnsFixtures } from './fixtures.js';
import { dnsMerge } from './merge.js';
import { dnsRuntime } from './runtime.js';
import { dnsEditorSchema, dnsSchema } from './schema.js';
import { validateDns } from './validate.js';
import { dnsSchemaView } from './schema-view.js';

export const dnsKind: KindDefinition = {
  key: 'dns',
  scope: 'zone',
  schema: dnsSchema,
  editorSchema: dnsEditorSchema,
  schemaView: dnsSchemaView,
  validate: validateDns,
  validatesPartly: true,
  runtime: dnsRuntime,
  build: buildDns,
  merge: dnsMerge,
  countRecords: (value) => (value as DesiredDns | undefined)?.records.length ?? 0,
  export: {
    value: (live, ctx) => exportDns(withoutRecordMarkers(live), ctx),
    check: checkDnsRecords,
    // pairing on the user's text: another owner's records are unmanaged by these files, not unknown
    unmanaged: (live, desired, owner) => unmanagedDns(withoutRecordMarkers(live), desired, owner),
  },
  fixtures: dnsFixtures,
};
