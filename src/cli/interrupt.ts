/**
 * SIGINT / SIGTERM (Ctrl-C, a CI cancel). By default a signal ends the command at once with exit
 * 130 and one line saying so: plan, drift, validate and export change nothing, so there is nothing
 * to finish. While apply runs its steps it registers a graceful hook instead (docs/reference/design.md section 5): the first
 * signal asks the run to stop (no new step starts, requests in flight finish within the request
 * timeout, what was touched is read back, the journal gets its end, the report is printed); a
 * second signal exits at once.
 */
import { ZoneplanError } from '../errors.js';

/** 128 + SIGINT, what shells report for a command stopped by Ctrl-C. */
export const INTERRUPTED_EXIT = 130;

/** apply was stopped by a signal after finishing what was in flight (exit 130). */
export class InterruptedError extends ZoneplanError {
  override readonly exitCode = INTERRUPTED_EXIT;
}

let graceful: ((signal: string) => void) | undefined;
let signalled = false;
let installed = false;

function onSignal(signal: NodeJS.Signals): void {
  // a command that handles the signal itself (serve stops after its in-flight requests) decides
  if (!graceful && process.listenerCount(signal) > 1) return;
  if (signalled || !graceful) {
    process.stderr.write(`\n${signal === 'SIGTERM' ? 'terminated' : 'interrupted'}: stopping now\n`);
    exitNow();
  }
  signalled = true;
  graceful(signal);
}

/** How long process.exit may take before the process is ended without it. */
const EXIT_GRACE_MS = 2000;

/**
 * process.exit waits for the threads of node's I/O pool: one blocked in a call that never returns
 * (an open of a FIFO with no writer, a read of a hung network file system, a slow DNS lookup) holds
 * the process forever, signal or not. The files zoneplan reads are opened so that they cannot block
 * (src/read-user-file.ts); for anything else, a small watchdog process ends this one if it is still
 * there after the grace time. It checks that it is still this process's child first: once this
 * process is gone its pid may be another's.
 */
function exitNow(): never {
  try {
    // loaded here, not at start-up: only a signal needs it
    const { spawn } = process.getBuiltinModule('node:child_process');
    const pid = process.pid;
    const watchdog = spawn(
      process.execPath,
      [
        '-e',
        `setTimeout(() => { if (process.ppid === ${pid}) process.kill(${pid}, 'SIGKILL'); }, ${EXIT_GRACE_MS});`,
      ],
      { stdio: 'ignore', env: {} },
    );
    watchdog.unref();
  } catch {
    // no watchdog: the exit below is all there is
  }
  process.exit(INTERRUPTED_EXIT);
}

/** Once per process, before any command runs (bin/zoneplan.js); never for in-process runs. */
export function installInterruptHandlers(): void {
  if (installed) return;
  installed = true;
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/**
 * While the returned function has not been called, the first signal calls `hook` instead of
 * exiting; a second one exits at once.
 */
export function onInterrupt(hook: (signal: string) => void): () => void {
  graceful = hook;
  return () => {
    if (graceful === hook) graceful = undefined;
  };
}
