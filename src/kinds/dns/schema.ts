import type { JsonSchema } from '../../config/json-schema.js';

/** JSON Schema fragment for `dns` (placeholder; src/config/ owns its content). */
export const dnsSchema: JsonSchema = { type: 'object' };
