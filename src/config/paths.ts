/**
 * Dotted paths name a place inside the desired-state document in every message:
 * `zones[0].dns.records[3].content`. Keys that are not plain identifiers are quoted
 * (`filters["pool-id"]`) so a path always reads back unambiguously.
 */

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** Appends one step (a map key or a list index) to a dotted path. */
export function childPath(parent: string, step: string | number): string {
  if (typeof step === 'number') return `${parent}[${step}]`;
  const key = PLAIN_KEY.test(step) ? step : JSON.stringify(step);
  if (!PLAIN_KEY.test(step)) return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}

/** Converts an ajv instance path (a JSON pointer such as `/zones/0/dns`) to a dotted path. */
export function pointerToPath(pointer: string, value: unknown): string {
  if (!pointer) return '';
  let path = '';
  let node: unknown = value;
  for (const raw of pointer.slice(1).split('/')) {
    const step = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^\d+$/.test(step)) {
      path = childPath(path, Number(step));
      node = node[Number(step)];
    } else {
      path = childPath(path, step);
      node = node && typeof node === 'object' ? (node as Record<string, unknown>)[step] : undefined;
    }
  }
  return path;
}

/** The path one step up (`zones[0].dns` for `zones[0].dns.records`); '' at the top. */
export function parentPath(path: string): string {
  const m = /^(.*?)(\.[A-Za-z_][A-Za-z0-9_-]*|\[[^\]]*\])$/.exec(path);
  return m ? m[1] : '';
}

/**
 * The steps of a dotted path, the inverse of childPath: `zones[0].dns["a b"]` -> ['zones', 0, 'dns',
 * 'a b']. A path that does not parse ends at its last readable step (locations fall back to it).
 */
export function pathSteps(path: string): (string | number)[] {
  const steps: (string | number)[] = [];
  const step = /\.?([A-Za-z_][A-Za-z0-9_-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  while (step.lastIndex < path.length) {
    const at = step.lastIndex;
    const m = step.exec(path);
    if (!m || m.index !== at) break;
    if (m[1] !== undefined) steps.push(m[1]);
    else if (m[2] !== undefined) steps.push(Number(m[2]));
    else steps.push(JSON.parse(m[3]) as string);
  }
  return steps;
}

/**
 * The paths where problems were found, for asking "is there a problem at or under this path?" in
 * one lookup: every path is stored with all its ancestors (a file's paths are a few levels deep).
 */
export class ProblemPaths {
  private readonly under = new Set<string>();

  add(path: string): void {
    for (let p = path; !this.under.has(p); p = parentPath(p)) {
      this.under.add(p);
      if (p === '') break;
    }
  }

  /** Whether a problem was added at `path` or below it. */
  has(path: string): boolean {
    return this.under.has(path);
  }
}
