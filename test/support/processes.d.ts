// Types of processes.js for the TypeScript tests.
export const ROOT: string;
export const BIN: string;
export function requireBuild(): void;
export function spawnZoneplan(
  args: string[],
  opts?: {
    cwd?: string;
    env?: Record<string, string>;
    nodeArgs?: string[];
    node?: string;
    stdio?: import('node:child_process').StdioOptions;
  },
): import('node:child_process').ChildProcessByStdio<
  null,
  import('node:stream').Readable,
  import('node:stream').Readable
>;
export interface Serve {
  url: string;
  pid: number;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}
export function startServe(opts: {
  db: string;
  fixtures?: string;
  faults?: string;
  cwd: string;
  env?: Record<string, string>;
  /** more `serve` options, e.g. `['--test-routes', '--allowed-host', 'dev.internal']` */
  extraArgs?: string[];
}): Promise<Serve>;
export function apiCaller(
  url: string,
  token: string,
): (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ success: boolean; result: any; [k: string]: any }>;
export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  ms: number;
}
export function spawnCli(
  args: string[],
  opts: {
    cwd: string;
    env?: Record<string, string>;
    timeoutMs?: number;
    killAfterMs?: number;
    nodeArgs?: string[];
    node?: string;
  },
): Promise<CliRun>;
