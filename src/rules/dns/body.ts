/**
 * The one record body: a record as a request sends it (POST, or the base a PATCH edits), built
 * from the record model's fields. The planner sends it for a create (src/kinds/dns/plan.ts) and the
 * local API starts a PATCH from it (src/server/areas/dns/write.ts); both see the same fields.
 */
import { MANAGED_FIELD_NAMES } from './fields.js';

/** Every field a client may send; the rest (server-set or unknown) is ignored, as the real API does. */
export const BODY_FIELDS: readonly string[] = [
  'name',
  'type',
  'content',
  'data',
  'priority',
  'proxied',
  'ttl',
  ...MANAGED_FIELD_NAMES,
];

/** Fields beside the value that a body carries only when the record has them. */
const OPTIONAL: readonly string[] = ['priority', ...MANAGED_FIELD_NAMES];

/** What a record body is built from: a record in the planner's or the local API's form. */
export interface BodySource {
  name: string;
  type: string;
  ttl: number;
  proxied: boolean;
  content?: string;
  data?: Record<string, unknown>;
}

/**
 * The request body of a record: name, type, TTL, proxy status, its `data` (structured types) or
 * else its `content`, and each optional field it has (undefined ones are left out).
 */
export function recordBody(r: BodySource): Record<string, unknown> {
  const b: Record<string, unknown> = { name: r.name, type: r.type, ttl: r.ttl, proxied: r.proxied };
  if (r.data) b.data = r.data;
  else b.content = r.content;
  const fields = r as unknown as Record<string, unknown>;
  for (const f of OPTIONAL) if (fields[f] !== undefined) b[f] = fields[f];
  return b;
}
