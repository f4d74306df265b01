import type { JsonSchema } from '../../config/json-schema.js';

/** JSON Schema fragment for `load_balancing` (placeholder; src/config/ owns its content). */
export const loadBalancingSchema: JsonSchema = { type: 'object' };
