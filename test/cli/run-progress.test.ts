/**
 * The progress of a long run (src/cli/run-progress.ts): the notice a run longer than the budget
 * window prints at its start, the line redrawn on a TTY and the line a minute elsewhere.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { budgetNotice, createRunProgress } from '../../src/cli/run-progress.js';
import { parseRateLimit } from '../../src/client/auth.js';

afterEach(() => vi.useRealTimers());

describe('budgetNotice', () => {
  it('says nothing for a run the budget allows at once', () => {
    expect(budgetNotice(1200, parseRateLimit('1200/300'))).toBeUndefined();
    expect(budgetNotice(600, parseRateLimit('50%'))).toBeUndefined();
  });

  it('gives the requests and the time at the share of the budget', () => {
    // 600 go at once, the other 1,800 at 2 a second
    expect(budgetNotice(2400, parseRateLimit('50%'))).toBe(
      "about 2,400 requests: about 15 minutes at 50% of the API's budget (600 requests per 300 s)",
    );
    expect(budgetNotice(1506, parseRateLimit('1200/300'))).toBe(
      'about 1,506 requests: about 1 minute at a budget of 1,200 requests per 300 s',
    );
    expect(budgetNotice(6, parseRateLimit('2/0.1'))).toBe(
      'about 6 requests: about 1 second at a budget of 2 requests per 0.1 s',
    );
    expect(budgetNotice(30_000, parseRateLimit('25%'))).toBe(
      "about 30,000 requests: about 8 hours 15 minutes at 25% of the API's budget (300 requests per 300 s)",
    );
  });
});

/** A stream that keeps what is written. */
function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, isTTY, write: (text: string) => void writes.push(text) };
}

describe('createRunProgress', () => {
  it('off a TTY: one line per interval, none for a run shorter than that', () => {
    vi.useFakeTimers();
    const out = stream(false);
    let requests = 0;
    let wait = 0;
    const p = createRunProgress({
      stream: out,
      quiet: false,
      requests: () => requests,
      waitMs: () => wait,
      intervalMs: 60_000,
    });
    p.update('reading', 0, 300, 'zones');
    vi.advanceTimersByTime(59_000);
    expect(out.writes).toEqual([]);
    requests = 245;
    p.update('reading', 120, 300, 'zones');
    vi.advanceTimersByTime(1_000);
    wait = 12_400;
    vi.advanceTimersByTime(60_000);
    p.finish();
    vi.advanceTimersByTime(600_000);
    expect(out.writes).toEqual([
      'reading: 120/300 zones, 245 API requests\n',
      'reading: 120/300 zones, 245 API requests, waiting 13s for the request budget\n',
    ]);
  });

  it('on a TTY: one line redrawn in place, cleared at the end; --quiet prints nothing', () => {
    vi.useFakeTimers();
    const out = stream(true);
    const p = createRunProgress({ stream: out, quiet: false, requests: () => 7, waitMs: () => 0 });
    p.update('applying', 3, 5, 'steps');
    p.update('applying', 5, 5, 'steps');
    p.finish();
    expect(out.writes).toEqual([
      '\r\u001b[2Kapplying: 3/5 steps, 7 API requests',
      '\r\u001b[2Kapplying: 5/5 steps, 7 API requests',
      '\r\u001b[2K',
    ]);
    const quiet = stream(true);
    const q = createRunProgress({ stream: quiet, quiet: true, requests: () => 7, waitMs: () => 0 });
    q.update('reading', 1, 1, 'zones');
    q.finish();
    expect(quiet.writes).toEqual([]);
  });
});
