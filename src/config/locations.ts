/**
 * DesiredState.locations for the reconciler: a Map of dotted path -> file:line:col that is filled
 * on first use, by re-parsing the file's text. Planning a clean file never reads it, so a file of
 * 100,000 records does not keep half a million entries alive for nothing.
 */
import type { SourceLocation } from './model.js';

export class LazyLocations extends Map<string, SourceLocation> {
  private build?: () => Map<string, SourceLocation>;

  constructor(build: () => Map<string, SourceLocation>) {
    super();
    this.build = build;
  }

  private load(): void {
    const build = this.build;
    if (!build) return;
    this.build = undefined;
    for (const [path, location] of build()) super.set(path, location);
  }

  override get(path: string): SourceLocation | undefined {
    this.load();
    return super.get(path);
  }
  override has(path: string): boolean {
    this.load();
    return super.has(path);
  }
  override set(path: string, location: SourceLocation): this {
    this.load();
    return super.set(path, location);
  }
  override delete(path: string): boolean {
    this.load();
    return super.delete(path);
  }
  override get size(): number {
    this.load();
    return super.size;
  }
  override forEach(fn: (value: SourceLocation, key: string, map: Map<string, SourceLocation>) => void): void {
    this.load();
    super.forEach(fn);
  }
  override entries(): MapIterator<[string, SourceLocation]> {
    this.load();
    return super.entries();
  }
  override keys(): MapIterator<string> {
    this.load();
    return super.keys();
  }
  override values(): MapIterator<SourceLocation> {
    this.load();
    return super.values();
  }
  override [Symbol.iterator](): MapIterator<[string, SourceLocation]> {
    return this.entries();
  }
}
