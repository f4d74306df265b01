/**
 * The checked-in schema is the composed one (as changesets snapshot-tests its JSON schema), it is a
 * valid 2020-12 schema that ajv compiles strictly, and every desired-state example validates.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkFile } from '../../src/config/load.js';
import { composeSchema, schemaText, SCHEMA_ID } from '../../src/config/schema.js';
import { createAjv } from '../../src/config/schema-check.js';
import { allKinds } from '../../src/kinds/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('schema/zoneplan.schema.json', () => {
  it('is up to date with the kinds (else run: npm run schema)', () => {
    const current = readFileSync(`${root}schema/zoneplan.schema.json`, 'utf8');
    if (current !== schemaText()) {
      throw new Error(
        'schema/zoneplan.schema.json differs from composeSchema(); regenerate it with\n' +
          '  npx tsc -p tsconfig.build.json && node dist/config/write-schema.js   (npm run schema)',
      );
    }
  });

  it('is a 2020-12 schema with an id, titles and descriptions for editors', () => {
    const schema = composeSchema();
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(SCHEMA_ID);
    expect(typeof schema.title).toBe('string');
    expect(typeof schema.description).toBe('string');
  });

  it('has one property per registered kind, under zones or accounts by scope', () => {
    const schema = composeSchema() as any;
    for (const kind of allKinds()) {
      if (!kind.key) continue;
      const where = kind.scope === 'zone' ? schema.properties.zones : schema.properties.accounts;
      expect(where.items.properties[kind.key], kind.key).toBeDefined();
    }
  });

  it('compiles with ajv in strict mode (no misspelt keywords in any fragment)', () => {
    expect(() => createAjv(true).compile(composeSchema())).not.toThrow();
  });
});

describe('examples/', () => {
  const dir = `${root}examples/`;
  // fixtures*.yaml are local-API fixtures, not desired-state files
  const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f) && !f.startsWith('fixtures'));

  it('holds the quick start', () => {
    expect(files).toContain('quickstart.yaml');
    expect(readFileSync(`${dir}quickstart.yaml`, 'utf8')).toMatch(
      /^# yaml-language-server: \$schema=\.\.\/schema\/zoneplan\.schema\.json$/m,
    );
  });

  it.each(files)('%s validates', async (name) => {
    // examples may reference secrets as ${env:NAME}; unset ones are warnings here
    const result = await checkFile(`${dir}${name}`, { env: {}, allowMissingEnv: true });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});
