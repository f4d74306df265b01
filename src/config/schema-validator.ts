/**
 * The validator of the composed schema. `npm run build` writes it as ajv standalone code
 * (dist/config/schema-validator.generated.cjs, by write-validator.ts), so a run of the CLI does not
 * compile the schema (the largest part of a `validate`'s CPU when it did). The generated module
 * carries the hash of what it was generated from; when it is missing (tests run src/) or its hash
 * differs from the current schema's, the schema is compiled at run time exactly as before.
 */
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { createAjv, validatorHash } from './ajv-setup.js';
import { composeSchema } from './schema.js';
import type { JsonSchema } from './json-schema.js';
import { loadCommonJs } from '../commonjs-loader.js';

export const GENERATED_VALIDATOR = 'schema-validator.generated.cjs';

interface GeneratedModule {
  hash: string;
  validate: ValidateFunction;
}

/** The generated validator when present and made from this very schema; undefined otherwise. */
export function generatedValidator(hash: string): ValidateFunction | undefined {
  let mod: GeneratedModule;
  try {
    mod = loadCommonJs(fileURLToPath(new URL(GENERATED_VALIDATOR, import.meta.url))) as GeneratedModule;
  } catch {
    return undefined;
  }
  return mod.hash === hash && typeof mod.validate === 'function' ? mod.validate : undefined;
}

/**
 * The hash of the schema the CLI's bundle composes, which scripts/bundle.js computes from the same
 * dist/ it bundles; undefined outside the bundle. With it a run neither composes the schema nor
 * hashes it (node:crypto is then never loaded by `validate`: some 4 ms of its start).
 */
declare const BUNDLED_SCHEMA_HASH: string | undefined;

let cached: ValidateFunction | undefined;

export function schemaValidator(): ValidateFunction {
  if (cached) return cached;
  let schema: JsonSchema | undefined;
  const composed = () => (schema ??= composeSchema());
  const hash = typeof BUNDLED_SCHEMA_HASH === 'string' ? BUNDLED_SCHEMA_HASH : validatorHash(composed());
  cached = generatedValidator(hash) ?? createAjv().compile(composed());
  return cached;
}
