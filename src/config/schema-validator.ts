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

let cached: ValidateFunction | undefined;

export function schemaValidator(): ValidateFunction {
  if (cached) return cached;
  const schema = composeSchema();
  cached = generatedValidator(validatorHash(schema)) ?? createAjv().compile(schema);
  return cached;
}
