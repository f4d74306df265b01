import type { JsonSchema } from '../../config/json-schema.js';

/** JSON Schema fragment for `waf` (placeholder; src/config/ owns its content). */
export const wafSchema: JsonSchema = { type: 'object' };
