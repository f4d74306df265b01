import type { JsonSchema } from '../../config/json-schema.js';

/** JSON Schema fragment for `logpush` (placeholder; src/config/ owns its content). */
export const logpushSchema: JsonSchema = { type: 'object' };
