/**
 * What the edits of the drift property test share (drift-edits.ts, drift-dns-edits.ts): the edit's
 * verdict, the SDK and its loose objects, and random hex and base64 for new values.
 */
import type Cloudflare from 'cloudflare';
import type { Rng } from '../support/dns-entries.js';

export interface Edit {
  /** what was done, printed with the seed when a check fails */
  label: string;
  /** a fragment of the step that must name it, or null: drift must show nothing for the owner */
  expect: string | null;
}

export type Sdk = Cloudflare;
/** an object as the SDK returns it, read loosely: the test checks drift, not the SDK's types */
export type Live = Record<string, any>;

export const hex = (r: Rng, n: number) =>
  Array.from({ length: n }, () => r.pick([...'0123456789abcdef'])).join('');
export const b64 = (r: Rng, n: number) =>
  Array.from({ length: n }, () =>
    r.pick([...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789']),
  ).join('');

/** The relative, lower-case name of a record (as the plan's addresses give it). */
export function relative(fqdn: string, zone: string): string {
  const name = fqdn.toLowerCase().replace(/\.$/, '');
  return name === zone ? '@' : name.endsWith(`.${zone}`) ? name.slice(0, -(zone.length + 1)) : name;
}
