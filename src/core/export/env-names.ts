/**
 * Names of the environment variables that stand in for secrets in an export, e.g.
 * `ZONEPLAN_<KIND>_EXAMPLE_COM_<OBJECT>_ACCESS_KEY_ID`. A name depends only on the parts it
 * is built from (zone, job, parameter), so exporting the same live state twice gives the same file;
 * two different objects whose parts collapse to the same name get `_2`, `_3`, ... in the order asked.
 */
import type { ExportVariable, VariableNamer } from './types.js';

/** Upper case, runs of anything but letters and digits as one `_`, no leading digit. */
export function variablePart(text: string): string {
  const part = text
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return part || 'X';
}

export class VariableRegistry implements VariableNamer {
  private readonly byKey = new Map<string, string>();
  private readonly used = new Set<string>();
  readonly variables: ExportVariable[] = [];

  name(parts: string[], describe: string): string {
    const key = JSON.stringify(parts);
    const known = this.byKey.get(key);
    if (known) return known;
    let base = ['ZONEPLAN', ...parts.map(variablePart)].join('_');
    if (/^[0-9]/.test(base)) base = `_${base}`;
    let name = base;
    for (let n = 2; this.used.has(name); n++) name = `${base}_${n}`;
    this.used.add(name);
    this.byKey.set(key, name);
    this.variables.push({ name, describe });
    return name;
  }
}
