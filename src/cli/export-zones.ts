/**
 * Which zones `export` reads when they are not all named plainly: `--zone` patterns and the zones
 * of an `--account` with `--out-dir`. Patterns are those of plan's `--zone` (src/core/selection.ts):
 * `*` any run of characters, dots included, `?` one character, case-insensitive. They are matched
 * against the zone list the target answers (50 zones a page), read once per account and once for
 * the patterns; a pattern or an account that matches no zone is an error naming it.
 */
import { listAll } from '../core/list.js';
import type { Requester } from '../core/runtime.js';
import { globToRegExp } from '../core/selection.js';
import { UserError } from '../errors.js';

/** The zone list's largest page (OpenAPI zones-get: per_page 5..50). */
const ZONE_PAGE_SIZE = 50;

export const isZonePattern = (zone: string) => /[*?]/.test(zone);

async function zoneNames(client: Requester, account?: string): Promise<string[]> {
  const zones = await listAll<{ name?: unknown }>(client, '/zones', {
    query: account ? { 'account.id': account } : {},
    perPage: ZONE_PAGE_SIZE,
  });
  const names = zones.map((z) => (typeof z.name === 'string' ? z.name.toLowerCase() : ''));
  return [...new Set(names.filter((n) => n !== ''))].sort();
}

export interface ZoneRequest {
  /** names and patterns as given (lower case) */
  zones: string[];
  /** accounts whose every zone is wanted (`--out-dir`) */
  accountsWhole: string[];
}

/** The zones to read: the plain names as given, then every zone a pattern or an account matched, once. */
export async function resolveZones(client: Requester, request: ZoneRequest): Promise<string[]> {
  const out = new Set(request.zones.filter((z) => !isZonePattern(z)));
  const patterns = request.zones.filter(isZonePattern);
  const problems: string[] = [];
  if (patterns.length > 0) {
    const all = await zoneNames(client);
    for (const pattern of patterns) {
      const re = globToRegExp(pattern);
      const hits = all.filter((name) => re.test(name));
      if (hits.length === 0) problems.push(`--zone ${pattern} matches no zone on the target`);
      for (const name of hits) out.add(name);
    }
  }
  for (const account of request.accountsWhole) {
    const names = await zoneNames(client, account);
    if (names.length === 0) problems.push(`--account ${account} has no zone on the target`);
    for (const name of names) out.add(name);
  }
  if (problems.length > 0)
    throw new UserError(
      `${problems.join('; ')} (check the pattern or id and that the credentials reach them)`,
    );
  return [...out];
}
