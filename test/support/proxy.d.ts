// Types of proxy.js for the TypeScript tests.
export interface FaultProxy {
  /** the proxy's API base (same path as the target) */
  url: string;
  stats: { requests: number; byStatus: Record<string, number>; burst429: number };
  close(): Promise<void>;
}
export function startFaultProxy(opts: {
  target: string;
  burstAt?: number;
  burstLength?: number;
  retryAfter?: number;
}): Promise<FaultProxy>;
