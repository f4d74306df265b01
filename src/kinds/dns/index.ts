import type { KindDefinition } from '../../core/kind.js';
import { buildDns } from './build.js';
import type { DesiredDns } from './desired.js';
import { exportDns } from './export.js';
import { dnsSchemaView } from './certify.js';
import { checkDnsRecords } from './export-check.js';
import { dnsFixtures } from './fixtures.js';
import { dnsRuntime } from './runtime.js';
import { dnsEditorSchema, dnsSchema } from './schema.js';
import { validateDns } from './validate.js';

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
  countRecords: (value) => (value as DesiredDns | undefined)?.records.length ?? 0,
  export: { value: exportDns, check: checkDnsRecords },
  fixtures: dnsFixtures,
};
