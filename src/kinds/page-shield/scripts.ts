/**
 * Detected scripts, connections and cookies as the reconciler reads them, and the malicious-script
 * ceiling (`max_malicious_scripts`). The classification itself is the spec's and lives once in
 * src/rules/page-shield/ (js_integrity_score below 10; a missing score is unknown, never malicious).
 */
import { isMaliciousScript } from '../../rules/page-shield/index.js';

export interface DetectedScript {
  id: string;
  url: string;
  host?: string;
  status?: string;
  js_integrity_score?: number;
  url_reported_malicious?: boolean;
  domain_reported_malicious?: boolean;
  malicious_url_categories?: string[];
  first_page_url?: string;
  first_seen_at?: string;
  last_seen_at?: string;
}

export interface DetectedConnection {
  id: string;
  url: string;
  host?: string;
  status?: string;
  url_reported_malicious?: boolean;
  domain_reported_malicious?: boolean;
  malicious_url_categories?: string[];
  malicious_domain_categories?: string[];
  first_page_url?: string;
  last_seen_at?: string;
}

export interface DetectedCookie {
  id: string;
  name: string;
  host?: string;
  type?: string;
  domain_attribute?: string;
  path_attribute?: string;
  secure_attribute?: boolean;
  http_only_attribute?: boolean;
  same_site_attribute?: string;
  first_page_url?: string;
  last_seen_at?: string;
}

export type ScriptClass = 'malicious' | 'clean' | 'unknown';

/** A score that is absent, null or not a finite number is unknown (some plans omit the field). */
export function hasScore(s: { js_integrity_score?: unknown }): boolean {
  return typeof s.js_integrity_score === 'number' && Number.isFinite(s.js_integrity_score);
}

export function classifyScript(s: DetectedScript): ScriptClass {
  if (!hasScore(s)) return 'unknown';
  return isMaliciousScript(s) ? 'malicious' : 'clean';
}

/** Statuses counted by the ceiling: the spec's two states of a detected item. */
export const CEILING_STATUSES = ['active', 'infrequent'] as const;

export interface CeilingResult {
  ok: boolean;
  malicious: DetectedScript[];
  unknown: number;
  message?: string;
}

/**
 * Checks `max_malicious_scripts` for one zone. Scripts are de-duplicated by id (a script listed under
 * two status filters counts once). The message names the count, the limit and the worst scripts, so
 * a scheduled run says what to look at without another command.
 */
export function checkMaliciousCeiling(zone: string, max: number, scripts: DetectedScript[]): CeilingResult {
  const seen = new Set<string>();
  const malicious: DetectedScript[] = [];
  let unknown = 0;
  for (const s of scripts) {
    if (seen.has(s.id)) continue;
    seen.add(s.id);
    const cls = classifyScript(s);
    if (cls === 'malicious') malicious.push(s);
    else if (cls === 'unknown') unknown++;
  }
  malicious.sort(byScoreThenUrl);
  if (malicious.length <= max) return { ok: true, malicious, unknown };
  const shown = malicious
    .slice(0, 5)
    .map((s) => `${s.url} (score ${s.js_integrity_score}, ${s.status ?? 'active'})`)
    .join(', ');
  const more = malicious.length > 5 ? ` and ${malicious.length - 5} more` : '';
  const message =
    `zone ${zone}: ${malicious.length} malicious script${malicious.length === 1 ? '' : 's'} detected ` +
    `(active and infrequent), more than max_malicious_scripts ${max}: ${shown}${more}. ` +
    `See \`zoneplan page-shield report ${zone}\`.`;
  return { ok: false, malicious, unknown, message };
}

export function byScoreThenUrl(a: DetectedScript, b: DetectedScript): number {
  const sa = a.js_integrity_score ?? Number.POSITIVE_INFINITY;
  const sb = b.js_integrity_score ?? Number.POSITIVE_INFINITY;
  if (sa !== sb) return sa - sb;
  return a.url.localeCompare(b.url) || a.id.localeCompare(b.id);
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const bool = (v: unknown) => (typeof v === 'boolean' ? v : undefined);
const strList = (v: unknown) =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;

/** Reads a list item defensively: fields missing "depending on the plan" stay undefined. */
export function scriptFromApi(raw: Record<string, unknown>): DetectedScript {
  return {
    id: str(raw.id) ?? '',
    url: str(raw.url) ?? '',
    host: str(raw.host),
    status: str(raw.status),
    js_integrity_score: typeof raw.js_integrity_score === 'number' ? raw.js_integrity_score : undefined,
    url_reported_malicious: bool(raw.url_reported_malicious),
    domain_reported_malicious: bool(raw.domain_reported_malicious),
    malicious_url_categories: strList(raw.malicious_url_categories),
    first_page_url: str(raw.first_page_url),
    first_seen_at: str(raw.first_seen_at),
    last_seen_at: str(raw.last_seen_at),
  };
}

export function connectionFromApi(raw: Record<string, unknown>): DetectedConnection {
  return {
    id: str(raw.id) ?? '',
    url: str(raw.url) ?? '',
    host: str(raw.host),
    status: str(raw.status),
    url_reported_malicious: bool(raw.url_reported_malicious),
    domain_reported_malicious: bool(raw.domain_reported_malicious),
    malicious_url_categories: strList(raw.malicious_url_categories),
    malicious_domain_categories: strList(raw.malicious_domain_categories),
    first_page_url: str(raw.first_page_url),
    last_seen_at: str(raw.last_seen_at),
  };
}

export function cookieFromApi(raw: Record<string, unknown>): DetectedCookie {
  return {
    id: str(raw.id) ?? '',
    name: str(raw.name) ?? '',
    host: str(raw.host),
    type: str(raw.type),
    domain_attribute: str(raw.domain_attribute),
    path_attribute: str(raw.path_attribute),
    secure_attribute: bool(raw.secure_attribute),
    http_only_attribute: bool(raw.http_only_attribute),
    same_site_attribute: str(raw.same_site_attribute),
    first_page_url: str(raw.first_page_url),
    last_seen_at: str(raw.last_seen_at),
  };
}
