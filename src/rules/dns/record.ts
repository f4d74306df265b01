/**
 * One record body (as a client sends it to POST/PUT, or a desired-state file holds it) checked
 * against every rule that needs only the record and its zone, and normalised to the stored form.
 * Rules that need the other records of the zone live in zone-rules.ts.
 */
import { hasData, checkValue } from './content.js';
import { checkRecordName, fullName, normaliseZoneName } from './names.js';
import {
  SERVICE_MANAGED_TYPES,
  PRIORITY_TYPES,
  checkProxied,
  checkTtl,
  checkType,
  effectiveTtl,
  isProxiable,
} from './types.js';
import { MANAGED_FIELDS, checkManagedField, type StoredFields } from './fields.js';
import { CODES, LOCAL_CODES, dnsError, isViolation, type Violation } from './violation.js';

/** A record in its stored form (the server adds ids, timestamps and meta). */
export interface NormalisedRecord extends StoredFields {
  /** full lower-case name */
  name: string;
  type: string;
  content: string;
  data?: Record<string, string | number>;
  priority?: number;
  proxied: boolean;
  proxiable: boolean;
  /** 1 = Auto */
  ttl: number;
}

export interface ZoneContext {
  name: string;
  /** free | pro | business | enterprise */
  plan: string;
}

export type RecordCheck = { record: NormalisedRecord } | { violations: Violation[] };

/**
 * Validates a record body for a zone and returns it normalised, or every violation found.
 * The name becomes the full lower-case name; the TTL becomes 1 when proxied or omitted; content
 * and data are both filled for structured types.
 */
export function checkRecord(body: unknown, zone: ZoneContext): RecordCheck {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { violations: [dnsError(LOCAL_CODES.badContent, 'The record must be a JSON object.')] };
  }
  const b = body as Record<string, unknown>;
  const violations: Violation[] = [];
  const t = checkType(b.type);
  if ('violation' in t) return { violations: [t.violation] };
  const type = t.type;
  if (SERVICE_MANAGED_TYPES.has(type)) {
    return {
      violations: [
        dnsError(
          LOCAL_CODES.locked,
          `${type} records are managed by the service and cannot be created or changed.`,
        ),
      ],
    };
  }

  let name = '';
  if (b.name !== undefined && b.name !== null && typeof b.name !== 'string') {
    violations.push(dnsError(CODES.badName, `"name" must be a string, not ${JSON.stringify(b.name)}.`));
  } else if (typeof b.name !== 'string' || b.name.trim() === '') {
    violations.push(dnsError(CODES.badName, 'A record "name" is required (use "@" for the zone apex).'));
  } else {
    const full = fullName(b.name, zone.name);
    if (full === null) {
      violations.push(
        dnsError(CODES.badName, `The name ${b.name} is not inside the zone ${normaliseZoneName(zone.name)}.`),
      );
    } else {
      name = full;
      const v = checkRecordName(full, type, zone.name);
      if (v) violations.push(v);
    }
  }

  const pv = checkProxied(type, b.proxied);
  if (pv) violations.push(pv);
  const proxied = b.proxied === true;
  const tv = checkTtl(b.ttl, zone.plan);
  if (tv) violations.push(tv);

  const value = checkValue(type, { content: b.content, data: b.data, priority: b.priority }, name, proxied);
  if (isViolation(value)) violations.push(value);

  // the shared fields (./fields.ts), each checked by its kind
  const shared: Record<string, unknown> = {};
  for (const field of MANAGED_FIELDS) {
    const checked = checkManagedField(field, b[field.name]);
    if ('violation' in checked) violations.push(checked.violation);
    else shared[field.name] = checked.value;
  }

  if (violations.length > 0 || isViolation(value)) return { violations };
  const record = {
    name,
    type,
    content: value.content,
    proxied,
    proxiable: isProxiable(type),
    ttl: effectiveTtl(b.ttl as number | undefined, proxied),
    ...(shared as StoredFields),
  } satisfies NormalisedRecord as NormalisedRecord;
  if (hasData(type)) record.data = value.data;
  if (PRIORITY_TYPES.has(type)) record.priority = value.priority;
  return { record };
}
