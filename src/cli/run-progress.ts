/**
 * Progress of a run over many owners, on stderr: what a fleet run is doing while the request budget
 * holds it back. On a TTY one line redrawn in place (at most 10 times a second, and each second
 * while nothing finishes, so a budget wait counts down); elsewhere (a CI log, a scheduled job) one
 * line a minute, so a short run prints nothing and a long one shows it is alive. Silenced by
 * --quiet. Each line: owners (or steps) done of the total, the API requests sent, and how long the
 * next request waits for the budget.
 */
import type { OutStream } from './io.js';

export interface RunProgress {
  /** `done` of `total` `unit` (zones read, steps applied) in the current `phase` */
  update(phase: string, done: number, total: number, unit: string): void;
  /** clears the TTY line and stops the timers */
  finish(): void;
}

export interface RunProgressOptions {
  stream: OutStream;
  quiet: boolean;
  /** the API requests sent so far */
  requests(): number;
  /** how long a request sent now would wait for the budget, in ms */
  waitMs(): number;
  /** between lines when not on a TTY (default one minute) */
  intervalMs?: number;
}

const LOG_INTERVAL_MS = 60_000;

export function createRunProgress(opts: RunProgressOptions): RunProgress {
  if (opts.quiet) return { update() {}, finish() {} };
  let state: { phase: string; done: number; total: number; unit: string } | undefined;
  const line = () => {
    if (!state) return '';
    const wait = Math.ceil(opts.waitMs() / 1000);
    return (
      `${state.phase}: ${state.done}/${state.total} ${state.unit}, ${opts.requests()} API requests` +
      (wait > 0 ? `, waiting ${wait}s for the request budget` : '')
    );
  };
  if (!opts.stream.isTTY) {
    // unref'd: the timer never keeps a finished run alive
    const timer = setInterval(() => {
      if (state) opts.stream.write(line() + '\n');
    }, opts.intervalMs ?? LOG_INTERVAL_MS);
    timer.unref?.();
    return {
      update(phase, done, total, unit) {
        state = { phase, done, total, unit };
      },
      finish() {
        clearInterval(timer);
      },
    };
  }
  let drawn = false;
  let last = 0;
  const draw = () => {
    if (!state) return;
    last = Date.now();
    opts.stream.write(`\r\u001b[2K${line()}`);
    drawn = true;
  };
  const tick = setInterval(draw, 1000);
  tick.unref?.();
  return {
    update(phase, done, total, unit) {
      state = { phase, done, total, unit };
      if (Date.now() - last >= 100 || done === total) draw();
    },
    finish() {
      clearInterval(tick);
      if (drawn) opts.stream.write('\r\u001b[2K');
      drawn = false;
    },
  };
}

/**
 * `about 2,400 requests: about 15 minutes at 50% of the API's budget (600 requests per 300 s)`, or
 * undefined when the run fits in what the budget allows at once (the bucket starts full: the first
 * `limit.requests` go at once, the rest at the budget's rate).
 */
export function budgetNotice(
  requests: number,
  limit: { requests: number; perSeconds: number; share?: number },
): string | undefined {
  if (requests <= limit.requests) return undefined;
  const seconds = ((requests - limit.requests) * limit.perSeconds) / limit.requests;
  const budget = `${limit.requests.toLocaleString('en-US')} requests per ${limit.perSeconds} s`;
  const of =
    limit.share !== undefined
      ? `${+(limit.share * 100).toFixed(2)}% of the API's budget (${budget})`
      : `a budget of ${budget}`;
  return `about ${requests.toLocaleString('en-US')} requests: about ${duration(seconds)} at ${of}`;
}

/** `40 seconds`, `1 minute`, `15 minutes`, `2 hours 5 minutes` */
function duration(seconds: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (seconds < 60) return plural(Math.max(1, Math.round(seconds)), 'second');
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return plural(minutes, 'minute');
  const rest = minutes % 60;
  return plural(Math.floor(minutes / 60), 'hour') + (rest > 0 ? ` ${plural(rest, 'minute')}` : '');
}
