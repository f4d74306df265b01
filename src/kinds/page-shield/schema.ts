import type { JsonSchema } from '../../config/json-schema.js';

/** JSON Schema fragment for `page_shield` (placeholder; src/config/ owns its content). */
export const pageShieldSchema: JsonSchema = { type: 'object' };
