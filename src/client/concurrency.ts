/**
 * A counting semaphore: at most `limit` requests in flight at once, client-wide, served in call
 * order. The cap protects the API (and the local server's SQLite writer) from a burst of parallel
 * apply steps, and matches the size of the connection pool.
 */

export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`invalid concurrency ${limit}`);
  }

  async acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active += 1;
      return;
    }
    // The releasing caller hands its slot over directly, so `active` does not change.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active -= 1;
  }

  /** Runs `fn` holding one slot. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await fn();
    } finally {
      this.release();
    }
  }
}
