/**
 * Canonical JSON (keys sorted, undefined dropped) and the sha256 fingerprints built on it. Two
 * objects that mean the same thing have the same fingerprint whatever order their keys came in.
 */
import { nodeCrypto } from '../node-crypto.js';

export function canonicalJson(v: unknown): string {
  if (v === undefined) return 'null';
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
}

export function sha256(text: string | Buffer): string {
  return nodeCrypto().createHash('sha256').update(text).digest('hex');
}

/** Fingerprint of a normalised live object (null for "does not exist"). */
export function fingerprint(before: unknown): string {
  return sha256(canonicalJson(before ?? null));
}
