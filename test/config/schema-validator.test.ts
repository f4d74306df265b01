/**
 * The validator `npm run build` writes as ajv standalone code is the composed schema's: the built one
 * carries the current schema's hash, and standalone code generated from the schema reports exactly
 * the errors of the run-time compiled validator (every field ajv gives, `verbose` ones included) on
 * the examples and on a seeded set of malformed files.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createAjv, validatorHash } from '../../src/config/ajv-setup.js';
import { composeSchema } from '../../src/config/schema.js';
import { generatedValidator, schemaValidator } from '../../src/config/schema-validator.js';
import { badFiles, desiredExamples } from '../reliability/bad-files.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(import.meta.url);

/** The standalone module as the build writes it, evaluated in place (its requires resolve from here). */
function standalone(): ValidateFunction {
  const standaloneCode = (
    require('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js')
  ).default;
  const ajv = createAjv(false, true);
  const code = standaloneCode(ajv, ajv.compile(composeSchema()));
  const module = { exports: {} as any };
  new Function('module', 'exports', 'require', code)(module, module.exports, require);
  return module.exports.default as ValidateFunction;
}

function errorsOf(validate: ValidateFunction, value: unknown) {
  validate(value);
  return validate.errors ?? [];
}

describe('the standalone schema validator', () => {
  const runtime = createAjv().compile(composeSchema());
  const generated = standalone();
  const documents: { name: string; value: unknown }[] = [];
  for (const { name, text } of desiredExamples(root))
    documents.push({ name, value: parse(text, { logLevel: 'error' }) });
  // the small ones: the big files are about the reader's limits, not the schema
  for (const bad of badFiles(root, 1717, 6).filter((b) => b.bytes.length < 100_000)) {
    try {
      documents.push({ name: bad.name, value: parse(bad.bytes.toString('utf8'), { logLevel: 'error' }) });
    } catch {
      // not YAML at all: the schema never sees it
    }
  }

  it('gives the run-time validator’s errors, field for field, on examples and malformed files', () => {
    expect(documents.length).toBeGreaterThan(20);
    let withErrors = 0;
    for (const { name, value } of documents) {
      const want = errorsOf(runtime, value);
      if (want.length > 0) withErrors++;
      // as text: the errors quote their schema and value (`verbose`), a deep compare is slow
      expect(JSON.stringify(errorsOf(generated, value)), name).toBe(JSON.stringify(want));
    }
    expect(withErrors).toBeGreaterThan(10);
  });

  it('is the one the build wrote, made from the current schema (else run: npm run build)', () => {
    const built = `${root}dist/config/schema-validator.generated.cjs`;
    if (!existsSync(built)) return; // vitest on src/ without a build: the run-time compile is used
    const hash = /module\.exports\.hash = "([0-9a-f]{64})"/.exec(readFileSync(built, 'utf8'))?.[1];
    expect(hash).toBe(validatorHash(composeSchema()));
  });

  it('is not used when its hash differs: the schema is compiled at run time instead', () => {
    expect(generatedValidator('0'.repeat(64))).toBeUndefined();
    expect(schemaValidator()({ version: 1 })).toBe(true);
  });
});
