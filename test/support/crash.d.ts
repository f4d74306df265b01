// Types of crash.js for the TypeScript tests.
import type { SoakRecord } from './scenario.js';
export interface ApplyCrashRow {
  round: number;
  killAt: number;
  killed: boolean;
  killedExit: number | string | null;
  rerunExit: number | null;
  records: number;
  problems: string[];
}
export interface ServerCrashRow {
  round: number;
  killAt: number;
  batchMs: number;
  answer: number | string;
  present: number;
  problems: string[];
}
export const MAX_RECORDS: number;
export function mutate(
  records: SoakRecord[],
  random: () => number,
  round: number,
  changes: number,
): SoakRecord[];
export function crashFixtures(changes: number, seed: number): Record<string, unknown>;
export function applyCrashes(opts: {
  url: string;
  dir: string;
  seed: number;
  runs: number;
  changes: number;
  /** an upper bound of the kill moments; by default the duration of the calibration apply */
  killWindowMs?: number;
  /** also Page Shield, Logpush, the WAF migration and notifications, renamed every round */
  withKinds?: boolean;
  /** each round's kill moment in its own slice of the window, not anywhere in it */
  stratified?: boolean;
  onRound?: (row: ApplyCrashRow) => void;
}): Promise<{
  rows: ApplyCrashRow[];
  calibrationMs: number;
  finalPlanExit: number | null;
  finalPlan: string;
}>;
export function serverCrashes(opts: {
  seed: number;
  runs: number;
  size: number;
  /** each round's kill moment in its own slice of the batch's duration, not anywhere in it */
  stratified?: boolean;
  onRound?: (row: ServerCrashRow) => void;
}): Promise<ServerCrashRow[]>;
