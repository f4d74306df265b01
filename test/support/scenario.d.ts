// Types of scenario.js for the TypeScript tests (bench scripts are plain JS: node runs them as is).
export interface SoakRecord {
  name: string;
  type: string;
  content: string;
  ttl?: number;
  proxied?: boolean;
}
export interface LiveRecord extends Required<SoakRecord> {
  id: string;
  meta?: Record<string, unknown>;
  [field: string]: unknown;
}
export type Get = <T = any>(path: string) => Promise<T>;
export const ACCOUNT: string;
export const TOKEN: string;
export const DNS_ZONE: string;
export const KINDS_ZONE: string;
export const OTHER_ZONE: string;
export const LOGPUSH_SECRET_ENV: string;
export const IGNORED: SoakRecord[];
export function rng(seed: number): () => number;
export function dnsScenario(
  changes: number,
  seed: number,
): { seedRecords: SoakRecord[]; records: SoakRecord[] };
export const OLDER_FREE_QUOTA: number;
export function dnsZonePlan(count: number): { plan: string; created_on?: string };
export function fixtures(opts: {
  seedRecords: SoakRecord[];
  records?: SoakRecord[];
  pools?: number;
}): Record<string, unknown>;
export function desiredYaml(records: SoakRecord[], opts?: { dnsOnly?: boolean; variant?: number }): string;
export function reader(url: string, token: string): Get;
export function zoneId(get: Get, name: string): Promise<string>;
export function zoneRecords(get: Get, name: string): Promise<LiveRecord[]>;
export function dnsDifferences(get: Get, records: SoakRecord[]): Promise<string[]>;
export function kindDifferences(get: Get, variant?: number): Promise<string[]>;
