/**
 * The fields of a pool as POST/PUT/PATCH accept them, and the whole pool with defaults filled.
 * Only the fields this project relies on are checked closely; the other fields of the API's pool
 * schema are kept as given, and fields the schema does not have are dropped, as the real API does
 * (a pool never stores or echoes a field a client made up).
 */
import { checkNotificationEmail } from '../../../rules/notifications/index.js';
import { isPlainObject, type RuleViolation } from '../area-helpers/replies.js';
import type { Pool } from './store.js';

export function checkPoolFields(body: unknown, partial: boolean): RuleViolation[] {
  if (!isPlainObject(body)) return [{ path: '', message: 'the body must be a JSON object' }];
  const out: RuleViolation[] = [];
  if (
    body.name === undefined
      ? !partial
      : typeof body.name !== 'string' || !/^[A-Za-z0-9_.-]{1,256}$/.test(body.name)
  ) {
    out.push({ path: 'name', message: 'is required: letters, digits, ".", "-" and "_" only' });
  }
  if (body.origins === undefined) {
    if (!partial) out.push({ path: 'origins', message: 'is required: a list of {name, address}' });
  } else if (!Array.isArray(body.origins) || body.origins.length === 0) {
    out.push({ path: 'origins', message: 'must be a non-empty list of {name, address}' });
  } else {
    body.origins.forEach((o, i) => {
      if (!isPlainObject(o)) return void out.push({ path: `origins[${i}]`, message: 'must be an object' });
      if (typeof o.name !== 'string' || o.name === '')
        out.push({ path: `origins[${i}].name`, message: 'is required' });
      if (typeof o.address !== 'string' || o.address === '')
        out.push({ path: `origins[${i}].address`, message: 'is required' });
      if (o.enabled !== undefined && typeof o.enabled !== 'boolean')
        out.push({ path: `origins[${i}].enabled`, message: 'must be true or false' });
      if (o.weight !== undefined && (typeof o.weight !== 'number' || o.weight < 0 || o.weight > 1)) {
        out.push({ path: `origins[${i}].weight`, message: 'must be a number from 0 to 1' });
      }
    });
  }
  out.push(...checkNotificationEmail(body.notification_email));
  if (body.enabled !== undefined && typeof body.enabled !== 'boolean')
    out.push({ path: 'enabled', message: 'must be true or false' });
  if (
    body.minimum_origins !== undefined &&
    (!Number.isInteger(body.minimum_origins) || (body.minimum_origins as number) < 1)
  ) {
    out.push({ path: 'minimum_origins', message: 'must be a whole number of at least 1' });
  }
  for (const key of ['description', 'monitor'] as const) {
    if (body[key] !== undefined && body[key] !== null && typeof body[key] !== 'string')
      out.push({ path: key, message: 'must be a string' });
  }
  if (
    body.notification_filter !== undefined &&
    body.notification_filter !== null &&
    !isPlainObject(body.notification_filter)
  ) {
    out.push({ path: 'notification_filter', message: 'must be an object' });
  }
  return out;
}

/** A schema level: `true` keeps the value as given; an object keeps those keys (of each item, for a list). */
type Shape = true | { readonly [key: string]: Shape };

const HEALTH_FILTER: Shape = { disable: true, healthy: true };
/** What a client may set on an origin (disabled_at is the server's). */
const ORIGIN: Shape = {
  name: true,
  address: true,
  enabled: true,
  weight: true,
  header: { Host: true },
  virtual_network_id: true,
};
/** What a client may set on a pool: the pool schema minus the server's id, created_on, modified_on, disabled_at. */
const POOL: Shape = {
  name: true,
  description: true,
  enabled: true,
  minimum_origins: true,
  monitor: true,
  notification_email: true,
  notification_filter: { origin: HEALTH_FILTER, pool: HEALTH_FILTER },
  origins: ORIGIN,
  origin_steering: { policy: true },
  load_shedding: { default_percent: true, default_policy: true, session_percent: true, session_policy: true },
  check_regions: true,
  latitude: true,
  longitude: true,
};

/** The value with only the keys its shape has; values of other types are left for the checks to judge. */
function known(value: unknown, shape: Shape): unknown {
  if (shape === true) return value;
  if (Array.isArray(value)) return value.map((item) => known(item, shape));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(shape)) {
    if (Object.hasOwn(value, key)) out[key] = known(value[key], inner);
  }
  return out;
}

/** A pool document: server fields and defaults around the given fields (unknown ones dropped). */
export function poolDoc(
  id: string,
  fields: Record<string, unknown>,
  created: string,
  modified: string,
): Pool {
  const given = known(fields, POOL) as Record<string, unknown>;
  const origins = (Array.isArray(given.origins) ? given.origins : []).map((o: Record<string, unknown>) => ({
    enabled: true,
    weight: 1,
    ...o,
  }));
  return {
    description: '',
    enabled: true,
    minimum_origins: 1,
    monitor: null,
    notification_email: '',
    notification_filter: null,
    ...given,
    origins,
    id,
    name: String(fields.name),
    created_on: created,
    modified_on: modified,
  } as Pool;
}
