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

/** A zone is reached when the credential names it (by id or name) or has `zones: all`. */
export function reachesZone(p: Principal, zone: ZoneRow): boolean {
  return p.zones === 'all' || p.zones.includes(zone.id) || p.zones.includes(zone.name);
}

export function reachesAccount(p: Principal, accountId: string): boolean {
  return p.accounts === 'all' || p.accounts.includes(accountId);
}
