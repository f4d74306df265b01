/**
 * The type lists the rules ask for (all types, proxiable, with a priority, service-managed), derived
 * from the record model (./model.ts), and the type, TTL and proxy checks.
 */
import { RECORD_MODEL, typesWhere, type RecordType } from './model.js';
import { CODES, LOCAL_CODES, dnsError, type Violation } from './violation.js';

/** Every type, in the order messages and the schema list them (./model.ts). */
export const RECORD_TYPES = Object.keys(RECORD_MODEL) as readonly RecordType[];

export type { RecordType };

const TYPE_SET: ReadonlySet<string> = new Set(RECORD_TYPES);

export function isRecordType(type: string): type is RecordType {
  return TYPE_SET.has(type);
}

// Types read letter by letter (or as words) that start with a vowel sound take "an" (the model
// says which): "an A record", "an MX record", "an SRV record", but "a CNAME", "a URI".
const AN_TYPES = typesWhere((m) => m.article === 'an');

/**
 * The type with its indefinite article, for messages: `withArticle('MX')` is "an MX",
 * `withArticle('CNAME', true)` is "A CNAME" (to start a sentence). Unknown types go by their
 * first letter (a vowel, or a consonant whose name starts with one: F, H, L, M, N, R, S, X).
 */
export function withArticle(type: string, capital = false): string {
  const upper = type.toUpperCase();
  const an = AN_TYPES.has(upper) || (!isRecordType(upper) && /^[AEIOFHLMNRSX]/.test(upper));
  const article = an ? 'an' : 'a';
  return `${capital ? article[0].toUpperCase() + article.slice(1) : article} ${type}`;
}

/** Only address-resolution records can be proxied (spec). */
export const PROXIABLE_TYPES = typesWhere((m) => m.proxiable === true);

export function isProxiable(type: string): boolean {
  return PROXIABLE_TYPES.has(type.toUpperCase());
}

/** Types that carry `priority` beside their content (or, SRV, inside their data). */
export const PRIORITY_TYPES = typesWhere((m) => m.priority !== undefined);

/** Types the service creates and keeps itself: they cannot be created, changed or deleted. */
export const SERVICE_MANAGED_TYPES = typesWhere((m) => m.serviceManaged === true);

/** Types the API once had, each with what to write instead (the validator and the local API say the same). */
export const RETIRED_TYPES: Readonly<Record<string, string>> = {
  SPF: 'The SPF record type is retired (RFC 7208) and the API no longer accepts it: publish the SPF policy as a TXT record (type TXT, content "v=spf1 ...").',
};

/** Checks the type; returns the upper-case type or a violation. */
export function checkType(type: unknown): { type: RecordType } | { violation: Violation } {
  if (typeof type !== 'string' || type.trim() === '') {
    return {
      violation: dnsError(LOCAL_CODES.badType, 'A record type is required (A, AAAA, CNAME, MX, TXT, ...).'),
    };
  }
  const upper = type.trim().toUpperCase();
  const retired = RETIRED_TYPES[upper];
  if (retired !== undefined) return { violation: dnsError(LOCAL_CODES.badType, retired) };
  if (!isRecordType(upper)) {
    return {
      violation: dnsError(
        LOCAL_CODES.badType,
        `Unsupported record type "${type}". Supported: ${RECORD_TYPES.join(', ')}.`,
      ),
    };
  }
  return { type: upper };
}

/** TTL 1 means Auto (300 seconds). */
export const TTL_AUTO = 1;
export const TTL_AUTO_SECONDS = 300;
export const TTL_MAX = 86400;

/** The lowest custom TTL of a plan: 30 on Enterprise, 60 elsewhere. */
export function minTtl(plan: string): number {
  return plan === 'enterprise' ? 30 : 60;
}

/** Checks a TTL value as sent (undefined means Auto). */
export function checkTtl(ttl: unknown, plan: string): Violation | null {
  if (ttl === undefined || ttl === null) return null;
  const min = minTtl(plan);
  if (
    typeof ttl !== 'number' ||
    !Number.isInteger(ttl) ||
    (ttl !== TTL_AUTO && (ttl < min || ttl > TTL_MAX))
  ) {
    return dnsError(
      CODES.badTtl,
      `Invalid TTL ${JSON.stringify(ttl)}. Must be between ${min} and ${TTL_MAX} seconds, or 1 for Automatic.`,
    );
  }
  return null;
}

/**
 * The TTL to store: proxied records always have Auto (1), whatever was sent; an omitted TTL is
 * Auto. Call after checkTtl.
 */
export function effectiveTtl(ttl: number | undefined | null, proxied: boolean): number {
  if (proxied) return TTL_AUTO;
  return ttl ?? TTL_AUTO;
}

/** Checks that a record of this type may have the given proxied flag. */
export function checkProxied(type: string, proxied: unknown): Violation | null {
  if (proxied === undefined || proxied === null || proxied === false) return null;
  if (proxied !== true) {
    return dnsError(
      LOCAL_CODES.badContent,
      `"proxied" must be true or false, not ${JSON.stringify(proxied)}.`,
    );
  }
  if (!isProxiable(type)) return dnsError(CODES.notProxiable, 'This kind of record cannot be proxied.');
  return null;
}
