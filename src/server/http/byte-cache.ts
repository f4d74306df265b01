/**
 * Encoded responses kept for as long as the data under them has not changed. A hot read (a client
 * paging through a large zone, a drift check run every minute) then costs a version check and a
 * socket write. Entries carry the version they were built at; the oldest go past a byte budget.
 */
export class ByteCache {
  private readonly entries = new Map<string, { version: string; bytes: Buffer }>();
  private size = 0;

  constructor(private readonly budget = 64 * 1024 * 1024) {}

  get(key: string, version: string): Buffer | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.version !== version) {
      this.drop(key);
      return undefined;
    }
    return hit.bytes;
  }

  set(key: string, version: string, bytes: Buffer): void {
    if (bytes.length > this.budget / 4) return;
    this.drop(key);
    this.entries.set(key, { version, bytes });
    this.size += bytes.length;
    for (const k of this.entries.keys()) {
      if (this.size <= this.budget) break;
      this.drop(k);
    }
  }

  private drop(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.size -= e.bytes.length;
    this.entries.delete(key);
  }
}
