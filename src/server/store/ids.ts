/** Identifiers and timestamps in the real API's forms. */
import { createHash, randomBytes } from 'node:crypto';
import { ID32 } from '../../rules/shared/values.js';

/** A new 32-hex identifier, as zones, records and accounts have. */
let pool = Buffer.alloc(0);
let offset = 0;

export function newId(): string {
  // one randomBytes call per 256 ids: a 3,500-record batch would otherwise make 3,500 calls
  if (offset + 16 > pool.length) {
    pool = randomBytes(16 * 256);
    offset = 0;
  }
  offset += 16;
  return pool.toString('hex', offset - 16, offset);
}

/** A stable 32-hex identifier derived from text: fixtures without ids load idempotently. */
export function stableId(kind: string, key: string): string {
  return createHash('sha256').update(`${kind}\0${key}`).digest('hex').slice(0, 32);
}

/** The shape of every 32-hex id (zones, records, accounts, Page Shield items, pools), shared with the reconciler. */
export { ID32 };

export function isId32(text: string): boolean {
  return ID32.test(text);
}

/** ISO 8601 with fractional seconds, e.g. 2024-05-01T10:00:00.123456Z. */
export function now(): string {
  const d = new Date();
  // microseconds as the real API prints them; the extra digits keep same-millisecond writes ordered
  const micro = String(Math.floor((performance.now() % 1) * 1000)).padStart(3, '0');
  return d.toISOString().replace('Z', `${micro}Z`);
}

/** The digest under which a credential is stored: the secret itself never reaches the database. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
