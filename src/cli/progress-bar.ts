/**
 * A one-line progress bar on stderr, only on a TTY (CI logs get the final report instead).
 * Redraws at most every 100 ms so 100,000 steps cost nothing.
 */
import type { OutStream } from './io.js';

export interface ProgressBar {
  update(done: number, total: number): void;
  finish(): void;
}

export function createProgressBar(stream: OutStream, label = 'applying'): ProgressBar {
  if (!stream.isTTY) return { update() {}, finish() {} };
  let last = 0;
  let drawn = false;
  const draw = (done: number, total: number) => {
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    stream.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}`);
    drawn = true;
  };
  return {
    update(done, total) {
      const now = Date.now();
      if (done < total && now - last < 100) return;
      last = now;
      draw(done, total);
    },
    finish() {
      if (drawn) stream.write('\r\u001b[2K');
    },
  };
}
