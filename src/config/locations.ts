/**
 * DesiredState.locations for the reconciler: dotted path -> file:line:col, resolved one path at a
 * time on first use (by re-parsing the file's text once). Planning a clean file never reads it, and
 * a plan-time error pays only for the paths it names, however large the file.
 *
 * It is a Map so that kinds (and tests) can build one by hand; only `get` and `has` resolve from
 * the file, and what is iterated is what was looked up or set.
 */
import type { SourceLocation } from './model.js';
import type { SourceLocator } from './yaml-source.js';

export class LazyLocations extends Map<string, SourceLocation> {
  private locator?: SourceLocator;

  constructor(private readonly open: () => SourceLocator) {
    super();
  }

  /** The location of the value at exactly `path`; undefined when the file has none there. */
  override get(path: string): SourceLocation | undefined {
    const known = super.get(path);
    if (known) return known;
    this.locator ??= this.open();
    const found = this.locator.exact(path);
    if (found) super.set(path, found);
    return found;
  }

  override has(path: string): boolean {
    return this.get(path) !== undefined;
  }
}
