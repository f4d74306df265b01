/**
 * The JSON Schema of the whole desired-state file, composed from the top-level shape below and the
 * fragment of every kind in the registry (one property per kind under a zone or an account entry).
 * `schema/zoneplan.schema.json` is the checked-in copy that editors use; a test fails when it
 * differs from this, and `node dist/config/write-schema.js` regenerates it.
 *
 * Kind fragments are embedded (inline for editors, under `$defs` with an `$id` of their own for
 * zoneplan's checks), so they must be self-contained (no `$ref` to `#/...`).
 */
import { allKinds } from '../kinds/index.js';
import type { JsonSchema } from './json-schema.js';
import { withReferences } from './editor-schema.js';
import { ID32_ANY_CASE_PATTERN } from '../rules/shared/values.js';
import { OWNER_NAME_PATTERN } from '../kinds/shared/owners.js';
import { VARIABLE_TYPES } from './declared-vars.js';

export const SCHEMA_ID = 'https://zoneplan.dev/schema/v1/zoneplan.schema.json';
const KINDS_ID = 'https://zoneplan.dev/schema/v1/kinds/';

// Labels of letters, digits and inner hyphens; the last label starts with a letter and has two or
// more characters (the local API's rule for zone names).
const ZONE_NAME_PATTERN =
  '^(?=.{1,253}\\.?$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z][A-Za-z0-9-]{0,61}[A-Za-z0-9]\\.?$';

const accountId = (description: string): JsonSchema => ({
  type: 'string',
  pattern: ID32_ANY_CASE_PATTERN,
  patternErrorMessage: 'expected an account id: 32 hexadecimal characters',
  description,
});

/** `owner` and `adopt` of a zone or account entry (docs/sharing-a-zone.md). */
const ownership: Record<string, JsonSchema> = {
  owner: {
    type: 'string',
    pattern: OWNER_NAME_PATTERN,
    patternErrorMessage: 'expected an owner name: letters, digits, - and _',
    description:
      'marks every object zoneplan writes for this entry; purge then deletes only objects with this mark, and ' +
      "objects with another owner's mark are never changed",
  },
  adopt: {
    type: 'boolean',
    default: false,
    description:
      'with owner: take over (and mark) unmarked live objects the file names; without it they are a plan error',
  },
};

const target: JsonSchema = {
  type: 'object',
  title: 'Target',
  description:
    'Where plan/apply/drift go when neither --api-url nor CLOUDFLARE_BASE_URL is set. Omit it to use the real API ' +
    'when credentials are set, else the embedded local API.',
  additionalProperties: false,
  minProperties: 1,
  maxProperties: 1,
  properties: {
    api_url: {
      type: 'string',
      format: 'uri',
      pattern: '^https?://',
      patternErrorMessage: 'expected an http:// or https:// URL',
      description: 'base URL of a v4 API, e.g. http://127.0.0.1:8787/client/v4',
    },
    local: {
      type: 'object',
      description: 'the embedded local API',
      additionalProperties: false,
      properties: {
        db: {
          type: 'string',
          minLength: 1,
          description: 'SQLite file, relative to this file (default .zoneplan/local.db)',
        },
        fixtures: {
          type: 'string',
          minLength: 1,
          description: 'fixtures YAML seeded into the store, relative to this file',
        },
      },
    },
  },
};

/** The kinds' schema titles for the file's description (`DNS, Page Shield, ...`), in registry order. */
const titles = (kinds: Record<string, JsonSchema>) =>
  Object.entries(kinds)
    .map(([key, schema]) => (typeof schema.title === 'string' ? schema.title : key))
    .join(', ');

/**
 * The schema of the whole file, as data; deterministic for a given registry. `forEditors` takes each
 * kind's `editorSchema` where it has one (the shipped file); zoneplan checks files without it.
 */
export function composeSchema(forEditors = false): JsonSchema {
  const zoneKinds: Record<string, JsonSchema> = {};
  const accountKinds: Record<string, JsonSchema> = {};
  // zoneplan's checks reach each kind's fragment by `$ref`, so ajv compiles it as a function of its
  // own (inlineRefs: false, ./ajv-setup.ts), which V8 optimises while it loops over a zone's 10,000
  // records; the whole schema as one function (350 KB) is too large for that. Validate of 10,000
  // records: 243 -> 231 ms of CPU (medians of 25 interleaved runs). Editors get the fragments in place.
  const fragments: Record<string, JsonSchema> = {};
  for (const kind of allKinds()) {
    if (!kind.key) continue;
    const fragment = (forEditors ? kind.editorSchema : undefined) ?? kind.schema ?? { type: 'object' };
    const id = `${KINDS_ID}${kind.scope}-${kind.key}.json`;
    if (!forEditors) fragments[`${kind.scope}-${kind.key}`] = { $id: id, ...fragment };
    (kind.scope === 'zone' ? zoneKinds : accountKinds)[kind.key] = forEditors ? fragment : { $ref: id };
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: SCHEMA_ID,
    title: 'zoneplan desired state',
    description:
      `The configuration zoneplan makes live: zones (${titles(zoneKinds)}) and accounts ` +
      `(${titles(accountKinds)}). Any value may be \`\${var:NAME}\` (a typed variable) or, for ` +
      'secrets, `${env:NAME}`.',
    type: 'object',
    additionalProperties: false,
    required: ['version'],
    properties: {
      $schema: { type: 'string', description: 'the schema this file follows (for editors)' },
      version: { const: 1, description: 'format version of this file; always 1' },
      vars: {
        type: 'object',
        description:
          'typed, non-secret variables: `${var:NAME}` uses one, and a value that is exactly one reference takes ' +
          "the variable's type (`ttl: ${var:ttl}` is a number). --var-file and --var override them; plans show them.",
        propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
      },
      variables: {
        type: 'object',
        description:
          "declared variables (like Terraform's): each with a type, a default and a description. Once a file " +
          'declares them, `${var:NAME}` must name a declared one, and --var / --var-file values must be of its type.',
        propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
        additionalProperties: {
          type: 'object',
          title: 'Variable',
          description: 'One declared variable: its type, its default and what it is for.',
          additionalProperties: false,
          properties: {
            type: {
              enum: [...VARIABLE_TYPES],
              description:
                'the sort of value it takes (default any); a number or boolean given for a string becomes text',
            },
            default: {
              description: 'its value when the command line gives none; without one, it must be given',
            },
            description: { type: 'string', description: 'what it is for' },
          },
        },
      },
      target,
      accounts: {
        type: 'array',
        description: 'account-level configuration; an account id may appear once',
        items: {
          type: 'object',
          title: 'Account',
          description: 'One account: its id and its account-level kinds.',
          additionalProperties: false,
          required: ['id'],
          dependentRequired: { adopt: ['owner'] },
          properties: { id: accountId('account id'), ...ownership, ...accountKinds },
        },
      },
      zones: {
        type: 'array',
        description: 'zones and their configuration; a zone name may appear once',
        items: {
          type: 'object',
          title: 'Zone',
          description: 'One zone: its name, owning account and its kinds.',
          additionalProperties: false,
          required: ['name'],
          dependentRequired: { adopt: ['owner'] },
          properties: {
            name: {
              type: 'string',
              pattern: ZONE_NAME_PATTERN,
              patternErrorMessage: 'expected a domain name such as example.com (an IDN in punycode, xn--...)',
              description: 'the zone (domain) name',
            },
            account: accountId('account that owns the zone; needed to create it'),
            delete: {
              type: 'boolean',
              default: false,
              description: 'delete this zone and everything in it; a zone is never deleted otherwise',
            },
            type: { enum: ['full', 'partial', 'secondary'], default: 'full', description: 'zone setup type' },
            ...ownership,
            ...zoneKinds,
          },
        },
      },
    },
    ...(forEditors ? {} : { $defs: fragments }),
  };
}

/**
 * The schema as the checked-in file holds it, for editors: references accepted wherever a value
 * may be (./editor-schema.ts), two-space JSON and a final newline.
 */
export function schemaText(): string {
  return JSON.stringify(withReferences(composeSchema(true)), null, 2) + '\n';
}
