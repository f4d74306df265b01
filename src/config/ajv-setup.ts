/**
 * The one ajv set-up zoneplan validates with, shared by the run-time compile (src/config/schema-check.ts)
 * and the build step that writes the same validator as standalone code (write-validator.ts). ajv is
 * loaded with a synchronous require and only when something compiles: a built CLI whose standalone
 * validator matches the schema never loads ajv's compiler at all.
 */
import { sha256 } from '../core/canonical.js';
import { createRequire } from 'node:module';
import type { Options } from 'ajv';
import type { FormatsPlugin } from 'ajv-formats';
import type { JsonSchema } from './json-schema.js';

const require = createRequire(import.meta.url);

/** Keywords that editors understand (VS Code / yaml-language-server) and ajv need not. */
export const EDITOR_KEYWORDS = [
  'patternErrorMessage',
  'markdownDescription',
  'errorMessage',
  'deprecationMessage',
];

/** A keyword of zoneplan's own, read by the messages (schema-check.ts), not by ajv. */
export const RETIRED_VALUES = 'retiredValues';

/** All errors (the messages list every problem), verbose (they quote the value and its schema). */
export const AJV_OPTIONS: Options = {
  allErrors: true,
  verbose: true,
  strictTypes: false,
  strictRequired: false,
  logger: false,
  // a schema reached by `$ref` is a function of its own (each kind's fragment: ./schema.ts)
  inlineRefs: false,
};

/**
 * A fresh ajv set up as zoneplan uses it; `strict` is for tests that check the schema itself,
 * `source` keeps the generated code for ajv's standalone output.
 */
export function createAjv(strict = false, source = false) {
  const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const formatsModule = require('ajv-formats') as FormatsPlugin & { default?: FormatsPlugin };
  const addFormats: FormatsPlugin = formatsModule.default ?? formatsModule;
  const ajv = new Ajv2020({ ...AJV_OPTIONS, strict, code: { source } });
  addFormats(ajv);
  for (const keyword of EDITOR_KEYWORDS) ajv.addKeyword({ keyword, schemaType: 'string' });
  // beside an `enum`: values that were once allowed, each with the message saying what to use now
  ajv.addKeyword({ keyword: RETIRED_VALUES, schemaType: 'object' });
  return ajv;
}

/**
 * What a standalone validator was generated from: the composed schema, the ajv options and the
 * editor keywords. A generated validator is used only when its hash equals the current one.
 */
export function validatorHash(schema: JsonSchema): string {
  return sha256(
    JSON.stringify({ schema, options: AJV_OPTIONS, keywords: [...EDITOR_KEYWORDS, RETIRED_VALUES] }),
  );
}
