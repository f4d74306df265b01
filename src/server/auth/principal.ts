/**
 * Who is calling, and what they may touch. Tokens and e-mail/key pairs share one shape: the zones
 * and accounts they reach (or all), and read or edit per permission area (edit implies read).
 */
import type { Area } from '../http/router.js';
import type { ZoneRow } from '../store/core.js';

export type Scope = 'all' | string[];

export interface Principal {
  /** 32 hex, derived from the stored digest (what `/user/tokens/verify` reports) */
  id: string;
  kind: 'token' | 'key';
  label: string;
  zones: Scope;
  accounts: Scope;
  permissions: Partial<Record<Area, 'read' | 'edit'>>;
}

export function allows(p: Principal, area: Area, access: 'read' | 'edit'): boolean {
  const granted = p.permissions[area];
  return granted === 'edit' || (granted === 'read' && access === 'read');
}

/**
 * A zone is reached when the credential names it (by id or name) or has `zones: all`, and, when
 * the credential names accounts (`all` or a non-empty list), only through one of them: an
 * account-scoped credential reaches the zones of its accounts and no other (docs/local-api.md,
 * "Credentials and what they reach"). A credential that names no account (`accounts: []`, what
 * the fixtures give one that names only zones) reaches its zones wherever they are, and no
 * account-level object.
 */
export function reachesZone(p: Principal, zone: ZoneRow): boolean {
  const named = p.zones === 'all' || p.zones.includes(zone.id) || p.zones.includes(zone.name);
  if (!named) return false;
  return (p.accounts !== 'all' && p.accounts.length === 0) || reachesAccount(p, zone.account_id);
}

/** Account-level objects (pools, policies, account Logpush, zone creation) need the account named. */
export function reachesAccount(p: Principal, accountId: string): boolean {
  return p.accounts === 'all' || p.accounts.includes(accountId);
}
